#include "cli/launcher_placement.hpp"

#include <memory>

#include "cli/mpi_failures.hpp"
#include "exec/process_executor.hpp"

namespace numacoll::cli {

int follow_launcher_binding(const exec::MpiWorld& world, const CLI::App& command, const std::string& topology,
                            bool pin, int nodes, std::vector<int>& pus, bool& followed, const char* unit) {
    if (nodes != 1 || !pus.empty() || command.count("--placement") > 0 || !pin) return 0;
    std::shared_ptr<const topo::Machine> here;
    if (const int code = agree_on(world, [&] { here = load_this_machine(topology); }, unit)) return code;
    std::vector<int> bound = exec::pus_from_launcher_bindings(world, *here);
    if (bound.empty()) return 0;
    pus = std::move(bound);
    followed = true;
    return 0;
}

}  // namespace numacoll::cli

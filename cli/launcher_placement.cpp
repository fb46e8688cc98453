#include "cli/launcher_placement.hpp"

#include <fmt/format.h>

#include <memory>
#include <set>

#include "cli/mpi_failures.hpp"
#include "common/error.hpp"
#include "exec/process_executor.hpp"

namespace numacoll::cli {

int follow_launcher_binding(const exec::MpiWorld& world, const CLI::App& command, const std::string& topology,
                            bool pin, int nodes, std::vector<int>& pus, bool& followed, const char* unit) {
    if (nodes != 1 || !pus.empty() || command.count("--placement") > 0 || !pin) return 0;
    std::shared_ptr<const topo::Machine> here;
    if (const int code = agree_on(world, [&] { here = load_this_machine(topology); }, unit)) return code;
    std::vector<int> bound = exec::pus_from_launcher_bindings(world, *here);
    if (bound.empty()) return 0;
    // A layout gives each rank its own PU: processes bound to fewer PUs than they are cannot be followed.
    if (const int code = agree_on(world, [&] {
            std::set<int> distinct(bound.begin(), bound.end());
            if (distinct.size() < bound.size())
                throw UsageError(fmt::format("the launcher bound {} processes to {} PU{}: ranks as processes take one "
                                             "PU each; bind them to more (mpirun --bind-to core) or to none "
                                             "(--bind-to none)",
                                             bound.size(), distinct.size(), distinct.size() == 1 ? "" : "s"));
        }, unit))
        return code;
    pus = std::move(bound);
    followed = true;
    return 0;
}

}  // namespace numacoll::cli

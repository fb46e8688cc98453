#include "cli/common.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "topologies/error.hpp"

namespace numacoll::cli {

void MachineOptions::add_to(CLI::App& command, const std::string& default_topology, bool with_layout) {
    topology = default_topology;
    command
        .add_option("--topology,-t", topology,
                    "machine: a bundled name (westmere, magnycours), a path to an hwloc XML file, "
                    "synthetic:\"Package:2 Core:4\", or live")
        ->capture_default_str();
    if (!with_layout) return;
    command.add_option("--nodes,-N", nodes, "number of identical nodes")->capture_default_str();
    command.add_option("--ranks,-p", ranks_per_node, "ranks (threads) per node; 0 = one per core")->capture_default_str();
    command.add_option("--placement", placement, "compact, scatter (round-robin over packages) or list")
        ->capture_default_str();
    command.add_option("--pus", pus, "explicit logical PU list for --placement list, e.g. 0,6,1,7")->delimiter(',');
}

std::shared_ptr<const topo::Machine> MachineOptions::load() const {
    return std::make_shared<const topo::Machine>(topo::load_machine(topology));
}

algo::Layout MachineOptions::layout(std::shared_ptr<const topo::Machine> machine) const {
    algo::LayoutOptions options;
    options.nodes = nodes;
    options.ranks_per_node = ranks_per_node;
    options.placement = pus.empty() ? algo::parse_placement(placement) : algo::Placement::list;
    options.pu_list = pus;
    return algo::make_layout(std::move(machine), options);
}

void write_output(const std::string& path, const std::string& text) {
    if (path == "-" || path.empty()) {
        std::cout << text << std::flush;
        return;
    }
    const std::filesystem::path target(path);
    const std::filesystem::path temporary = target.string() + fmt::format(".tmp{}", ::getpid());
    {
        std::ofstream out(temporary, std::ios::binary);
        if (!out) throw UsageError(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
        out << text;
        out.close();
        if (!out) {
            std::filesystem::remove(temporary);
            throw Error(fmt::format("cannot write '{}': the write failed", path));
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, target, error);
    if (error) {
        std::filesystem::remove(temporary);
        throw UsageError(fmt::format("cannot write '{}': {}", path, error.message()));
    }
}

std::string read_file(const std::string& path) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error)) throw InputError(fmt::format("cannot read '{}': it is a directory", path));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace numacoll::cli

// numacoll topo: the machine model hwloc gives, (with --platform) the
// simulation platform built from it: its links and what a transfer crosses,
// and (with --hierarchy) the levels and roots groups of a layout.
#include <fmt/format.h>

#include <iostream>

#include "algorithms/levels.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "common/error.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::cli {

namespace {

struct TopoOptions {
    MachineOptions machine;
    bool json = false;
    bool platform = false;
    bool hierarchy = false;
    int ranks = 0;
    int root = 0;
    std::string params;
    int nodes = 1;
    std::vector<std::string> routes;
};

std::string describe_route(const sim::PlatformModel& platform, const sim::Endpoint& from, const sim::Endpoint& to) {
    std::string out = fmt::format("{} -> {}:\n", sim::PlatformModel::host_name(from), sim::PlatformModel::host_name(to));
    for (const auto& part : platform.describe_route(from, to)) {
        out += fmt::format("  {} ({} hop(s)), latency {:.3f} ns, alone {:.3f} ns per 64 B line\n", costs::to_string(part.level),
                           part.hops, part.latency_ns, platform.uncontended_ns(part, 64));
        for (const auto& use : part.links) {
            const auto& link = platform.link(use);
            out += fmt::format("    {:<24} {:>9.3f} B/ns {:>8.3f} ns  {}{}\n", platform.link_name(use), link.bandwidth_bytes_per_ns,
                               link.latency_ns, link.what, link.split_duplex ? (use.up ? " (up)" : " (down)") : "");
        }
    }
    return out;
}

// A few routes that show each level of the machine.
std::vector<std::pair<sim::Endpoint, sim::Endpoint>> example_routes(const sim::PlatformModel& platform) {
    using sim::EndpointKind;
    const topo::Machine& machine = platform.machine();
    std::vector<std::pair<sim::Endpoint, sim::Endpoint>> routes;
    const sim::Endpoint reader{EndpointKind::core, 0, 0};
    routes.push_back({{EndpointKind::cache, 0, 0}, reader});
    int same = -1, farthest = -1;
    for (int core = 1; core < machine.core_count(); ++core) {
        const int domain = platform.domain_of_core(core);
        if (domain == platform.domain_of_core(0) && same < 0) same = core;
        if (domain != platform.domain_of_core(0) &&
            (farthest < 0 || platform.hops(platform.domain_of_core(0), domain) >
                                 platform.hops(platform.domain_of_core(0), platform.domain_of_core(farthest))))
            farthest = core;
    }
    if (same > 0) routes.push_back({{EndpointKind::cache, 0, same}, reader});
    if (farthest > 0) routes.push_back({{EndpointKind::cache, 0, farthest}, reader});
    routes.push_back({{EndpointKind::memory, 0, platform.numa_count() - 1}, reader});
    if (platform.nodes() > 1)
        routes.push_back({{EndpointKind::memory, 0, 0}, {EndpointKind::memory, 1, platform.numa_count() - 1}});
    return routes;
}

std::string describe_platform(const sim::PlatformModel& platform, const std::vector<std::string>& requested) {
    const costs::Params& params = platform.params();
    std::string out = fmt::format("platform for {} on {} node(s), params {}{}\n", platform.machine().name, platform.nodes(),
                                  params.origin, params.generic_fallback ? " (generic: the machine has none of its own)" : "");
    std::string nics;
    for (int nic = 0; nic < platform.nic_count(); ++nic)
        nics += fmt::format("{}NIC {} on NUMA node {}", nic ? ", " : "", nic, platform.numa_of_nic(nic));
    std::string nearest;
    for (int numa = 0; numa < platform.numa_count(); ++numa)
        nearest += fmt::format("{}{}", numa ? " " : "", platform.nearest_nic(numa));
    out += fmt::format("LLC domains: {}, NUMA nodes: {}, NICs: {}; nearest NIC per NUMA node: {}\n",
                       platform.domain_count(), platform.numa_count(),
                       platform.virtual_nic() ? "one virtual NIC (hwloc reports none)" : nics, nearest);
    out += fmt::format("{} links\n\n", platform.link_count());
    std::vector<std::pair<sim::Endpoint, sim::Endpoint>> routes;
    for (const auto& text : requested) {
        const auto comma = text.find(',');
        if (comma == std::string::npos) throw UsageError(fmt::format("--route '{}' must look like FROM,TO (e.g. cache6,core0)", text));
        routes.push_back({platform.parse_endpoint(text.substr(0, comma)), platform.parse_endpoint(text.substr(comma + 1))});
    }
    if (routes.empty()) routes = example_routes(platform);
    for (const auto& [from, to] : routes) out += describe_route(platform, from, to) + "\n";
    return out;
}

}  // namespace

CommandRun add_topo_command(CLI::App& app) {
    auto* command = app.add_subcommand("topo", "print the machine model hwloc gives, or its simulation platform");
    auto options = std::make_shared<TopoOptions>();
    options->machine.add_to(*command, "live", false);
    command->add_flag("--json", options->json, "print the whole model as JSON");
    add_quiet_flag(*command);
    command->add_flag("--platform", options->platform,
                      "print the simulation platform: links, and the links a transfer crosses on example routes");
    command->add_flag("--hierarchy", options->hierarchy,
                      "print the hierarchy of levels the hierarchical algorithms use: each group of ranks that "
                      "share a level, its leader and its roots group");
    command->add_option("--params", options->params, "with --platform: cost parameters (bundled name or JSON file)");
    command->add_option("--nodes,-N", options->nodes, "with --platform or --hierarchy: number of nodes")
        ->check(CLI::Range(1, max_nodes))
        ->capture_default_str();
    command->add_option("--ranks,-p", options->ranks, "with --hierarchy: ranks per node; 0 = one per core")
        ->capture_default_str();
    command->add_option("--root", options->root, "with --hierarchy: the rank that leads every group holding it")
        ->capture_default_str();
    command->add_option("--route", options->routes,
                        "with --platform: a route to show, FROM,TO with endpoints coreN, cacheN, memN, nicN, "
                        "optionally nK. in front (repeatable)");
    command->footer("Examples:\n  numacoll topo\n  numacoll topo --topology magnycours --json\n"
                    "  numacoll topo --topology westmere --platform\n"
                    "  numacoll topo --topology magnycours --platform --route cache24,core0\n"
                    "  numacoll topo --topology westmere --platform --nodes 2 --route n0.mem1,n1.mem0\n"
                    "  numacoll topo --topology westmere --hierarchy --nodes 2 --root 7");
    return [options] {
        const auto machine = options->machine.load();
        if (options->hierarchy) {
            if (options->platform || options->json || !options->routes.empty() || !options->params.empty())
                throw UsageError("--hierarchy does not combine with --platform, --json, --route or --params");
            MachineOptions layout_options = options->machine;
            layout_options.nodes = options->nodes;
            layout_options.ranks_per_node = options->ranks;
            const algo::Layout layout = layout_options.layout(machine, false);
            if (options->root < 0 || options->root >= layout.size())
                throw UsageError(fmt::format("--root {} does not exist: ranks are 0..{}", options->root, layout.size() - 1));
            const algo::LayoutLevels levels(layout, options->root);
            std::cout << fmt::format("hierarchy of {} on {} node(s) x {} rank(s), root {} ({} levels)\n", machine->name,
                                     layout.nodes, layout.ranks_per_node, options->root, levels.depth_count())
                      << algo::describe_levels(levels);
            return 0;
        }
        if (options->ranks != 0 || options->root != 0) throw UsageError("--ranks and --root need --hierarchy");
        if (!options->platform) {
            if (!options->routes.empty() || !options->params.empty() || options->nodes != 1)
                throw UsageError("--route, --params and --nodes need --platform or --hierarchy");
            std::string text = options->json ? topo::to_json(*machine) : topo::describe(*machine);
            if (!text.empty() && text.back() != '\n') text += '\n';
            std::cout << text;
            return 0;
        }
        if (options->json) throw UsageError("--json prints the machine's model; --platform prints the platform as text: one of them");
        const sim::PlatformModel platform(machine, costs::params_for(*machine, options->params), options->nodes);
        std::cout << describe_platform(platform, options->routes);
        return 0;
    };
}

}  // namespace numacoll::cli

#include "algorithms/layout.hpp"

#include <fmt/format.h>

#include <set>

#include "common/error.hpp"

namespace numacoll::algo {

namespace {

// PUs in compact order: the first PU of every core (cores in logical order),
// then the second PU of every core, and so on. One rank per core comes first
// because hyper-threads share a core's caches and pipelines.
std::vector<int> compact_order(const topo::Machine& machine) {
    std::vector<int> order;
    for (std::size_t round = 0;; ++round) {
        bool any = false;
        for (int core = 0; core < machine.core_count(); ++core) {
            const auto& pus = machine.core(core).pus;
            if (round < pus.size()) {
                order.push_back(pus[round]);
                any = true;
            }
        }
        if (!any) return order;
    }
}

// Round-robin over packages: rank i goes to package i % packages, taking that
// package's PUs in compact order.
std::vector<int> scatter_order(const topo::Machine& machine) {
    const auto compact = compact_order(machine);
    std::vector<std::vector<int>> per_package(std::max<std::size_t>(1, machine.packages.size()));
    for (int pu : compact) {
        int package = machine.package_of_core(machine.core_of_pu(pu));
        per_package[package < 0 ? 0 : package].push_back(pu);
    }
    std::vector<int> order;
    for (std::size_t round = 0; order.size() < compact.size(); ++round) {
        for (const auto& pus : per_package) {
            if (round < pus.size()) order.push_back(pus[round]);
        }
    }
    return order;
}

}  // namespace

Placement parse_placement(const std::string& text) {
    if (text == "compact") return Placement::compact;
    if (text == "scatter" || text == "round-robin") return Placement::scatter;
    if (text == "list") return Placement::list;
    throw UsageError(fmt::format("unknown placement '{}': expected compact, scatter or list", text));
}

const char* to_string(Placement placement) {
    switch (placement) {
        case Placement::compact: return "compact";
        case Placement::scatter: return "scatter";
        case Placement::list: return "list";
    }
    return "?";
}

namespace {

// Rank `local` of `node` on logical PU `pu`, with the core, NUMA node and
// package the machine puts that PU in.
RankPlace place_rank(const topo::Machine& machine, int node, int local, int pu) {
    RankPlace place;
    place.node = node;
    place.local_rank = local;
    place.pu = pu;
    place.pu_os = machine.pu(pu).os_index;
    place.core = machine.core_of_pu(pu);
    place.numa = machine.numa_of_core(place.core);
    place.package = machine.package_of_core(place.core);
    return place;
}

}  // namespace

Layout make_layout(std::shared_ptr<const topo::Machine> machine, const LayoutOptions& options) {
    if (options.nodes < 1) throw UsageError(fmt::format("--nodes must be at least 1 (got {})", options.nodes));
    const int pu_count = machine->pu_count();

    std::vector<int> pus;
    if (options.placement == Placement::list) {
        if (options.pu_list.empty()) throw UsageError("placement 'list' needs a list of logical PUs (--pus 0,1,...)");
        std::set<int> seen;
        for (int pu : options.pu_list) {
            if (pu < 0 || pu >= pu_count)
                throw UsageError(fmt::format("PU {} does not exist: '{}' has PUs 0..{}", pu, machine->name, pu_count - 1));
            if (!seen.insert(pu).second && !options.oversubscribe)
                throw UsageError(fmt::format("PU {} is listed twice", pu));
        }
        pus = options.pu_list;
        if (options.ranks_per_node != 0 && options.ranks_per_node != static_cast<int>(pus.size()))
            throw UsageError(fmt::format("--ranks {} disagrees with the {} PUs listed", options.ranks_per_node, pus.size()));
    } else {
        int ranks = options.ranks_per_node == 0 ? machine->core_count() : options.ranks_per_node;
        if (ranks < 1) throw UsageError(fmt::format("--ranks must be at least 1 (got {})", ranks));
        if (ranks > pu_count && !options.oversubscribe)
            throw UsageError(fmt::format("{} ranks per node but '{}' has only {} PUs ({})", ranks, machine->name, pu_count,
                                         options.offer_oversubscribe
                                             ? "oversubscribe on purpose with --oversubscribe"
                                             : "a larger machine, e.g. --topology synthetic:\"Package:2 Core:16\", has more"));
        auto order = options.placement == Placement::compact ? compact_order(*machine) : scatter_order(*machine);
        for (int rank = 0; rank < ranks; ++rank) pus.push_back(order[static_cast<std::size_t>(rank) % order.size()]);
    }

    // Rank numbers are ints and every rank gets buffers: refuse sizes that
    // could only overflow or exhaust memory.
    constexpr long long max_ranks = 1 << 22;
    if (static_cast<long long>(options.nodes) * static_cast<long long>(pus.size()) > max_ranks)
        throw UsageError(fmt::format("{} nodes x {} ranks is more than the {} ranks numacoll handles", options.nodes,
                                     pus.size(), max_ranks));
    Layout layout;
    layout.machine = machine;
    layout.nodes = options.nodes;
    layout.ranks_per_node = static_cast<int>(pus.size());
    for (int node = 0; node < options.nodes; ++node) {
        for (int local = 0; local < layout.ranks_per_node; ++local)
            layout.ranks.push_back(place_rank(*machine, node, local, pus[local]));
    }
    return layout;
}

Layout layout_of_schedule(const sched::Schedule& schedule, std::shared_ptr<const topo::Machine> machine,
                          const std::string& what) {
    const int ranks = schedule.rank_count();
    if (schedule.nodes < 1 || ranks == 0 || ranks % schedule.nodes != 0)
        throw UsageError(fmt::format("{} has {} ranks on {} node(s): not as many on every node", what, ranks,
                                     schedule.nodes));
    Layout layout;
    layout.machine = machine;
    layout.nodes = schedule.nodes;
    layout.ranks_per_node = ranks / schedule.nodes;
    for (int rank = 0; rank < ranks; ++rank) {
        const sched::RankInfo& info = schedule.ranks[rank];
        if (info.node != rank / layout.ranks_per_node)
            throw UsageError(fmt::format("{} puts rank {} on node {}: ranks go node by node, {} on each", what, rank,
                                         info.node, layout.ranks_per_node));
        if (info.pu < 0 || info.pu >= machine->pu_count() || info.core < 0 || info.core >= machine->core_count())
            throw UsageError(fmt::format("{} places rank {} on core {}, PU {}, which '{}' does not have ({} "
                                         "cores, {} PUs)",
                                         what, rank, info.core, info.pu, machine->source, machine->core_count(),
                                         machine->pu_count()));
        if (machine->core_of_pu(info.pu) != info.core)
            throw UsageError(fmt::format("{} places rank {} on PU {} of core {}, but on '{}' PU {} is in core {}",
                                         what, rank, info.pu, info.core, machine->source, info.pu,
                                         machine->core_of_pu(info.pu)));
        layout.ranks.push_back(place_rank(*machine, info.node, rank % layout.ranks_per_node, info.pu));
    }
    return layout;
}

}  // namespace numacoll::algo

// algo::Layout: which rank (= thread) runs on which PU of which node.
//
// Invariants:
// - Global rank r lives on node r / ranks_per_node with local rank
//   r % ranks_per_node: every node runs the same number of ranks, placed on
//   the same PUs (nodes are identical copies of one Machine).
// - No two ranks of one node share a PU unless oversubscription was asked for.
// - Core, PU, NUMA node and package fields are hwloc logical indexes; pu_os is
//   the OS index, kept apart on purpose (it is what pinning needs).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"
#include "topologies/machine.hpp"

namespace numacoll::algo {

enum class Placement {
    compact,  // fill cores in hwloc logical order (one rank per core first)
    scatter,  // round-robin over packages, so neighbours land on different packages
    list,     // an explicit list of logical PU indexes
};

struct LayoutOptions {
    int nodes = 1;
    int ranks_per_node = 0;  // 0: one rank per core
    Placement placement = Placement::compact;
    std::vector<int> pu_list;  // logical PUs, for Placement::list
    // More ranks than PUs, on purpose: ranks wrap around the PUs in placement
    // order (for running many threads on a small machine; timings then mean
    // little), and a list may name a PU twice (processes that share one).
    bool oversubscribe = false;
    // Whether the refusal of too many ranks names --oversubscribe: only the
    // commands that execute have it (a simulation of more ranks needs a
    // larger machine, not shared PUs).
    bool offer_oversubscribe = false;
};

struct RankPlace {
    int node = 0;
    int local_rank = 0;
    int core = 0;     // logical core index
    int pu = 0;       // logical PU index
    int pu_os = -1;   // OS index of that PU (for pinning)
    int numa = -1;    // logical NUMA node whose memory is local to the core, -1 if none
    int package = -1; // logical package, -1 if none
};

struct Layout {
    std::shared_ptr<const topo::Machine> machine;
    int nodes = 1;
    int ranks_per_node = 0;
    std::vector<RankPlace> ranks;  // indexed by global rank

    int size() const { return static_cast<int>(ranks.size()); }
    int node_of(int rank) const { return ranks[rank].node; }
    int global_rank(int node, int local_rank) const { return node * ranks_per_node + local_rank; }
    int node_root(int node) const { return global_rank(node, 0); }
    bool same_node(int a, int b) const { return node_of(a) == node_of(b); }
};

// Places ranks on the machine. Throws UsageError for impossible requests:
// zero or negative counts, more ranks than PUs, PUs out of range or repeated.
Layout make_layout(std::shared_ptr<const topo::Machine> machine, const LayoutOptions& options);

// The layout a schedule was generated for, on `machine` (a schedule read
// back from a file carries its ranks' places): UsageError, naming the
// schedule as `what` ("'FILE'"), when its ranks are not node by node with as
// many on each node, or name a core or PU `machine` lacks or a PU outside
// its core.
Layout layout_of_schedule(const sched::Schedule& schedule, std::shared_ptr<const topo::Machine> machine,
                          const std::string& what = "the schedule");

Placement parse_placement(const std::string& text);
const char* to_string(Placement placement);

}  // namespace numacoll::algo

// barrier "tree": HPDC'13's allreduce tree run on no data, so that only its
// flags remain (section 5: "synchronization operations, such as
// HMPI_Barrier" use the same trees). Arrivals go up the hierarchy's n-ary
// tree and the release comes down a 1-stage, 2-stage or n-ary broadcast.
#include "algorithms/allreduce/tree.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule generate_barrier_tree(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    return tree_allreduce_schedule(spec, layout, options.integer("arity", 2),
                                   parse_broadcast_style(options.text("bcast")), 0);
}

}  // namespace

AlgorithmInfo barrier_tree_info() {
    return {Collective::barrier, "tree",
            "arrivals up an n-ary tree over the hierarchy, release by a 1-stage, 2-stage or n-ary broadcast",
            "Li, Hoefler, Snir, HPDC'13, sections 2.2 and 5 (a zero-byte reduce-broadcast)",
            {{"arity", "2", "fan-in n of the arrival tree (>= 2)", {"2", "3"}}, broadcast_option()}, generate_barrier_tree};
}

}  // namespace numacoll::algo

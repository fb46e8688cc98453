#include "algorithms/barrier/tree.hpp"

#include "algorithms/allreduce/tree.hpp"

namespace numacoll::algo {

AlgorithmInfo barrier_tree_info() {
    AlgorithmInfo info;
    info.collective = Collective::barrier;
    info.name = "tree";
    info.summary = "arrivals up an n-ary tree over the hierarchy, release by a 1-stage, 2-stage or n-ary broadcast";
    info.source = "Li, Hoefler, Snir, HPDC'13, sections 2.2 and 5 (a zero-byte reduce-broadcast)";
    info.options = {{"arity", "2", "fan-in n of the arrival tree (>= 2)"}, broadcast_option()};
    info.generate = [](const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
        return tree_allreduce_schedule(spec, layout, options.integer("arity", 2),
                                       parse_broadcast_style(options.text("bcast")), 0);
    };
    return info;
}

}  // namespace numacoll::algo

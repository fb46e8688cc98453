#include "algorithms/barrier/tree.hpp"

#include "algorithms/allreduce/dissemination.hpp"
#include "algorithms/allreduce/tree.hpp"

namespace numacoll::algo {

AlgorithmInfo barrier_tree_info() {
    AlgorithmInfo info;
    info.collective = Collective::barrier;
    info.name = "tree";
    info.summary = "arrivals up an n-ary tree over the hierarchy, release by a 1-stage, 2-stage or n-ary broadcast";
    info.source = "Li, Hoefler, Snir, HPDC'13, sections 2.2 and 5 (a zero-byte reduce-broadcast)";
    info.options = {{"arity", "2", "fan-in n of the arrival tree (>= 2)"}, broadcast_option()};
    info.generate = [](const CollectiveSpec& spec, const Layout& layout) {
        const OptionReader reader(spec, find_algorithm(spec.collective, "tree"));
        return tree_allreduce_schedule(spec, layout, reader.integer("arity", 2),
                                       parse_broadcast_style(reader.text("bcast")), 0);
    };
    return info;
}

AlgorithmInfo barrier_dissemination_info() {
    AlgorithmInfo info;
    info.collective = Collective::barrier;
    info.name = "dissemination";
    info.summary = "ceil(log2 p) rounds of signals, no tree; fewest steps, for any rank count";
    info.source = "Li, Hoefler, Snir, HPDC'13, sections 2.3 and 5 (Hensgen et al.'s dissemination barrier)";
    info.generate = [](const CollectiveSpec& spec, const Layout& layout) {
        return dissemination_barrier_schedule(spec, layout);
    };
    return info;
}

}  // namespace numacoll::algo

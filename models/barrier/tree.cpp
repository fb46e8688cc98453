#include "models/barrier/tree.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo barrier_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::barrier;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, sections 2.2 and 2.6, equations (1) to (4) at m = 0";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        if (shape.nodes != 1) return std::nullopt;
        const sched::OptionReader options(spec, "tree");
        const Hpdc13Terms terms = hpdc13_terms(params);
        const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets);
        const Hpdc13StepCosts steps = hpdc13_step_costs(params);
        const int arity = options.integer("arity", 2);
        const bool two_stage = options.text("bcast") == "2stage";
        return hpdc13_reduction_ns(terms, q, s, arity, 0) + hpdc13_broadcast_ns(terms, q, s, two_stage, 0) +
               hpdc13_reduction_steps_ns(steps, q, s, arity, 0) + hpdc13_broadcast_steps_ns(steps, q, s, two_stage, 0);
    };
    return info;
}

}  // namespace numacoll::models

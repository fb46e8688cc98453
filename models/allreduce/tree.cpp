#include "models/allreduce/tree.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "models/internode_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

double tree_allreduce_ns(const costs::Params& params, const NodeShape& shape, int arity, bool two_stage,
                         std::uint64_t bytes) {
    const Hpdc13Terms t = hpdc13_terms(params);
    const double m = static_cast<double>(bytes);
    const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets), n = std::max(2, arity);
    return hpdc13_reduction_ns(t, q, s, n, m) + hpdc13_broadcast_ns(t, q, s, two_stage, m);
}

double tree_allreduce_steps_ns(const costs::Params& params, const NodeShape& shape, int arity, bool two_stage,
                               std::uint64_t bytes) {
    const Hpdc13StepCosts c = hpdc13_step_costs(params);
    const double m = static_cast<double>(bytes);
    const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets), n = std::max(2, arity);
    return hpdc13_reduction_steps_ns(c, q, s, n, m) + hpdc13_broadcast_steps_ns(c, q, s, two_stage, m);
}

ModelInfo allreduce_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2, equations (1), (2), (4) and (5), with the steps' flags and "
                  "local accesses of section 3.4";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "tree");
        const int arity = options.integer("arity", 2);
        const bool two_stage = options.text("bcast") == "2stage";
        return tree_allreduce_ns(params, shape, arity, two_stage, spec.bytes) +
               tree_allreduce_steps_ns(params, shape, arity, two_stage, spec.bytes) +
               internode_term_ns(spec, "tree", shape, params);
    };
    return info;
}

}  // namespace numacoll::models

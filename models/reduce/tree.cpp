#include "models/reduce/tree.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo reduce_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2, equations (1) to (3), with the steps' flags and local "
                  "accesses of section 3.4";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        if (shape.nodes != 1) return std::nullopt;
        const sched::OptionReader options(spec, "tree");
        const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets);
        const int arity = options.integer("arity", 2);
        const double m = static_cast<double>(spec.bytes);
        return hpdc13_reduction_ns(hpdc13_terms(params), q, s, arity, m) +
               hpdc13_reduction_steps_ns(hpdc13_step_costs(params), q, s, arity, m);
    };
    return info;
}

}  // namespace numacoll::models

#include "models/reduce/tree.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo reduce_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::reduce;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2, equations (1) to (3)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        if (shape.nodes != 1) return std::nullopt;
        const sched::OptionReader options(spec, "tree");
        return hpdc13_reduction_ns(hpdc13_terms(params), std::max(1, shape.threads_per_socket),
                                   std::max(1, shape.sockets), options.integer("arity", 2),
                                   static_cast<double>(spec.bytes));
    };
    return info;
}

}  // namespace numacoll::models

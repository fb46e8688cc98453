#include "models/bcast/tree.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

ModelInfo bcast_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::bcast;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2, equation (4), with the stages' flags and local writes of "
                  "section 3.4";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "tree");
        const std::string style = options.text("bcast");
        if (shape.nodes != 1 || style == "nary") return std::nullopt;
        const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets);
        const double m = static_cast<double>(spec.bytes);
        return hpdc13_broadcast_ns(hpdc13_terms(params), q, s, style == "2stage", m) +
               hpdc13_broadcast_steps_ns(hpdc13_step_costs(params), q, s, style == "2stage", m);
    };
    return info;
}

}  // namespace numacoll::models

#include "models/allreduce/tiled.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "models/internode_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

double tiled_allreduce_ns(const costs::Params& params, const NodeShape& shape, bool two_stage, std::uint64_t bytes) {
    const Hpdc13Terms t = hpdc13_terms(params);
    const double m = static_cast<double>(bytes);
    const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets);
    const double intra = t.a_alpha * q + t.big_b_alpha * q * m;
    const double inter = (t.a_beta + t.big_b_beta * m) * ceil_log(2, s);
    // Each phase's flag, local accesses and folds (section 3.4's accounting):
    // a thread folds the q tiles of m / q bytes of its socket, then the tree of tiles.
    const Hpdc13StepCosts c = hpdc13_step_costs(params);
    const double tile = m / q;
    const double steps = (q > 1 ? c.fold_step_ns(c.flag_alpha_ns, tile, (q - 1) * tile) : 0) +
                         c.fold_step_ns(c.flag_beta_ns, tile, tile) * ceil_log(2, s) +
                         hpdc13_broadcast_steps_ns(c, q, s, two_stage, m);
    return intra + inter + hpdc13_broadcast_ns(t, q, s, two_stage, m) + steps;
}

ModelInfo allreduce_tiled_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "tiled";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.4, equations (8) to (11), with the phases' flags and local "
                  "accesses of section 3.4";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, "tiled");
        return tiled_allreduce_ns(params, shape, options.text("bcast") == "2stage", spec.bytes) +
               internode_term_ns(spec, "tiled", shape, params);
    };
    return info;
}

}  // namespace numacoll::models

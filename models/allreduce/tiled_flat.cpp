#include "models/allreduce/tiled_flat.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "models/internode_terms.hpp"
#include "schedule/options.hpp"

namespace numacoll::models {

double tiled_flat_allreduce_ns(const costs::Params& params, const NodeShape& shape, bool two_stage, std::uint64_t bytes) {
    const Hpdc13Terms t = hpdc13_terms(params);
    const double m = static_cast<double>(bytes);
    const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets), p = s * q;
    const double a = s > 1 ? t.a_beta : t.a_alpha;
    const double reduction = a * p + std::max(t.big_b_alpha * q * m, t.big_b_beta * (s - 1) * q * q * m / p);
    return reduction + hpdc13_broadcast_ns(t, q, s, two_stage, m);
}

namespace {

ModelInfo tiled_flat_model(const std::string& name) {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = name;
    info.source = "Li, Hoefler, Snir, HPDC'13, section 3.2 (baseline), equations (8) to (11) with one tiling group";
    info.predict = [name](const sched::CollectiveSpec& spec, const NodeShape& shape,
                          const costs::Params& params) -> std::optional<double> {
        const sched::OptionReader options(spec, name);
        return tiled_flat_allreduce_ns(params, shape, options.text("bcast") == "2stage", spec.bytes) +
               internode_term_ns(spec, name, shape, params);
    };
    return info;
}

}  // namespace

ModelInfo allreduce_tiled_naive_model() { return tiled_flat_model("tiled-naive"); }
ModelInfo allreduce_tiled_cyclic_model() { return tiled_flat_model("tiled-cyclic"); }

}  // namespace numacoll::models

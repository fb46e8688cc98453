#include "models/allreduce/dissemination.hpp"

#include <algorithm>

#include "models/hpdc13_terms.hpp"
#include "models/p2p_terms.hpp"

namespace numacoll::models {

double dissemination_allreduce_ns(const costs::Params& params, const NodeShape& shape, std::uint64_t bytes) {
    const Hpdc13Terms t = hpdc13_terms(params);
    const double m = static_cast<double>(bytes);
    const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets);
    int q_power = 1;  // q' = 2^floor(log2 q)
    while (2 * q_power <= q) q_power *= 2;
    const int excess = q - q_power;  // r
    const bool power_of_two = excess == 0 && (s & (s - 1)) == 0;
    const int lanes = power_of_two ? q : q_power;
    double time = (t.a_alpha + t.big_b_alpha * lanes * m) * ceil_log(2, lanes) +
                  (t.a_beta + t.big_b_beta * lanes * m) * ceil_log(2, s);
    if (!power_of_two) time += 2 * (t.a_alpha + t.big_b_alpha * excess * m);
    // Each round's flag, own partial read, write and fold (section 3.4's accounting).
    const Hpdc13StepCosts c = hpdc13_step_costs(params);
    time += c.fold_step_ns(c.flag_alpha_ns, m, m) * (ceil_log(2, lanes) + (power_of_two ? 0 : 2)) +
            c.fold_step_ns(c.flag_beta_ns, m, m) * ceil_log(2, s);
    if (shape.nodes > 1) {
        // Section 2.5: the same rounds among nodes, every lane's message sharing the node's wire.
        const P2pTerms net = p2p_terms(params, costs::Level::network, false);
        int node_power = 1;
        while (2 * node_power <= shape.nodes) node_power *= 2;
        const double round_ns = net.fold_ns(m) + (lanes * s - 1) * m * net.net_ns_per_byte;
        time += round_ns * ceil_log(2, node_power);
        if (node_power != shape.nodes) time += net.fold_ns(m) + net.copy_ns(m);
    }
    return time;
}

ModelInfo allreduce_dissemination_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "dissemination";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.3, equations (6) and (7), with the rounds' flags and local "
                  "accesses of section 3.4; section 2.5 on several nodes";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        return dissemination_allreduce_ns(params, shape, spec.bytes);
    };
    return info;
}

}  // namespace numacoll::models

#include "models/hpdc13_terms.hpp"

#include <algorithm>
#include <cmath>

namespace numacoll::models {

Hpdc13Terms hpdc13_terms(const costs::Params& params) {
    const auto& alpha = params.at(costs::Level::same_socket);
    const auto& beta = params.at(costs::Level::other_socket);
    return {alpha.latency_ns.value, 1 / alpha.bandwidth_bytes_per_ns.value, 1 / alpha.aggregate_bandwidth_bytes_per_ns.value,
            beta.latency_ns.value,  1 / beta.bandwidth_bytes_per_ns.value,  1 / beta.aggregate_bandwidth_bytes_per_ns.value};
}

Hpdc13StepCosts hpdc13_step_costs(const costs::Params& params) {
    const auto line_ns = [&](costs::Level level) {
        const auto& at = params.at(level);
        return at.latency_ns.value + params.cache_line_bytes / at.bandwidth_bytes_per_ns.value +
               (params.flag_overhead_ns ? params.flag_overhead_ns->value : 0);
    };
    const auto& local = params.at(costs::Level::local_cache);
    const auto& llc = params.at(costs::Level::same_socket);
    return {local.latency_ns.value,
            1 / local.bandwidth_bytes_per_ns.value,
            1 / params.reduce_bytes_per_ns.value,
            line_ns(costs::Level::same_socket),
            line_ns(costs::Level::other_socket),
            params.private_cache_bytes ? params.private_cache_bytes->value : 0,
            llc.latency_ns.value,
            1 / llc.bandwidth_bytes_per_ns.value};
}

double hpdc13_reduction_steps_ns(const Hpdc13StepCosts& c, int q, int s, int n, double m) {
    const double step_alpha = c.fold_step_ns(c.flag_alpha_ns, m, (n - 1) * m);
    const double step_beta = c.fold_step_ns(c.flag_beta_ns, m, (n - 1) * m);
    return step_alpha * ceil_log(n, q) + step_beta * ceil_log(n, s);
}

double hpdc13_broadcast_steps_ns(const Hpdc13StepCosts& c, int q, int s, bool two_stage, double m) {
    if (s == 1) return q > 1 ? c.flag_alpha_ns + c.copy_write_ns(m) : 0;
    const double across = c.flag_beta_ns + c.copy_write_ns(m);
    return two_stage && q > 1 ? across + c.flag_alpha_ns + c.copy_write_ns(m) : across;
}

int ceil_log(int n, int x) {
    int steps = 0;
    for (long long reach = 1; reach < x; reach *= n) ++steps;
    return steps;
}

double hpdc13_reduction_ns(const Hpdc13Terms& t, int q, int s, int n, double m) {
    double intra = 0;
    long long width = n;
    for (int step = 0; step < ceil_log(n, q); ++step, width *= n) {
        const double concurrent = std::ceil(static_cast<double>(q) / static_cast<double>(width));
        intra += (n - 1) * std::max(t.a_alpha + t.b_alpha * m, t.a_alpha + t.big_b_alpha * concurrent * m);
    }
    return intra + (n - 1) * (t.a_beta + t.b_beta * m) * ceil_log(n, s);
}

double hpdc13_broadcast_ns(const Hpdc13Terms& t, int q, int s, bool two_stage, double m) {
    if (s == 1) return q > 1 ? t.a_alpha + t.big_b_alpha * (q - 1) * m : 0;
    if (two_stage) return t.a_alpha + t.big_b_alpha * (q - 1) * m + t.a_beta + t.b_beta * m;
    return t.a_beta + t.big_b_beta * q * m;
}

}  // namespace numacoll::models

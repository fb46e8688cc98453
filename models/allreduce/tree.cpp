#include "models/allreduce/tree.hpp"

#include <algorithm>
#include <cmath>

#include "schedule/options.hpp"

namespace numacoll::models {

namespace {

// ceil(log_n x) for x >= 1, in integers (no floating-point edge cases).
int ceil_log(int n, int x) {
    int steps = 0;
    for (long long reach = 1; reach < x; reach *= n) ++steps;
    return steps;
}

}  // namespace

double tree_allreduce_ns(const costs::Params& params, const NodeShape& shape, int arity, bool two_stage,
                         std::uint64_t bytes) {
    const auto& alpha = params.at(costs::Level::same_socket);
    const auto& beta = params.at(costs::Level::other_socket);
    const double m = static_cast<double>(bytes);
    const double a_a = alpha.latency_ns.value, b_a = 1 / alpha.bandwidth_bytes_per_ns.value;
    const double big_b_a = 1 / alpha.aggregate_bandwidth_bytes_per_ns.value;
    const double a_b = beta.latency_ns.value, b_b = 1 / beta.bandwidth_bytes_per_ns.value;
    const double big_b_b = 1 / beta.aggregate_bandwidth_bytes_per_ns.value;
    const int q = std::max(1, shape.threads_per_socket), s = std::max(1, shape.sockets), n = std::max(2, arity);

    double intra = 0;
    long long width = n;
    for (int step = 0; step < ceil_log(n, q); ++step, width *= n) {
        const double concurrent = std::ceil(static_cast<double>(q) / static_cast<double>(width));
        intra += (n - 1) * std::max(a_a + b_a * m, a_a + big_b_a * concurrent * m);
    }
    const double inter = (n - 1) * (a_b + b_b * m) * ceil_log(n, s);
    double bcast = 0;
    if (s == 1)
        bcast = q > 1 ? a_a + big_b_a * (q - 1) * m : 0;
    else if (two_stage)
        bcast = a_a + big_b_a * (q - 1) * m + a_b + b_b * m;
    else
        bcast = a_b + big_b_b * q * m;
    return intra + inter + bcast;
}

ModelInfo allreduce_tree_model() {
    ModelInfo info;
    info.collective = sched::Collective::allreduce;
    info.name = "tree";
    info.source = "Li, Hoefler, Snir, HPDC'13, section 2.2, equations (1), (2), (4) and (5)";
    info.predict = [](const sched::CollectiveSpec& spec, const NodeShape& shape,
                      const costs::Params& params) -> std::optional<double> {
        if (shape.nodes != 1) return std::nullopt;
        const sched::OptionReader options(spec, "tree");
        return tree_allreduce_ns(params, shape, options.integer("arity", 2), options.text("bcast") == "2stage",
                                 spec.bytes);
    };
    return info;
}

}  // namespace numacoll::models

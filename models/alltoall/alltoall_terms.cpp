#include "models/alltoall/alltoall_terms.hpp"

#include <algorithm>
#include <vector>

namespace numacoll::models {

double pairwise_alltoall_ns(int p, const P2pTerms& t, double m) {
    if (p <= 1) return t.local_copy_ns(m);
    return (p - 1) * (t.signal_ns(p) + t.copy_ns(m, p)) + t.local_copy_ns(m);
}

double linear_alltoall_ns(int p, const P2pTerms& t, double m, int window) {
    if (p <= 1) return t.local_copy_ns(m);
    const int k = std::clamp(window, 1, p - 1);
    const double copy = t.copy_ns(m, p), own = t.local_copy_ns(m);
    // The first K flags of every rank leave together: without send overheads
    // they reach each reader at once, p - 1 of them sharing its stream (p (p - 1)
    // sharing the level); with them, o_s apart, the i-th i o_s after the start.
    const double o_s = t.network ? 0 : t.send_overhead_ns;
    const double first = o_s > 0 ? t.signal_ns(p) : t.signal_ns(p * k, k);
    // arrived[i]: when the i-th block may be read; pulled[i]: when it was.
    std::vector<double> arrived(static_cast<std::size_t>(p), 0), pulled(static_cast<std::size_t>(p), 0);
    for (int i = 1; i <= k; ++i) arrived[i] = own + first + (i - 1) * o_s;
    for (int i = 1; i < p; ++i) {
        pulled[i] = std::max(pulled[i - 1] > 0 ? pulled[i - 1] : own, arrived[i]) + copy;
        // The (i + K)-th send leaves once its receiver flags back that the i-th block was taken.
        if (i + k < p) arrived[i + k] = pulled[i] + 2 * t.signal_ns(p);
    }
    return pulled[p - 1];
}

double modified_bruck_alltoall_ns(int p, const P2pTerms& t, double m) {
    if (p <= 1) return 2 * t.local_copy_ns(m);
    double time = t.local_copy_ns((p - 1) * m) + t.local_copy_ns(m);
    for (int distance = 1; distance < p; distance *= 2) {
        double pulls = 0, backs = 0;
        for (int i = distance; i < p; i += 2 * distance) {
            const double run = std::min(distance, p - i) * m;
            pulls += t.copy_ns(run, p);
            backs += t.local_copy_ns(run);
        }
        time += 2 * t.signal_ns(p) + pulls + backs;
    }
    return time + p * t.local_copy_ns(m);
}

}  // namespace numacoll::models

// Order statistics of repeated measurements, one definition for every
// figure numacoll reports (the executor's spread, result rows, validation
// summaries, benchmarks): the median of an even count is the mean of the two
// middle values; percentiles are nearest-rank.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace numacoll {

// The nearest-rank percentile of sorted values: the smallest value with at
// least `fraction` of the values at or below it. `sorted` must not be empty.
inline double nearest_rank(const std::vector<double>& sorted, double fraction) {
    const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(sorted.size())));
    return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

// The median of sorted values; 0 when there are none.
inline double median_of_sorted(const std::vector<double>& sorted) {
    const auto n = sorted.size();
    return n == 0 ? 0 : n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

inline double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return median_of_sorted(values);
}

// Repeated timings of one point: their median, spread and count.
struct TimeStats {
    double median_ns = 0, p10_ns = 0, p90_ns = 0, min_ns = 0, max_ns = 0;
    int iterations = 0;
};

inline TimeStats summarize_times(std::vector<double> times_ns) {
    TimeStats stats;
    stats.iterations = static_cast<int>(times_ns.size());
    if (times_ns.empty()) return stats;
    std::sort(times_ns.begin(), times_ns.end());
    stats.median_ns = median_of_sorted(times_ns);
    stats.p10_ns = nearest_rank(times_ns, 0.10);
    stats.p90_ns = nearest_rank(times_ns, 0.90);
    stats.min_ns = times_ns.front();
    stats.max_ns = times_ns.back();
    return stats;
}

}  // namespace numacoll

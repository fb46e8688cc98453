#include "models/exchange_terms.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/flat_models.hpp"

namespace numacoll::models {

int largest_power_of_two(int p) {
    int power = 1;
    while (2 * power <= p) power *= 2;
    return power;
}

namespace {

// The excess ranks' fold before the exchanges and their copy after.
double excess_ns(int p, const P2pTerms& t, double bytes) {
    const int excess = p - largest_power_of_two(p);
    if (excess == 0) return 0;
    return t.signal_ns(excess) + t.fold_ns(bytes, excess) + t.signal_ns(excess) + t.copy_ns(bytes, excess);
}

}  // namespace

double ring_allreduce_ns(int p, const P2pTerms& t, double bytes, double element_bytes) {
    if (p <= 1) return t.local_copy_ns(bytes);
    if (bytes / element_bytes < p) return recursive_doubling_allreduce_ns(p, t, bytes);
    const double piece = bytes / p;
    return (p - 1) * (t.signal_ns(p) + t.fold_ns(piece, p) + t.signal_ns(p) + t.copy_ns(piece, p));
}

double recursive_doubling_allreduce_ns(int p, const P2pTerms& t, double bytes) {
    if (p <= 1) return t.local_copy_ns(bytes);
    const int power = largest_power_of_two(p);
    double time = excess_ns(p, t, bytes);
    for (int mask = 1; mask < power; mask *= 2) time += t.signal_ns(power) + t.fold_ns(bytes, power);
    return time;
}

double rabenseifner_allreduce_ns(int p, const P2pTerms& t, double bytes) {
    if (p <= 1) return t.local_copy_ns(bytes);
    const int power = largest_power_of_two(p);
    double time = excess_ns(p, t, bytes);
    for (int mask = power / 2; mask >= 1; mask /= 2) time += t.signal_ns(power) + t.fold_ns(bytes * mask / power, power);
    for (int mask = 1; mask < power; mask *= 2) time += t.signal_ns(power) + t.copy_ns(bytes * mask / power, power);
    return time;
}

double segmented_ring_allreduce_ns(int p, const P2pTerms& t, double bytes, double segment_bytes,
                                   double element_bytes) {
    if (bytes / element_bytes < p) return recursive_doubling_allreduce_ns(p, t, bytes);
    const double chunk = segment_bytes * p;
    const int chunks = segment_count(bytes, chunk);
    double time = 0;
    for (int c = 0; c < chunks; ++c) time += ring_allreduce_ns(p, t, segment_size(bytes, chunk, c), element_bytes);
    // The inputs' ready flags are raised once, for the first chunk.
    return time - (chunks - 1) * (p > 1 ? t.signal_ns(p) : 0);
}

double ring_reduce_scatter_ns(int p, const P2pTerms& t, double block_bytes) {
    if (p <= 1) return t.local_copy_ns(block_bytes);
    return (p - 1) * (t.signal_ns(p) + t.fold_ns(block_bytes, p)) + t.local_copy_ns(block_bytes);
}

double recursive_halving_reduce_scatter_ns(int p, const P2pTerms& t, double block_bytes) {
    if (p <= 1) return t.local_copy_ns(block_bytes);
    const int power = largest_power_of_two(p), excess = p - power;
    // Active v owns blocks [first(v), first(v + 1)): its own and its folded neighbour's.
    const auto first = [&](int v) { return v == power ? p : v <= excess ? 2 * v : v + excess; };
    double time = excess > 0 ? t.signal_ns(excess) + t.fold_ns(block_bytes * p, excess) : 0;
    for (int mask = power / 2; mask >= 1; mask /= 2) {
        int largest = 0;
        for (int group = 0; group < power; group += 2 * mask)
            largest = std::max({largest, first(group + mask) - first(group),
                                first(group + 2 * mask) - first(group + mask)});
        time += t.signal_ns(power) + t.fold_ns(block_bytes * largest, power);
    }
    if (excess > 0) time += t.signal_ns(excess) + t.copy_ns(block_bytes, excess);
    return time + t.local_copy_ns(block_bytes);
}

double butterfly_reduce_scatter_ns(int p, const P2pTerms& t, double block_bytes) {
    if (p <= 1) return t.local_copy_ns(block_bytes);
    const int power = largest_power_of_two(p), excess = p - power;
    // Super-block j: blocks [first(j), first(j + 1)), active j's own and its folded neighbour's.
    const auto first = [&](int j) { return j == power ? p : j <= excess ? 2 * j : j + excess; };
    double time = excess > 0 ? t.signal_ns(excess) + t.fold_ns(block_bytes * p, excess) : 0;
    std::vector<int> kept(static_cast<std::size_t>(power), 0);
    for (int mask = 1, blocks = power / 2; mask < power; mask *= 2, blocks /= 2) {
        int largest = 0;
        for (int v = 0; v < power; ++v) {
            const bool lower = (v & mask) == 0;
            const int give = lower ? kept[v] + blocks : kept[v];
            largest = std::max(largest, first(give + blocks) - first(give));
            if (!lower) kept[v] += blocks;
        }
        time += t.signal_ns(power) + t.fold_ns(block_bytes * largest, power);
    }
    // The results that change hands: every block not already at its rank.
    int handed = 0;
    for (int v = 0; v < power; ++v) {
        const int mine = v < excess ? 2 * v + 1 : v + excess;
        for (int block = first(kept[v]); block < first(kept[v] + 1); ++block) handed += block != mine ? 1 : 0;
    }
    if (handed > 0) time += t.signal_ns(handed) + t.copy_ns(block_bytes, handed);
    return time + t.local_copy_ns(block_bytes);
}

double reduce_then_bcast_allreduce_ns(const std::string& reduce, const std::string& bcast, int p, const P2pTerms& t,
                                      double bytes) {
    return flat_reduce_ns(reduce, p, 1, t, bytes, 0) + flat_bcast_ns(bcast, p, 1, t, bytes, 0);
}

}  // namespace numacoll::models

// Power-of-two rank arithmetic, and the two ways the patterns bring a count
// that is not a power of two down to one (the "excess" ranks fold in first,
// sit out the exchange, and get the result at the end):
// - adjacent (MPICH's recursive doubling and Rabenseifner): of the first
//   2(n - p) indexes, each even one folds into the next odd one;
// - upper (recursive-doubling allgather, dissemination across nodes):
//   index p + i folds into index i.
// p is the largest power of two not above n. Indexes are positions in the
// caller's list of ranks or nodes.
#pragma once

#include <utility>
#include <vector>

namespace numacoll::algo {

// The largest power of two <= n (n >= 1).
int largest_power_of_two(int n);
// k for p = 2^k.
int log2_of_power_of_two(int p);

struct ExcessFold {
    int power = 1;                          // p
    std::vector<int> active;                // the p indexes that take part, ascending
    std::vector<std::pair<int, int>> folds;  // (excess index, the active index it folds into), ascending
};

ExcessFold fold_adjacent(int count);
ExcessFold fold_upper(int count);

}  // namespace numacoll::algo

// The frame of the flat reduce-scatters, the ones Open MPI's coll/tuned can
// be told to run (coll_tuned_reduce_scatter_algorithm 1 to 3; Thakur,
// Rabenseifner, Gropp 2005, reduce-scatter): every rank has an input of p
// blocks of m bytes and an output of m, and rank r's output is the
// reduction of every rank's block r. The ranks take part in rank order
// wherever they are (that is what makes them flat). As in Open MPI, a rank
// folds into an accumulation buffer of p blocks (`works`), never into its
// input, and ends by copying its block into its output.
//
// Invariants: the pattern leaves each rank's partial either in a buffer of
// p blocks that holds the reduced block r at block r, or in its output;
// the frame then copies block r into the output where it is not there yet.
// Ranks are MPI processes.
#pragma once

#include <functional>

#include "algorithms/patterns/flat_trees.hpp"
#include "algorithms/patterns/pieces.hpp"

namespace numacoll::algo {

struct FlatReduceScatterChunk {
    ScheduleBuilder& builder;
    const std::vector<int>& ranks;   // 0..p-1
    ChunkState& state;               // the p blocks; every partial starts at the rank's input
    const std::vector<int>& works;   // per rank, its accumulation buffer of p blocks
    const std::vector<int>& outputs;
    PieceBuffers buffers;
    PointToPoint& p2p;
    TempPool& homes;  // p blocks each: where the inner ranks of a reduce keep their partials
};

using FlatReduceScatterPattern = std::function<void(FlatReduceScatterChunk&)>;

Schedule flat_reduce_scatter_schedule(const CollectiveSpec& spec, const Layout& layout,
                                      const FlatReduceScatterPattern& pattern);

// ring (Open MPI's 3): p - 1 steps; in step s rank r folds block r - s - 1,
// which rank r - 1 hands it, so that rank r ends holding block r reduced.
void ring_reduce_scatter(FlatReduceScatterChunk& chunk);
// recursive halving (Open MPI's 2): the excess ranks of a count that is not
// a power of two fold their p blocks into their odd neighbour (MPICH's
// adjacent fold, power_of_two.hpp); then log2 p' rounds in which each
// active rank keeps the half of its blocks that its half of the ranks
// owns and folds the partner's copy of it; the excess ranks get their block
// from their neighbour last. An active rank owns its own block and its
// folded neighbour's.
void recursive_halving_reduce_scatter(FlatReduceScatterChunk& chunk);
// butterfly (Open MPI's 4; Traff 2005): the same excess fold, then log2 p'
// rounds of distance doubling, 1, 2, 4..., in which the lower rank of a
// pair keeps the lower half of its run of super-blocks (an active rank's
// blocks and its folded neighbour's) and folds the partner's copy of it;
// active v ends with super-block bitreverse(v) reduced and hands each of
// its blocks to the rank whose it is (Open MPI's mirror permutation).
void butterfly_reduce_scatter(FlatReduceScatterChunk& chunk);
// non-overlapping (Open MPI's 1): a binomial reduce of the p blocks to rank
// 0, then rank 0 hands every rank its block (a linear scatter).
void reduce_then_scatter(FlatReduceScatterChunk& chunk);

}  // namespace numacoll::algo

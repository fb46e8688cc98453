// The frame of the flat allreduces, the ones Open MPI's coll/tuned can be
// told to run (coll_tuned_allreduce_algorithm 1 to 6; Pjesivac-Grbovic et
// al. 2007, Thakur, Rabenseifner, Gropp 2005): every rank has an input and
// an output, the ranks take part in rank order wherever they are (that is
// what makes them flat), and the vector goes through in chunks (one unless
// the algorithm is segmented). A chunk's pattern is either an exchange of
// pieces (patterns/pieces.hpp: ring, recursive doubling, Rabenseifner) or a
// flat reduce to rank 0 followed by a flat broadcast from it
// (patterns/flat_trees.hpp: basic linear, non-overlapping).
// Invariants: every rank ends the chunk with the reduction in its output
// (a lone rank copies its input there); ranks are MPI processes.
#pragma once

#include <functional>

#include "algorithms/patterns/flat_trees.hpp"
#include "algorithms/patterns/pieces.hpp"

namespace numacoll::algo {

// What one chunk's pattern gets: every rank (0..p-1), the chunk's state,
// the outputs, and the two ways of moving data.
struct FlatAllreduceChunk {
    ScheduleBuilder& builder;
    const std::vector<int>& ranks;
    ChunkState& state;
    const std::vector<int>& outputs;
    PieceBuffers buffers;
    PointToPoint& p2p;
    TempPool& homes;  // where the inner ranks of a reduce keep their partials
};

using FlatAllreducePattern = std::function<void(FlatAllreduceChunk&)>;

// The whole schedule: `pattern` on every chunk of `chunk_bytes` (0: one chunk).
Schedule flat_allreduce_schedule(const CollectiveSpec& spec, const Layout& layout, std::uint64_t chunk_bytes,
                                 const FlatAllreducePattern& pattern);

// A flat reduce to rank 0 (`reduce`'s tree), then a flat broadcast from it (`bcast`'s).
void reduce_then_bcast(FlatAllreduceChunk& chunk, FlatAlgorithm reduce, FlatAlgorithm bcast);

}  // namespace numacoll::algo

// What node roots run among themselves over the network, one chunk at a
// time: recursive doubling (an allreduce), and binomial trees (a reduce to
// the first leader, a broadcast from it). Temp buffers come from a TempPool
// that the generator keeps for the whole schedule.
#pragma once

#include <vector>

#include "algorithms/patterns/chunk_state.hpp"
#include "algorithms/patterns/temp_pool.hpp"

namespace numacoll::algo {

// Recursive-doubling allreduce among `roots` (one per node, global ranks).
// Non-powers of two fold the excess roots first and send them the result at
// the end (as MPICH does). Results land in each root's output buffer.
void internode_recursive_doubling(ScheduleBuilder& builder, const std::vector<int>& roots, ChunkState& state,
                                  const std::vector<int>& outputs, TempPool& scratch);

// Binomial-tree reduce among `leaders` (one per node, leaders[0] receives
// the result): a leader folds what it receives into home(leader), a range
// of its output or of a temp buffer.
void internode_binomial_reduce(ScheduleBuilder& builder, const std::vector<int>& leaders, ChunkState& state,
                               const HomeOf& home, TempPool& scratch);

// Binomial-tree broadcast from leaders[0] to the other leaders: each
// receives the chunk into home(leader).
void internode_binomial_bcast(ScheduleBuilder& builder, const std::vector<int>& leaders, ChunkState& state,
                              const HomeOf& home);

}  // namespace numacoll::algo

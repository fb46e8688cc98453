// The allreduce that node roots run among themselves over the network in
// the internode composition of tree and tiled (reduce inside each node,
// allreduce among node roots, broadcast inside each node), chosen with
// `internode=`:
// - recursive-doubling: log2 k exchanges of the whole chunk; latency-bound sizes.
// - binomial: binomial reduce to the first root, then binomial broadcast.
// - ring: reduce-scatter then allgather around a ring, the chunk cut into k
//   pieces; each root sends 2(k-1)/k of the chunk, bandwidth-optimal.
// - rabenseifner: recursive-halving reduce-scatter then recursive-doubling
//   allgather (Rabenseifner; Thakur, Rabenseifner, Gropp 2005), excess roots
//   folded in first as for recursive doubling; large chunks, few steps.
// Results land in each root's output range of the chunk.
#pragma once

#include <string>
#include <vector>

#include "algorithms/ir.hpp"
#include "algorithms/patterns/chunk_state.hpp"
#include "algorithms/patterns/temp_pool.hpp"

namespace numacoll::algo {

enum class InternodeAlgorithm { recursive_doubling, binomial, ring, rabenseifner };

InternodeAlgorithm parse_internode_algorithm(const std::string& text);
OptionInfo internode_option();

void internode_allreduce(InternodeAlgorithm algorithm, ScheduleBuilder& builder, const std::vector<int>& roots,
                         ChunkState& state, const std::vector<int>& outputs, TempPool& scratch);

}  // namespace numacoll::algo

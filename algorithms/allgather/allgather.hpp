// allgather: every rank ends up with every rank's m bytes, rank q's at block q.
// - ring: p-1 steps; in step s rank r passes block r-s to rank r+1
//   (bandwidth-optimal; ranks of one node are neighbours, so the ring leaves
//   a node once per step).
// - recursive-doubling: log2 p steps exchanging doubling runs of blocks; a
//   non-power of two p folds the excess ranks into their partners first and
//   sends them the result at the end.
// - leader (NUIOA paper, section 3.3.3): node leaders collect their node's
//   blocks, exchange them among themselves, and every rank copies the whole
//   result from its leader; `leader=nic` elects leaders near the NIC.
#pragma once

#include <vector>

#include "algorithms/registry.hpp"

namespace numacoll::algo {

std::vector<AlgorithmInfo> allgather_infos();

}  // namespace numacoll::algo

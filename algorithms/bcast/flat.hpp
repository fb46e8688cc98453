// bcast from the flat algorithms of flat_trees.hpp, in three arrangements:
// - flat (`linear`, `chain`, `pipeline`, `split-binary`, `binary`,
//   `binomial`): one algorithm over every rank in root-relative order, as
//   Open MPI's coll/tuned runs it. `chain` and `pipeline` take
//   `leader=default|nic` to reorder the chain so that it enters each node
//   at its leader (NUIOA paper, section 4: the chain of the Tuned component
//   with NUIOA-aware ordering); `rank-order` keeps Open MPI's order.
// - hierarchical (`hier-<flat>`): the flat algorithm run top-down on each
//   level's roots group (hierarchical communicators, section 6), so exactly
//   one copy of the data crosses into each group at each level.
// - `leader` (NUIOA paper, section 3.2): the root sends to one leader per
//   node, elected by rank or by NIC locality, and each leader broadcasts
//   inside its node with a flat algorithm (`intra`), pipelined in segments.
#pragma once

#include <vector>

#include "algorithms/registry.hpp"

namespace numacoll::algo {

std::vector<AlgorithmInfo> bcast_flat_infos();

}  // namespace numacoll::algo

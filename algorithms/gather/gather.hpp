// gather: every rank's m bytes end up at the root, rank q's at block q.
// - linear: every rank sends its block straight to the root.
// - binomial: a binomial tree in root-relative order; inner ranks collect
//   their subtree's blocks (contiguous in that order) in a temp buffer and
//   pass them up in one piece (Open MPI's and MPICH's binomial gather).
// - leader (NUIOA paper, section 3.3.2): each node's leader collects its
//   node's blocks, then sends them to the root in one message. For a gather
//   the root receives, so the root's placement matters and the leaders'
//   does not; `leader=nic` is offered to measure exactly that.
#pragma once

#include <vector>

#include "algorithms/registry.hpp"

namespace numacoll::algo {

std::vector<AlgorithmInfo> gather_infos();

}  // namespace numacoll::algo

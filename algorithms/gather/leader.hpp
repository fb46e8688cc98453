// gather "leader" (Goglin, Moreaud, NUIOA-aware collectives,
// sections 3.2 and 3.3.2): each node's leader collects its node's blocks in
// local order, then sends them to the root in one message; the root's own
// node collects straight into the output. For a gather the root receives,
// so the root's placement matters and the leaders' does not; `leader=nic`
// is offered to measure exactly that.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo gather_leader_info();

}  // namespace numacoll::algo

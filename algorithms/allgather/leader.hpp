// allgather "leader" (Goglin, Moreaud, NUIOA-aware collectives,
// section 3.3.3): node leaders collect their node's blocks, exchange them
// among themselves (each leader sends its node's run to every other), and
// every rank copies the whole result from its leader; `leader=nic` elects
// leaders near the NIC.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo allgather_leader_info();

}  // namespace numacoll::algo

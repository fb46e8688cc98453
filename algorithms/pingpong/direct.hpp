// pingpong "direct": the root sends its m bytes to the peer (option peer,
// the root's successor by default), and once they have arrived the peer sends its own m
// bytes back: the MPI ping-pong of the Intel MPI Benchmarks, measured in the
// NUIOA paper (section 4.2, Figure 4) to see where a process should sit
// relative to the NIC. Between two nodes each leg is one network message;
// on one node, a hand-over through shared memory. Ranks are processes.
#pragma once

#include "algorithms/registry.hpp"

namespace numacoll::algo {

AlgorithmInfo pingpong_direct_info();

}  // namespace numacoll::algo

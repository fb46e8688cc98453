// The closed form of pingpong "direct" (Intel MPI Benchmarks PingPong, as
// the NUIOA paper measures it, section 4.2): the ping, then the pong once
// the ping has arrived, in LogGP terms (Alexandrov et al., 1995) as the
// simulator charges them (models/p2p_terms.hpp):
//   between nodes:  2 (o_s + L + m G + o_r), with L = 2 a_nic + a_network
//                   and G the slowest link's ns per byte on the path;
//   inside a node:  2 (o_s + a + 64 b  +  o_r + a + m b + a_local + m b_local)
//                   (a flag, the peer's read at the level joining the two
//                   cores, its write into its own cache).
// The peer is the root's successor (option peer=next) or the rank given;
// on one node the level is same_socket when a socket holds both (one
// socket, or the peer next to the root with q > 1), else other_socket.
// Inside one socket it equals the simulator.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo pingpong_direct_model();

}  // namespace numacoll::models

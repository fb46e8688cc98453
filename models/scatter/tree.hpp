// The closed form of scatter "tree" (HPDC'13 section 2.2's cache/socket
// hierarchy applied to scatter): the root sends each other node's blocks to
// its master in one message, then inside each node every rank reads its
// block of m bytes, with the terms of models/p2p_terms.hpp:
//   the master first copies its own block, 2 local(m) (its signals follow
//   its program order); then
//   one stage, or the root's socket:  F + C(m, d), the d readers of a
//     socket sharing its cache (d = q - 1) or the link (d = q);
//   two stages, another socket:  its master copies the q blocks one by one
//     across the link, F_b + q C_b(m); the last block's reader then reads it
//     inside the socket, F_a + C_a(m);
//   k nodes: one message of (ranks per node) m bytes to each master, the
//     k - 1 messages sharing the root's wire, before the node's own part.
// Equation (4)'s structure (one or two stages, option stages) with the
// hand-over terms the simulator charges; one socket and one stage equals
// the simulator.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo scatter_tree_model();

}  // namespace numacoll::models

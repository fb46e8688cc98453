// The closed form of bcast "leader" (Goglin, Moreaud, NUIOA-aware
// collectives, section 3.2, Figure 3): the root sends to one leader per
// node (a flat linear broadcast over k nodes through the network), then
// each node broadcasts with the flat algorithm of option intra (chain with
// fanout 4) among its ranks, at the level joining them (models/flat_models.hpp):
//   T = T_linear(k, network) + T_intra(ranks per node, node level).
// The two stages add (a node's broadcast starts once its leader has the
// vector). Which core the leader is (option leader: near the NIC or not)
// only changes where the network delivers, which the network terms do not
// see. Option segment applies to both stages.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo bcast_leader_model();

}  // namespace numacoll::models

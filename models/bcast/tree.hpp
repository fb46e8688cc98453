// The closed-form cost of bcast "tree" from HPDC'13, section 2.2: the
// broadcast phase of its reduce-broadcast on its own, equation (4)
// (models/hpdc13_terms.hpp), one or two stages as the bcast option says.
// The paper gives no closed form for its n-ary broadcast trees (Figures
// 10-11 measure them): for bcast nary there is no prediction. It covers one
// node.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo bcast_tree_model();

}  // namespace numacoll::models

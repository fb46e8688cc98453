// The closed-form cost of reduce "tree" from HPDC'13, section 2.2: the
// reduction phase of its reduce-broadcast on its own, equations (1) to (3)
// (models/hpdc13_terms.hpp). Option: arity (n). Like the paper, it leaves out
// strip mining, the reduction arithmetic and the flags, and covers one node.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo reduce_tree_model();

}  // namespace numacoll::models

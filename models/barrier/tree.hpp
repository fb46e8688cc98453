// The closed-form cost of barrier "tree" from HPDC'13, sections 2.2 and
// 2.6: a reduce-broadcast of zero bytes, equations (1) to (4) at m = 0
// (models/hpdc13_terms.hpp): (n - 1) a_a ceil(log_n q) + (n - 1) a_b
// ceil(log_n s), then a_b (one stage) or a_a + a_b (two stages). Options:
// arity and bcast (2stage: two stages; 1stage and nary: one). It covers one
// node.
#pragma once

#include "models/model.hpp"

namespace numacoll::models {

ModelInfo barrier_tree_model();

}  // namespace numacoll::models

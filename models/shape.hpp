// The node shape of a layout, for the closed-form models: the socket groups
// the generators build their trees on (algo::top_level_domains of the node
// hierarchy), so that a model's s and q are the generator's.
#pragma once

#include "algorithms/layout.hpp"
#include "models/model.hpp"

namespace numacoll::models {

NodeShape node_shape(const algo::Layout& layout);

}  // namespace numacoll::models

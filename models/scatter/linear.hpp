// The closed form of the linear scatter of blocks of m bytes from rank 0
// (Open MPI's basic linear), with the terms of models/p2p_terms.hpp:
// inside a node max((p - 1) o_s + 2 local(m), (p - 2) o_s + F(p - 1) +
// C(m, p - 1)), the root's flags raised one after the other; between nodes
// C(m) + (p - 2)(max(o_s, g) + m / bandwidth) (models/scatter/linear.cpp).
// The reduce-scatter that reduces then scatters uses it too.
#pragma once

#include "models/p2p_terms.hpp"

namespace numacoll::models {

double linear_scatter_ns(int p, const P2pTerms& terms, double bytes);

}  // namespace numacoll::models

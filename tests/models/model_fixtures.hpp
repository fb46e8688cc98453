// Shared by the model tests: round parameters that make hand arithmetic easy.
#pragma once

#include "costs/params.hpp"

namespace numacoll::test {

// Every level a = 10, 1/b = 1, 1/B = 2 (so b = 1 and B = 0.5 ns per byte),
// but between sockets a = 100, b = 2, B = 1.
inline costs::Params round_params() {
    costs::Params params;
    params.reduce_bytes_per_ns = {100, "test"};
    for (costs::Level level : costs::all_levels) params.at(level) = {{10, "test"}, {1, "test"}, {2, "test"}};
    params.at(costs::Level::other_socket) = {{100, "test"}, {0.5, "test"}, {1, "test"}};
    return params;
}

}  // namespace numacoll::test

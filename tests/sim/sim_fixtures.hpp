// Shared by the sim tests: parameter sets with round numbers, machines, and
// the check for code that runs in a death test's forked process.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "costs/params.hpp"
#include "topologies/machine.hpp"

// Inside EXPECT_EXIT(..., ExitedWithCode(0), ""): a failed condition ends
// the forked process with code 1 and names itself on stderr.
#define CHILD_CHECK(condition)                                \
    do {                                                      \
        if (!(condition)) {                                   \
            std::fprintf(stderr, "failed: %s\n", #condition); \
            std::_Exit(1);                                    \
        }                                                     \
    } while (0)

namespace numacoll::test {

// Every level: latency a, per-stream bandwidth, aggregate bandwidth.
inline costs::Params uniform_params(double latency_ns, double stream, double aggregate) {
    costs::Params params;
    params.name = "test";
    params.origin = "test";
    params.reduce_bytes_per_ns = {100, "test"};
    for (costs::Level level : costs::all_levels)
        params.at(level) = {{latency_ns, "test"}, {stream, "test"}, {aggregate, "test"}};
    return params;
}

// Closed forms hold to 1e-9 relative (SimGrid's solver, in ns).
inline void expect_near_relative(double actual, double expected) {
    EXPECT_NEAR(actual, expected, 1e-9 * expected) << "expected " << expected;
}

inline std::shared_ptr<const topo::Machine> load(const std::string& spec) {
    return std::make_shared<const topo::Machine>(topo::load_machine(spec));
}

}  // namespace numacoll::test

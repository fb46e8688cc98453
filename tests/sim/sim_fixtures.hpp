// Shared by the sim tests: parameter sets with round numbers, machines.
#pragma once

#include <memory>
#include <string>

#include "costs/params.hpp"
#include "topologies/machine.hpp"

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

inline std::shared_ptr<const topo::Machine> load(const std::string& spec) {
    return std::make_shared<const topo::Machine>(topo::load_machine(spec));
}

}  // namespace numacoll::test

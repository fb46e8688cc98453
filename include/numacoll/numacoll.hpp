// numacoll/numacoll.hpp: the whole public C++ API in one include.
//
//   numacoll::Machine machine = numacoll::Machine::load("westmere");
//   numacoll::Layout layout = numacoll::Layout::place(machine, {.nodes = 2});
//   numacoll::CollectiveSpec spec{.collective = "allreduce", .algorithm = "tree", .bytes = 1 << 20};
//   numacoll::Simulation result = numacoll::simulate(spec, layout, numacoll::Params::for_machine(machine));
//
// machine.hpp: machines, cost parameters, layouts. schedule.hpp: specs,
// schedules, the proof, writing a generator of one's own. engines.hpp:
// simulation, execution, the closed-form models. error.hpp: what is thrown.
// Link with find_package(numacoll) and numacoll::numacoll, or pkg-config's
// numacoll.
#pragma once

#include "numacoll/engines.hpp"
#include "numacoll/error.hpp"
#include "numacoll/machine.hpp"
#include "numacoll/schedule.hpp"
#include "numacoll/timeline.hpp"
#include "numacoll/version.hpp"

namespace numacoll {

// The version of the library the program runs with ("0.1.0 (1e0662e)");
// numacoll::version_and_revision is the one it was compiled against.
const char* library_version();

}  // namespace numacoll

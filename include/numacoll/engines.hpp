// numacoll/engines.hpp: what a schedule costs. simulate() runs it on
// SimGrid over the machine's platform model and cost parameters; execute()
// runs it for real on pinned threads of this machine and verifies every
// output; model_ns() evaluates the algorithm's closed-form model. Each
// engine gives a ResultRow: the main fields of the rows `numacoll sim` and
// `numacoll run` write.
//
// simulate(spec, layout, params) plans the tasks' data movements on a
// second thread while the schedule is generated, as `numacoll sim` does:
// the fast path, with the same result as simulating a generated Schedule.
//
// Long simulations say how far they are on stderr after two seconds;
// set_progress_reports(false) silences them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "numacoll/machine.hpp"
#include "numacoll/schedule.hpp"
#include "numacoll/timeline.hpp"

namespace numacoll {

struct ResultRow {
    std::string collective;
    std::string algorithm;
    std::uint64_t bytes = 0;
    int ranks = 0;
    int nodes = 1;
    std::string engine;  // "sim" or "threads"
    double time_ns = 0;  // simulated, or the median of the timed iterations
    // Measured: the spread of the timed iterations (0 for a simulation).
    double p10_ns = 0, p90_ns = 0;
    int iterations = 0;
    int tasks = 0;
    std::string options;  // "arity=2;bcast=1stage"
    std::string topology;
    std::string params;  // the cost parameters' origin (simulations)
    std::optional<double> model_ns;  // the closed form, where the algorithm has one (simulations)
};

struct Simulation {
    ResultRow row;
    Timeline timeline;
    double wall_seconds = 0;  // what the simulation itself took
};

// Generates and simulates (the fast path above).
Simulation simulate(const CollectiveSpec& spec, const Layout& layout, const Params& params);
// A schedule made already (generated, written with a ScheduleWriter, or
// loaded), on the machine it was made for. Refused with CheckError when it
// breaks a rule of the format.
Simulation simulate(const Schedule& schedule, const Machine& machine, const Params& params);

struct ExecutionOptions {
    int warmup_iterations = 10;
    int timed_iterations = 100;
    bool pin_threads = true;
};

struct Execution {
    ResultRow row;
    std::vector<double> iteration_ns;  // the timed iterations, in order
};

// Runs a schedule of threads of one node on this machine (`live` is
// Machine::load("live")) and checks every output against the collective's
// contract: CheckError when one is wrong, UsageError for a schedule it
// cannot run here (several nodes, more threads than it allows).
Execution execute(const Schedule& schedule, const Machine& live, const ExecutionOptions& options = {});

// The closed form's time in ns; none when the algorithm has no model or the
// model does not reach this shape.
std::optional<double> model_ns(const CollectiveSpec& spec, const Layout& layout, const Params& params);

void set_progress_reports(bool enabled);

}  // namespace numacoll

// validate: the same schedules, simulated and executed, side by side with
// the closed-form model of their algorithm (models/), per (collective,
// algorithm, size).
//
// Relative errors are (predicted - measured) / measured, against the measured
// median. Nothing here knows how an engine works, nor which algorithm made a
// schedule: it asks a generator it is given for each schedule, and the
// models' registry for a closed form.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "exec/threads_executor.hpp"
#include "models/model.hpp"
#include "results/result_row.hpp"
#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::validate {

// (predicted - measured) / measured.
inline double relative_error(double predicted_ns, double measured_ns) {
    return (predicted_ns - measured_ns) / measured_ns;
}

struct ValidationPoint {
    results::ResultRow simulated;  // engine "sim"
    results::ResultRow measured;   // engine "threads", with its spread
    std::optional<double> model_ns;  // none: no closed form for this algorithm (or shape)
    // What the harness adds to every measured iteration (exec::timing_floor_ns
    // of one thread: its clock reads): predictions are compared with the
    // measurement after adding it, like with like.
    double timing_floor_ns = 0;
    double simulated_error() const { return relative_error(simulated.time_ns + timing_floor_ns, measured.time_ns); }
    std::optional<double> model_error() const {
        if (!model_ns) return std::nullopt;
        return relative_error(*model_ns + timing_floor_ns, measured.time_ns);
    }
};

// One point's timelines, to draw both engines side by side.
struct TracePair {
    sched::Schedule schedule;
    sched::Timeline simulated;
    sched::Timeline measured;
};

struct ValidationRun {
    std::vector<ValidationPoint> points;
    bool pinned = true;      // every execution had its threads pinned
    bool numa_bound = true;  // and its buffers bound to their NUMA nodes
    std::vector<TracePair> traces;  // for the points whose bytes equal trace_bytes
};

// What a validation runs on: the live machine, as the simulator models it
// (`platform`) and as the models see its node (`shape`), and how to make
// each point's schedule.
struct ValidationSetup {
    const topo::Machine* machine = nullptr;
    const sim::PlatformModel* platform = nullptr;
    models::NodeShape shape;
    std::function<sched::Schedule(const sched::CollectiveSpec&)> make_schedule;
    // How a schedule is executed: exec::run_on_threads when empty (an engine
    // with a process per node passes its own; every process then runs the
    // same points in the same order).
    std::function<exec::ExecResult(const sched::Schedule&, const exec::ExecOptions&)> execute;
    exec::ExecOptions exec_options;
    std::uint64_t trace_bytes = 0;
    // Each point is measured once per round, the rounds one after the other
    // over all points, and its statistics pool their iterations: a drift of
    // the host spreads over every point instead of spoiling a few.
    int rounds = 1;
    // When set, the simulated makespans of the points not traced come from
    // it, before any measurement: given each point's expected cost (its tasks)
    // and how to simulate point j of them, it gives every makespan, or none
    // for a point this process does not write (an MPI job spreads them over
    // its processes, and only its first one writes; the others take 0 ns).
    // Empty: every point is simulated here, just before it is measured.
    std::function<std::vector<std::optional<double>>(const std::vector<double>& expected_cost,
                                                     const std::function<double(std::size_t)>& simulate)>
        simulate_points;
    double timing_floor_ns = 0;  // exec::timing_floor_ns of the layout's first PU
    results::ResultRow row_template;  // placement, topology, provenance: what every row shares
};

// The schedule as the thread executor runs it: every rank a thread of one
// process, so a schedule written for MPI processes pays no message
// overheads between them (sim/task_plan.hpp), in the simulation as in the run.
sched::Schedule as_executed(const sched::Schedule& schedule);

// Simulates, executes and models each spec in turn; `on_point` is told
// about each finished point (done of total), so that it can be written at once.
ValidationRun run_validation(const ValidationSetup& setup, const std::vector<sched::CollectiveSpec>& specs,
                             const std::function<void(const ValidationPoint&, int done, int total)>& on_point);

// validation.csv: one row per point. `description` says what produced the
// run (machine, threads, params, iterations); the provenance fields follow it.
std::vector<std::string> validation_columns();
std::vector<std::string> validation_fields(const ValidationPoint& point, const std::string& description);

// summary.txt: per algorithm, the median and worst absolute relative error
// of the simulation and of the model, and at which size the worst one is.
std::string summary_text(const std::vector<ValidationPoint>& points, const std::string& description);

}  // namespace numacoll::validate

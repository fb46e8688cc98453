// validate: the same schedules, simulated and executed, side by side with
// the paper's closed-form model, per (collective, algorithm, size).
//
// Relative errors are (predicted - measured) / measured, against the measured
// median. Nothing here knows how an engine works: it joins their results.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"
#include "exec/threads_executor.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::validate {

struct ValidationPoint {
    std::string collective;
    std::string algorithm;
    std::uint64_t bytes = 0;
    int ranks = 0;
    double simulated_ns = 0;
    exec::IterationStats measured;
    double model_ns = -1;  // -1: no closed form for this algorithm
    double simulated_error() const { return (simulated_ns - measured.median_ns) / measured.median_ns; }
    double model_error() const { return (model_ns - measured.median_ns) / measured.median_ns; }
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

// Simulates and executes each spec on `layout` (one node of the live machine).
// `progress` is told about each finished point.
ValidationRun run_validation(const algo::Layout& layout, const sim::PlatformModel& platform,
                             const std::vector<sched::CollectiveSpec>& specs, const exec::ExecOptions& exec_options,
                             std::uint64_t trace_bytes,
                             const std::function<void(const ValidationPoint&, int done, int total)>& progress);

// validation.csv: one row per point, with what produced it.
std::string validation_csv(const std::vector<ValidationPoint>& points, const std::string& provenance);
// summary.txt: per algorithm, the median and worst absolute relative error
// of the simulation and of the model, and at which size the worst one is.
std::string summary_text(const std::vector<ValidationPoint>& points, const std::string& provenance);

}  // namespace numacoll::validate

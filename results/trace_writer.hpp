// results::TraceWriter: when each task of each point ran, as a CSV:
// collective, algorithm, bytes, task, thread, kind, label, start_ns, end_ns.
// Both engines' timelines are written the same way, so that a simulated and
// a measured trace line up. Each point is written when it finishes (in
// batches for a large one; an interruption keeps whole points only).
#pragma once

#include <string>

#include "results/csv_writer.hpp"
#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"

namespace numacoll::results {

class TraceWriter {
public:
    explicit TraceWriter(const std::string& path);
    // Every task of one point, with its start and end on `timeline`.
    void write(const sched::Schedule& schedule, const sched::Timeline& timeline);
    void finish() { csv_.finish(); }

private:
    CsvWriter csv_;
};

}  // namespace numacoll::results

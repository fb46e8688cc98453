// results::TraceWriter: when each task of each point ran, in the format the
// path's extension names:
// - `.json`: Chrome's trace-event format (a JSON array of events; Perfetto
//   and chrome://tracing open it): one process per node of each point and
//   source ("allreduce tree 64KiB, simulated, node 0"), one thread per rank,
//   one complete event ("ph": "X") per task, named by its label, with its
//   kind, bytes, peer and dependencies as arguments; times in microseconds.
//   Simulated and measured timelines of one point are processes side by side.
// - `.paje`: Paje (pajeng's pj_dump and ViTE read it): a container per
//   point, node and rank, a state per task (the kind of the task a rank
//   started last; "idle" after its last); times in seconds, each point after
//   the previous one's end, since Paje wants its events in time order.
// - anything else: CSV, collective, algorithm, bytes, task, thread, kind,
//   label, start_ns, end_ns.
// Both engines' timelines are written the same way, so that a simulated and
// a measured trace line up. Each point is written when it finishes (in
// batches for a large one; an interruption keeps whole points only; a JSON
// array cut after a whole point is still a valid trace for the viewers).
#pragma once

#include <memory>
#include <string>

#include "common/output_file.hpp"
#include "results/csv_writer.hpp"
#include "schedule/schedule.hpp"
#include "schedule/timeline.hpp"

namespace numacoll::results {

enum class TraceFormat { csv, chrome, paje };
TraceFormat trace_format_of(const std::string& path);

class TraceWriter {
public:
    explicit TraceWriter(const std::string& path);
    ~TraceWriter();
    // Every task of one point, with its start and end on `timeline`;
    // `source` says which engine saw it ("simulated", "measured").
    void write(const sched::Schedule& schedule, const sched::Timeline& timeline, const std::string& source = "");
    void finish();

private:
    void write_chrome(const sched::Schedule& schedule, const sched::Timeline& timeline, const std::string& source);
    void write_paje(const sched::Schedule& schedule, const sched::Timeline& timeline, const std::string& source);
    void emit(std::string& text, bool completes_point);

    TraceFormat format_;
    std::unique_ptr<CsvWriter> csv_;
    std::unique_ptr<OutputFile> file_;
    int points_ = 0;
    int next_process_ = 0;
    bool first_event_ = true;
    double paje_offset_s_ = 0;
};

}  // namespace numacoll::results

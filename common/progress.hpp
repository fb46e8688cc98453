// ProgressReport: one line on stderr, now and then, for work that runs long.
//
// A report stays silent for its first two seconds (short work prints
// nothing), then writes at most one line a second: what, how far, how fast
// and the expected end ("simulating allreduce tree 1MiB: 412,000 of
// 1,048,576 tasks (39%), 205,000 tasks/s, about 3 s left"). advance() is
// cheap enough to call per task: it reads the clock once every 4,096 calls.
// NUMACOLL_PROGRESS=0, or set_progress_reports(false), silences every report.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace numacoll {

void set_progress_reports(bool enabled);
bool progress_reports();

// A command that writes a folder reached a stage of its work: "simulating"
// (or measuring), "writing" (its tables written, not yet in place),
// "plotting". For the tests of interruptions: with NUMACOLL_PAUSE_AT=STAGE
// the process says "numacoll: paused at STAGE" on stderr there and sleeps
// up to 60 s, so that a signal lands in that stage; otherwise nothing.
void reached_stage(const char* stage);

// When and where a report writes (tests shorten the delays).
struct ProgressTiming {
    std::chrono::milliseconds quiet_start{2000};
    std::chrono::milliseconds between_lines{1000};
    std::FILE* out = stderr;
};

class ProgressReport {
public:
    // `what` ("simulating allreduce tree 1MiB"), `unit` ("tasks"), the total
    // expected (0 when unknown: no percentage or end is printed).
    ProgressReport(std::string what, std::string unit, std::size_t expected_total, ProgressTiming timing = {});
    // Says how long it took, if it said anything before.
    ~ProgressReport();
    ProgressReport(const ProgressReport&) = delete;
    ProgressReport& operator=(const ProgressReport&) = delete;

    void advance(std::size_t done) {
        done_ = done;
        if (++calls_ % 4096 == 0) maybe_print();
    }
    // For units that take long each (a whole simulation): reads the clock at
    // every call instead of every 4096th.
    void advance_each(std::size_t done) {
        done_ = done;
        maybe_print();
    }
    // The same, for units of unequal cost: `work_done` of `work_total` (in
    // any unit, say estimated tasks) is what the expected end is reckoned
    // from, so that a sweep whose last points are its largest does not
    // promise an early end. A total of 0 falls back to the count.
    void advance_each(std::size_t done, double work_done, double work_total) {
        work_done_ = work_done;
        work_total_ = work_total;
        advance_each(done);
    }

private:
    void maybe_print();

    std::string what_;
    std::string unit_;
    const std::size_t expected_;
    ProgressTiming timing_;
    std::size_t done_ = 0;
    double work_done_ = 0, work_total_ = 0;
    std::size_t calls_ = 0;
    bool printed_ = false;
    std::chrono::steady_clock::time_point started_;
    std::chrono::steady_clock::time_point last_print_;
};

}  // namespace numacoll

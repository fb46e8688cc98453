// interpose::CallLog: what one communicator's collective calls did, per
// (collective, algorithm, datatype, size bucket, reason handed back): how
// many calls, their total time and median time on this process. The
// report (NUMACOLL_MPI_REPORT, results/mpi_report.hpp) is written from
// these rows. A row keeps at most max_samples times for its median (after
// that, a reservoir of them), so that a long run's log stays small.
//
// Times are recorded in whatever unit the caller reads cheaply (the call
// clock's ticks: interpose/call_clock.hpp) and scaled to nanoseconds in
// summaries(). A caller that logs the same row call after call holds its
// Row, found once, so that a call costs no lookup.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::interpose {

struct CallRow {
    sched::Collective collective = sched::Collective::barrier;
    std::string algorithm;  // numacoll's, or "native"
    std::string datatype;   // "double", or "bytes" for a collective that only copies
    std::uint64_t bucket_bytes = 0;  // results::size_bucket
    std::string reason;  // why the MPI library served it; empty when numacoll did
};

class CallLog {
public:
    static constexpr std::size_t max_samples = 4096;

    struct Row {
        CallRow row;
        std::uint64_t calls = 0;
        double total = 0;
        std::vector<double> samples;
    };
    // The row, made at its first use; it lives as long as the log.
    Row& row(const CallRow& row);
    void record(Row& row, double time);
    void record(const CallRow& row, double time) { record(this->row(row), time); }

    struct Summary {
        CallRow row;
        std::uint64_t calls = 0;
        double total_ns = 0;
        double median_ns = 0;
    };
    // Times scaled by `ns_per_unit`.
    std::vector<Summary> summaries(double ns_per_unit = 1.0) const;

private:
    std::map<std::tuple<int, std::string, std::string, std::uint64_t, std::string>, Row> rows_;
    std::uint64_t random_state_ = 0x9e3779b97f4a7c15ull;
};

}  // namespace numacoll::interpose

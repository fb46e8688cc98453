// interpose::CallLog: what one communicator's collective calls did, per
// (collective, algorithm, datatype, size bucket, reason handed back): how
// many calls, their total time and median time on this process. The
// report (NUMACOLL_MPI_REPORT, results/mpi_report.hpp) is written from
// these rows. A row keeps at most max_samples times for its median (after
// that, a reservoir of them), so that a long run's log stays small.
#pragma once

#include <cstdint>
#include <map>
#include <random>
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

    void record(const CallRow& row, double time_ns);

    struct Summary {
        CallRow row;
        std::uint64_t calls = 0;
        double total_ns = 0;
        double median_ns = 0;
    };
    std::vector<Summary> summaries() const;

private:
    struct Tally {
        CallRow row;
        std::uint64_t calls = 0;
        double total_ns = 0;
        std::vector<double> samples;
    };
    std::map<std::tuple<int, std::string, std::string, std::uint64_t, std::string>, Tally> rows_;
    std::minstd_rand random_{12345};
};

}  // namespace numacoll::interpose

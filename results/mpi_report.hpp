// The report libnumacoll_mpi writes at MPI_Finalize (NUMACOLL_MPI_REPORT)
// and numacoll mpi-report reads: one CSV row per (communicator, collective,
// algorithm, datatype, size bucket, reason handed back), with the calls and
// their total and median time on the communicator's rank 0. Written and
// read here only, so that the two cannot disagree on a column or a bucket.
//
// Size buckets are powers of two: a call of b bytes counts in the smallest
// 2^k >= b (0 for none). Fields hold no commas (placements are written with
// semicolons).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::results {

struct MpiReportRow {
    std::string communicator;  // "world", "communicator P.N"
    int ranks = 0;
    int nodes = 0;           // 0 where the communicator was not served
    int ranks_per_node = 0;  // 0 where the communicator was not served
    std::string placement;
    std::string collective, algorithm, datatype;  // algorithm "native": the MPI library's
    std::uint64_t bucket_bytes = 0;
    std::uint64_t calls = 0;
    double total_ns = 0, median_ns = 0;
    std::string reason;  // why the MPI library served the calls; empty when numacoll did
};

std::uint64_t size_bucket(std::uint64_t bytes);
// A call's datatype column: numacoll's datatype for a reduction, "bytes"
// for a collective that only copies (it moves any datatype as bytes).
std::string report_datatype(sched::Collective collective, sched::Datatype datatype);

std::string mpi_report_header();
std::string mpi_report_line(const MpiReportRow& row);

// InputError naming `label` and the line for a text that is not a report.
std::vector<MpiReportRow> read_mpi_report(const std::string& text, const std::string& label);

}  // namespace numacoll::results

// results::ResultRow: one point of a sweep, a collective at one size on one
// layout, timed by one engine (simulated, or measured on threads), and the
// CSV that `numacoll sim`, `run` and `validate` write it in.
//
// Columns: collective, algorithm, bytes, ranks, nodes, engine, time_ns;
// the spread of measured times (p10_ns, p90_ns, min_ns, max_ns,
// iterations; empty for a simulation, which is exact); tasks; the layout
// and call (placement, root, op, datatype, options, rank_kind); what it ran on (topology,
// params, and for measurements whether threads were pinned and memory
// bound); and the provenance fields (numacoll, build_type, host, date).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/statistics.hpp"
#include "results/csv_writer.hpp"
#include "results/provenance.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::results {

struct ResultRow {
    std::string collective;
    std::string algorithm;
    std::uint64_t bytes = 0;
    int ranks = 0;
    int nodes = 1;
    std::string engine;   // "sim", "threads"
    double time_ns = 0;   // the prediction, or the median of the timed iterations
    int time_decimals = 6;  // printed digits after the point: a simulation is exact, a clock is not
    std::optional<TimeStats> spread;  // measurements only
    int tasks = 0;
    std::string placement;  // compact, scatter, list
    int root = 0;
    std::string op;       // sum, min, max, prod...
    std::string datatype; // double, int, float_int...
    // threads, processes, processes-sharing-memory (+single-copy where a
    // rank copies from another's exposed buffer): what the ranks were
    std::string rank_kind;
    std::string options;  // "arity=2;bcast=1stage"
    std::string topology;
    std::string params;   // the cost parameters' origin (simulations)
    std::optional<bool> pinned, numa_bound;  // measurements only
    Provenance provenance;
};

// The fields a schedule fixes: collective, algorithm, bytes, ranks, nodes,
// tasks, root, op, datatype, options and the kind of its ranks.
ResultRow row_for(const sched::Schedule& schedule);
// A simulated point: engine "sim", the predicted time to six decimals.
ResultRow simulated_row(const sched::Schedule& schedule, double time_ns);
// A measured point: engine "threads", the median of the timed iterations and
// their spread, to one decimal (a clock's resolution).
ResultRow measured_row(const sched::Schedule& schedule, const TimeStats& times, bool pinned, bool numa_bound);
// An algorithm's options as one field: "arity=2;bcast=1stage" (result rows,
// the tune tables).
std::string options_text(const std::map<std::string, std::string>& options);

std::vector<std::string> result_columns();
std::vector<std::string> result_fields(const ResultRow& row);

// A result CSV, row by row (see CsvWriter).
class ResultWriter {
public:
    explicit ResultWriter(const std::string& path) : csv_(path, result_columns()) {}
    void write(const ResultRow& row) { csv_.row(result_fields(row)); }
    void finish() { csv_.finish(); }

private:
    CsvWriter csv_;
};

}  // namespace numacoll::results

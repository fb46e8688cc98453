// tune::SelectionTable: which algorithm, with which options, to pick for
// each collective, communicator shape and message size, and by how much it
// wins. It is what `numacoll tune` decides from, and what the MPI rules
// files (tune/ompi_rules.hpp) are written from.
//
// A point is one (collective, nodes, ranks per node, bytes) with the time of
// every candidate there; its winner is the fastest candidate, its runner-up
// the fastest candidate of another algorithm (so that the margin says what
// choosing the algorithm is worth, not what tuning its segment size is).
// Sizes are numacoll's: bytes per rank's vector, or per rank's block for the
// gathers and scatters (sched::CollectiveSpec::bytes).
//
// Invariants: candidates without a time (no model for them, or a shape the
// algorithm does not take) never win; a point where no candidate has a time
// has no winner and is left out of the rows.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::tune {

// The candidate that stands for the MPI library's own collective (measured
// with ranks as MPI processes): a table whose row picks it hands that size
// back to the MPI library (libnumacoll_mpi).
inline constexpr const char* native_algorithm = "native";

// An algorithm with the options that make it one variant ("chain" with
// segment=16384 and fanout=2); options not named keep their defaults.
struct Candidate {
    std::string algorithm;
    std::map<std::string, std::string> options;
    bool operator==(const Candidate&) const = default;
};

// "chain segment=16384 fanout=2", or the bare algorithm.
std::string describe(const Candidate& candidate);

struct CandidateTime {
    Candidate candidate;
    std::optional<double> time_ns;  // none: the engine cannot time it here
    // A measurement's spread (10th and 90th percentiles of its iterations);
    // none for predictions.
    std::optional<double> p10_ns = std::nullopt, p90_ns = std::nullopt;
};

struct TunePoint {
    sched::Collective collective = sched::Collective::allreduce;
    int nodes = 1;
    int ranks_per_node = 1;
    std::uint64_t bytes = 0;
    std::vector<CandidateTime> times;
    int ranks() const { return nodes * ranks_per_node; }
};

struct SelectionRow {
    sched::Collective collective = sched::Collective::allreduce;
    int nodes = 1;
    int ranks_per_node = 1;
    std::uint64_t bytes = 0;
    Candidate winner;
    double time_ns = 0;
    std::optional<Candidate> runner_up;  // none when only one algorithm was timed
    std::optional<double> runner_up_ns;
    // runner_up_ns / time_ns - 1: how much slower the next best algorithm is.
    std::optional<double> margin() const;
    int ranks() const { return nodes * ranks_per_node; }
};

// One row per point that has a winner, in the points' order.
std::vector<SelectionRow> select_winners(const std::vector<TunePoint>& points);

// The table as CSV (one row per point: collective, nodes, ranks_per_node,
// ranks, bytes, bytes_to (the last size before the next row's, or empty),
// algorithm, options, time_ns, runner_up, runner_up_options, runner_up_ns,
// margin) and as JSON (the same fields, plus the engine and the machine).
std::string selection_csv(const std::vector<SelectionRow>& rows);
std::string selection_json(const std::vector<SelectionRow>& rows, const std::map<std::string, std::string>& about);

// Reads selection_csv's text back (numacoll tune --compare): InputError
// naming the line that is wrong.
std::vector<SelectionRow> selection_from_csv(const std::string& text);
// Reads selection_json's text back (what libnumacoll_mpi reads from
// NUMACOLL_MPI_SELECTION): InputError, naming `label` and the row, for a
// file that is not one or a row that lacks a field.
std::vector<SelectionRow> selection_from_json(const std::string& text, const std::string& label);

// The row of `rows` that decides a call of `collective` on `ranks` ranks
// over `nodes` nodes, `bytes` per rank: among the collective's rows, the
// shape nearest to it (the same node count first, then the nearest rank
// count), and in that shape the last row of at most `bytes` (the first
// when all are larger). Null when the table has no row for the collective.
const SelectionRow* row_for_call(const std::vector<SelectionRow>& rows, sched::Collective collective, int nodes,
                                 int ranks, std::uint64_t bytes);

// Every candidate's time at every point (collective, nodes, ranks_per_node,
// bytes, algorithm, options, time_ns, p10_ns, p90_ns; empty when it had
// none), and back:
// what --compare prices one table's choice with the other's timings by.
std::string timings_csv(const std::vector<TunePoint>& points);
std::vector<TunePoint> timings_from_csv(const std::string& text);

// Where two tables pick differently, and what following the second costs
// by the first's timings. When the first table measured (its timings have
// spreads), a second pick whose measured median lies within the measured
// best's p10-p90 spread is a tie: the machine cannot tell them apart.
struct Disagreement {
    SelectionRow first, second;  // the same point
    std::optional<double> cost;  // first's time of second's pick / first's best - 1
    bool within_spread = false;
};
struct Comparison {
    int common_points = 0;
    int agreeing_points = 0;  // same algorithm (options may differ)
    int tied_points = 0;      // different algorithms the first's measurement cannot tell apart
    std::vector<Disagreement> disagreements;  // the ties included
};
Comparison compare_tables(const std::vector<SelectionRow>& first, const std::vector<SelectionRow>& second,
                          const std::vector<TunePoint>& first_timings);

}  // namespace numacoll::tune

// tune::sweep: times every candidate algorithm (and its option variants) of
// each collective at every communicator shape and message size, with
// whatever engine the caller hands in: SimGrid, the closed-form models, or
// a measurement. It knows no engine; `numacoll tune` supplies them.
//
// Candidates: every algorithm named (all of the collective's when none
// are), times every segment size in `segments` for those that have a
// `segment` option and every fan-out in `fanouts` for those that have a
// `fanout` option (an empty list keeps the algorithm's default), and the
// MPI library's own collective when asked for (native_algorithm). A
// candidate the engine cannot time at a point (a size it does not take, a
// shape without a model) has no time there and never wins.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "algorithms/layout.hpp"
#include "tune/selection_table.hpp"

namespace numacoll::tune {

struct SweepRequest {
    std::vector<sched::Collective> collectives;
    std::vector<std::string> algorithms;  // empty: every algorithm of each collective
    // The MPI library's own collective as one more candidate (native_algorithm),
    // for an engine that measures ranks as MPI processes.
    bool with_native = false;
    std::vector<int> nodes{1};
    std::vector<int> ranks_per_node{0};   // 0: one rank per core
    std::vector<std::uint64_t> bytes;
    std::vector<std::uint64_t> segments;  // empty: each algorithm's default
    std::vector<int> fanouts;             // empty: each algorithm's default
    int root = 0;
    // The elements and the operation of every point (a copy-only collective
    // moves bytes whatever they hold).
    sched::Datatype datatype = sched::Datatype::double_;
    sched::ReduceOp op = sched::ReduceOp::sum;
};

// The candidates of one collective (UsageError for an algorithm it does not
// have; an algorithm named that belongs to another collective of the
// request only is skipped for this one).
std::vector<Candidate> candidates_for(sched::Collective collective, const SweepRequest& request);

// How many timings the sweep makes, before making any.
std::size_t planned_timings(const SweepRequest& request);

// The time of one spec on one layout, in ns (a prediction, or a measurement's
// median with its p10-p90 spread); none when the engine cannot time it.
// Throwing aborts the sweep, except a UsageError: a size or shape this
// algorithm does not take.
struct Timing {
    double time_ns = 0;
    std::optional<double> p10_ns, p90_ns;
};
using Timer = std::function<std::optional<Timing>(const sched::CollectiveSpec& spec, const algo::Layout& layout)>;

// What the checks before a sweep found: every shape laid out, and the
// candidates that do not take a point (a size, root or shape their
// generator refuses), which the sweep then skips without timing, and each
// timing's estimated tasks, by which the sweep reckons its expected end
// (a sweep's last points, its largest, take most of its time).
struct SweepCheck {
    std::set<std::tuple<std::size_t, std::size_t>> refused;  // (point, candidate), in sweep order
    std::vector<double> estimated_tasks;                      // per timing, in sweep order; 0 when refused
};

// Checks every point and candidate of `request` on `machine` as `numacoll
// sim` checks a schedule before generating it (algo::check_schedule_request:
// sizes, root, options, the task bound's estimate), and the shapes' layouts,
// before any timing. UsageError, with sim's message and the point, when a
// shape cannot be laid out, when some point has no candidate that takes
// it, or when a segment size or fan-out asked for fits no candidate at any
// point.
SweepCheck check_sweep(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine);

// One timing of a sweep: a candidate at a point, on its shape's layout.
struct TimingJob {
    std::size_t point = 0;  // in sweep order
    Candidate candidate;
    sched::CollectiveSpec spec;
    std::shared_ptr<const algo::Layout> layout;  // shared by the point's timings
    bool refused = false;                        // check_sweep refused it: not timed
    double estimated_tasks = 0;                  // 0 when refused
    // What the timing is, for a sweep's fingerprint: "bcast 2x12 65536 chain segment=8192".
    std::string key() const;
};

// Every timing of the sweep, in sweep order (collective, shape, size,
// candidate), with `checked`'s refusals and estimates.
std::vector<TimingJob> timing_jobs(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine,
                                   const SweepCheck& checked);

// The points of a sweep from one timing per job, in the jobs' order (none:
// not timed, or not timeable).
std::vector<TunePoint> points_from_timings(const std::vector<TimingJob>& jobs,
                                           const std::vector<std::optional<Timing>>& timings);

// A job's timing, as `time` gives it: none for a refused job or one the
// engine does not take (a UsageError); anything else thrown propagates.
std::optional<Timing> time_job(const TimingJob& job, const Timer& time);

// A timing as text and back, exactly ("" for none; "T", "T P10 P90").
std::string timing_text(const std::optional<Timing>& timing);
std::optional<Timing> timing_from_text(const std::string& text);

// Every point, in the order collective, shape (nodes, then ranks per node),
// size, each shape laid out once on `machine` (compact placement); progress
// on stderr (common/progress.hpp), named `what`. With `checked` (from
// check_sweep), the candidates it refused are not timed; without, it checks first.
std::vector<TunePoint> sweep(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine,
                             const Timer& time, const std::string& what = "tune: timing candidates",
                             const SweepCheck* checked = nullptr);

}  // namespace numacoll::tune

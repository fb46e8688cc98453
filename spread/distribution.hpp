// spread::compute_points: the independent points of a sweep (simulations,
// model evaluations), each computed once, in one of three ways:
// - by this process alone, longest expected first;
// - by every process of an MPI job (mpirun, srun): process 0 hands out
//   points as processes become free, longest expected first (each holds
//   the next point while computing one, so that none waits for an answer
//   between two), and computes points itself between hand-outs (a thread of
//   its own serves the others, polling with sleeps so that it takes no core
//   from them); each
//   process computes with its own engines (SimGrid: one per process);
// - as one deterministic share of the points (a shard, K of N): the points,
//   longest expected first, each to the share with the least expected work
//   so far, so that every shard's run picks the same share without talking.
// Points already finished (a resumed run's, a merge's) are not computed again.
//
// Results are text (the point's row, or what makes it): process 0, or the
// lone process, gets every point's result in point order and records each
// in the journal the moment it arrives, so that whatever stops the sweep
// keeps what finished.
//
// Failures: a point that throws on this process alone propagates. In an MPI
// job, a process whose point throws sends its line to process 0, which says
// it (naming the process and where the finished rows are) and ends the job
// through MPI_Abort: the others may be deep in a simulation of minutes and
// must not be waited for. A process killed outright ends the job through
// the launcher; the journal keeps every row finished before.
//
// Invariant: every point of the share is computed exactly once, whatever the
// process count; the results do not depend on which process computed them.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spread/point_journal.hpp"

namespace numacoll::exec {
class MpiWorld;
}

namespace numacoll::spread {

// One point's result, as text; a throw is a failure of the sweep.
using ComputePoint = std::function<std::string(std::size_t point)>;

struct SpreadRequest {
    std::vector<double> expected_cost;            // per point, any unit (estimated tasks)
    std::map<std::size_t, std::string> finished;  // results already known
    Shard shard;                                  // whole by default
    const exec::MpiWorld* world = nullptr;        // null: this process alone
    PointJournal* journal = nullptr;              // process 0's; may be null
    // On process 0 (or the lone process), as each point computed by this run
    // arrives (not those already finished), after the journal has it; one
    // call at a time. May be empty.
    std::function<void(std::size_t point, const std::string& result)> on_result;
    std::string progress_what = "sweep";          // the progress line's first words
    std::string progress_unit = "points";
    // For the line that ends a failed job: where the finished rows stay.
    std::string rows_kept_in;
};

// The points of shard `shard` (all, for a whole one), in point order.
std::vector<std::size_t> points_of_shard(const std::vector<double>& expected_cost, const Shard& shard);

// On process 0 (or the lone process): every point's result, in point order,
// none for a point outside the shard; on the other processes of a job, an
// empty vector once every point is done. Collective over the job's processes.
std::vector<std::optional<std::string>> compute_points(const SpreadRequest& request, const ComputePoint& compute);

}  // namespace numacoll::spread

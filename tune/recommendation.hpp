// tune::Recommendation: the answer a sweep gives to "which algorithm, at
// which size, on this machine?", per collective and node shape: size
// ranges, the algorithm to use in each, and how sure that choice is.
//
// At each size the candidates that tie the fastest are those it cannot be
// told apart from: for measurements, a median within the fastest's
// p10-p90 spread; for simulations and models, the same time to one part in
// a million (the same schedule under two names, as tiled and tiled-naive on
// a one-package node). Of tied candidates the one kept is the one the
// previous size kept, if it ties (so ranges merge), else the simplest: the
// fewest options set away from their defaults, then the sweep's order
// (the catalog's). Consecutive sizes that keep the same candidate are one
// range. A range's margin is the smallest, over its sizes, of how much
// slower the fastest candidate of another, untied algorithm is.
// Invariants: ranges are in ascending sizes and cover every size that had
// a timed candidate; a range names the candidate it keeps and the other
// algorithms that tied with it at some size.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tune/selection_table.hpp"

namespace numacoll::tune {

struct RecommendedRange {
    std::uint64_t from_bytes = 0, to_bytes = 0;  // the first and last size swept in the range
    Candidate pick;
    std::vector<std::string> tied;    // other algorithms as fast at some size of the range
    std::optional<double> margin;     // next untied algorithm / pick - 1, the smallest over the range
    std::string runner_up;            // that algorithm, where the margin is smallest
};

struct Recommendation {
    sched::Collective collective = sched::Collective::allreduce;
    int nodes = 1;
    int ranks_per_node = 1;
    std::vector<RecommendedRange> ranges;
};

// "8B-64KiB", or "16MiB" for a range of one size.
std::string sizes_text(const RecommendedRange& range);

// One recommendation per collective and shape, in the points' order.
std::vector<Recommendation> recommend(const std::vector<TunePoint>& points);

// One line per collective and shape: "allreduce 1x12  8B-32KiB
// recursive-doubling +18%  64KiB-16MiB ring=segmented-ring +7%": each range,
// its pick, "=" the algorithms that tied with it, and its margin.
std::string recommendation_text(const std::vector<Recommendation>& recommendations);

}  // namespace numacoll::tune

// The algorithm registry: (collective, name) -> generator.
//
// One algorithm per file, a folder per collective (algorithms/allreduce/...).
// A generator turns a CollectiveSpec and a Layout into a Schedule and knows
// nothing about the engines that will run it.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/ir.hpp"
#include "algorithms/layout.hpp"

namespace numacoll::algo {

struct AlgorithmInfo {
    Collective collective;
    std::string name;
    std::string summary;  // one line: what it does and when to use it
    std::string source;   // paper and section it comes from
    std::vector<OptionInfo> options;
    // `options` reads the spec's options, defaults filled in and names checked.
    std::function<Schedule(const CollectiveSpec&, const Layout&, const OptionReader& options)> generate;
    // Threads (HPDC'13's algorithms) or MPI processes (Open MPI's, the
    // NUIOA and hierarchical-communicators papers'): written into the schedule.
    RankKind ranks = RankKind::thread;
    // The one rank count it runs on (Open MPI's two-process algorithms); 0: any.
    int exact_ranks = 0;
};

const std::vector<AlgorithmInfo>& algorithm_registry();

// Whether the algorithm runs on `ranks` ranks (exact_ranks, when it is set, is the only count it takes).
inline bool runs_on(const AlgorithmInfo& info, int ranks) { return info.exact_ranks == 0 || info.exact_ranks == ranks; }

// Throws UsageError naming the algorithms that exist for that collective.
const AlgorithmInfo& find_algorithm(Collective collective, const std::string& name);

// The spec as its generator and its model read it: every option's default
// filled in. UsageError for an unknown algorithm, an option it does not
// have, a datatype or operation it does not take, a barrier with bytes, or
// a root outside the layout.
CollectiveSpec spec_with_defaults(CollectiveSpec spec, const Layout& layout);

// Looks the algorithm up, checks the spec (sizes, root, option names and
// values), fills every option's default into spec.options, generates with
// those options parsed, and records provenance (numacoll version, topology, layout).
// `watcher` sees the schedule's buffers and tasks as the generator adds them
// (not those of the small schedule the task estimate may generate first).
Schedule generate_schedule(CollectiveSpec spec, const Layout& layout, sched::ScheduleWatcher* watcher = nullptr);

// What generate_schedule checks before it generates: the algorithm, option
// names, sizes, root, and the task budget against the schedule's estimated
// size (refused with the estimate). Throws as generate_schedule would, and
// returns the estimate, a lower bound of the schedule's tasks. A sweep checks
// every point this way, then generates one at a time.
std::size_t check_schedule_request(const CollectiveSpec& spec, const Layout& layout);

}  // namespace numacoll::algo

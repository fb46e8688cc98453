#include "algorithms/registry.hpp"

#include <fmt/format.h>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "numacoll/version.hpp"

namespace numacoll::algo {

// The generators of algorithms/catalog.def, declared here: an algorithm's
// file needs no header of its own.
#define NUMACOLL_ALGORITHM(generator, model) AlgorithmInfo generator();
#define NUMACOLL_ALGORITHM_FAMILY(generators, models) std::vector<AlgorithmInfo> generators();
#include "algorithms/catalog.def"
#undef NUMACOLL_ALGORITHM
#undef NUMACOLL_ALGORITHM_FAMILY

const std::vector<AlgorithmInfo>& algorithm_registry() {
    static const std::vector<AlgorithmInfo> registry = [] {
        std::vector<AlgorithmInfo> all;
#define NUMACOLL_ALGORITHM(generator, model) all.push_back(generator());
#define NUMACOLL_ALGORITHM_FAMILY(generators, models) \
    for (auto& info : generators()) all.push_back(std::move(info));
#include "algorithms/catalog.def"
#undef NUMACOLL_ALGORITHM
#undef NUMACOLL_ALGORITHM_FAMILY
        return all;
    }();
    return registry;
}

const AlgorithmInfo& find_algorithm(Collective collective, const std::string& name) {
    std::string known;
    for (const auto& info : algorithm_registry()) {
        if (info.collective != collective) continue;
        if (info.name == name) return info;
        known += (known.empty() ? "" : ", ") + info.name;
    }
    throw UsageError(
        fmt::format("unknown algorithm '{}' for {}: expected one of {}", name, to_string(collective), known));
}

CollectiveSpec spec_with_defaults(CollectiveSpec spec, const Layout& layout) {
    const AlgorithmInfo& info = find_algorithm(spec.collective, spec.algorithm);
    for (const auto& [key, value] : spec.options) {
        bool known = false;
        for (const auto& option : info.options) known = known || option.name == key;
        if (!known) {
            std::string names;
            for (const auto& option : info.options) names += (names.empty() ? "" : ", ") + option.name;
            throw UsageError(fmt::format("algorithm '{}' has no option '{}' (its options: {})", info.name, key,
                                         names.empty() ? "none" : names));
        }
    }
    for (const auto& option : info.options) spec.options.emplace(option.name, option.default_value);
    check_datatype(spec);
    if (spec.collective == Collective::barrier && spec.bytes != 0)
        throw UsageError(fmt::format("a barrier moves no data: its size must be 0 bytes (got {})", spec.bytes));
    if (spec.root < 0 || spec.root >= layout.size())
        throw UsageError(fmt::format("root {} does not exist: ranks are 0..{}", spec.root, layout.size() - 1));
    return spec;
}

namespace {

// Beyond this many nodes a schedule's size is estimated from two nodes'.
constexpr int extrapolate_from_nodes = 8;

// A spec that passed the checks before generation, with its algorithm's
// defaults filled in, and the schedule's estimated task count.
struct CheckedRequest {
    const AlgorithmInfo& info;
    CollectiveSpec spec;
    std::string what;
    std::size_t estimated_tasks;
};

CheckedRequest checked_request(CollectiveSpec spec, const Layout& layout) {
    spec = spec_with_defaults(std::move(spec), layout);
    const AlgorithmInfo& info = find_algorithm(spec.collective, spec.algorithm);
    if (!runs_on(info, layout.size()))
        throw UsageError(fmt::format("{} {} runs on exactly {} ranks, not on {}", to_string(spec.collective), info.name,
                                     info.exact_ranks, layout.size()));

    // Before generating: at least one task per rank and per chunk (a strip or
    // a segment), against the task budget; while generating, the budget itself.
    const std::string what = fmt::format("{} {} {}", to_string(spec.collective), info.name, format_bytes(spec.bytes));
    std::uint64_t chunk_bytes = 0;
    for (const char* key : {"strip", "segment"}) {
        const auto found = spec.options.find(key);
        if (found == spec.options.end() || found->second == "auto" || found->second == "off") continue;
        try {
            const std::uint64_t bytes = parse_byte_size(found->second, key);
            if (bytes > 0) chunk_bytes = chunk_bytes == 0 ? bytes : std::min(chunk_bytes, bytes);
        } catch (const UsageError&) {  // the option's own check says what is wrong with it
        }
    }
    const std::uint64_t chunks = chunk_bytes > 0 ? std::max<std::uint64_t>(1, spec.bytes / chunk_bytes) : 1;
    double estimate = static_cast<double>(layout.size()) * static_cast<double>(chunks);
    sched::TaskBudget::check(sched::TaskBudget::count_of_estimate(estimate), what, true);
    // Across many nodes, the same schedule on two of them, times half the
    // nodes: every node does about the same work (the part between nodes
    // grows with their logarithm, and is small).
    if (layout.nodes > extrapolate_from_nodes) {
        Layout two_nodes = layout;
        two_nodes.nodes = 2;
        two_nodes.ranks.resize(static_cast<std::size_t>(2 * layout.ranks_per_node));
        CollectiveSpec small = spec;
        if (small.root >= two_nodes.size()) small.root = 0;
        try {
            const double per_node = generate_schedule(small, two_nodes).task_count() / 2.0;
            estimate = std::max(estimate, per_node * layout.nodes);
        } catch (const UsageError&) {  // an algorithm that needs more nodes: the bound below still holds
        }
        sched::TaskBudget::check(sched::TaskBudget::count_of_estimate(estimate), what, true);
    }
    return {info, std::move(spec), what, sched::TaskBudget::count_of_estimate(estimate)};
}

}  // namespace

std::size_t check_schedule_request(const CollectiveSpec& spec, const Layout& layout) {
    return checked_request(spec, layout).estimated_tasks;
}

Schedule generate_schedule(CollectiveSpec spec, const Layout& layout, sched::ScheduleWatcher* watcher) {
    const CheckedRequest request = checked_request(std::move(spec), layout);
    const AlgorithmInfo& info = request.info;
    const sched::TaskBudget budget(request.what, request.estimated_tasks);
    const OptionReader options(request.spec, info.name, info.options);
    const sched::ScheduleWatch watch(watcher);
    Schedule schedule = info.generate(request.spec, layout, options);
    schedule.rank_kind = info.ranks;
    schedule.provenance["numacoll"] = numacoll::version_and_revision;
    schedule.provenance["topology"] = layout.machine->label();
    return schedule;
}

}  // namespace numacoll::algo

#include "tune/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"

namespace numacoll::tune {

namespace {

bool has_option(const algo::AlgorithmInfo& info, const std::string& name) {
    return std::any_of(info.options.begin(), info.options.end(),
                       [&](const sched::OptionInfo& option) { return option.name == name; });
}

}  // namespace

std::vector<Candidate> candidates_for(sched::Collective collective, const SweepRequest& request) {
    std::vector<const algo::AlgorithmInfo*> algorithms;
    if (request.algorithms.empty()) {
        for (const auto& info : algo::algorithm_registry())
            if (info.collective == collective) algorithms.push_back(&info);
    } else {
        for (const std::string& name : request.algorithms) {
            const bool here = std::any_of(algo::algorithm_registry().begin(), algo::algorithm_registry().end(),
                                          [&](const auto& info) { return info.collective == collective && info.name == name; });
            if (here) {
                algorithms.push_back(&algo::find_algorithm(collective, name));
                continue;
            }
            // Named for another collective of the request: not this one's.
            const bool elsewhere = std::any_of(request.collectives.begin(), request.collectives.end(), [&](auto other) {
                return other != collective &&
                       std::any_of(algo::algorithm_registry().begin(), algo::algorithm_registry().end(),
                                   [&](const auto& info) { return info.collective == other && info.name == name; });
            });
            if (!elsewhere) (void)algo::find_algorithm(collective, name);  // UsageError naming what exists
        }
    }
    std::vector<Candidate> candidates;
    for (const algo::AlgorithmInfo* info : algorithms) {
        std::vector<std::map<std::string, std::string>> variants{{}};
        const auto vary = [&](const std::string& option, const std::vector<std::string>& values) {
            if (values.empty() || !has_option(*info, option)) return;
            std::vector<std::map<std::string, std::string>> next;
            for (const auto& variant : variants)
                for (const std::string& value : values) {
                    auto with = variant;
                    with[option] = value;
                    next.push_back(std::move(with));
                }
            variants = std::move(next);
        };
        std::vector<std::string> segments, fanouts;
        for (std::uint64_t segment : request.segments) segments.push_back(std::to_string(segment));
        for (int fanout : request.fanouts) fanouts.push_back(std::to_string(fanout));
        vary("segment", segments);
        vary("fanout", fanouts);
        for (auto& options : variants) candidates.push_back({info->name, std::move(options)});
    }
    return candidates;
}

std::size_t planned_timings(const SweepRequest& request) {
    std::size_t per_point = 0;
    for (sched::Collective collective : request.collectives) per_point += candidates_for(collective, request).size();
    return per_point * request.nodes.size() * request.ranks_per_node.size() * request.bytes.size();
}

std::vector<TunePoint> sweep(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine,
                             const Timer& time, const std::string& what) {
    const std::size_t planned = planned_timings(request);
    ProgressReport progress(what, "timings", planned);
    std::size_t done = 0;
    std::vector<TunePoint> points;
    for (sched::Collective collective : request.collectives) {
        const std::vector<Candidate> candidates = candidates_for(collective, request);
        for (int nodes : request.nodes)
            for (int per_node : request.ranks_per_node) {
                algo::LayoutOptions layout_options;
                layout_options.nodes = nodes;
                layout_options.ranks_per_node = per_node;
                const algo::Layout layout = algo::make_layout(machine, layout_options);
                for (std::uint64_t bytes : request.bytes) {
                    TunePoint point;
                    point.collective = collective;
                    point.nodes = nodes;
                    point.ranks_per_node = layout.size() / nodes;
                    point.bytes = bytes;
                    for (const Candidate& candidate : candidates) {
                        sched::CollectiveSpec spec;
                        spec.collective = collective;
                        spec.algorithm = candidate.algorithm;
                        spec.bytes = bytes;
                        spec.root = request.root;
                        spec.options = candidate.options;
                        // Returned from the handler: assigning inside the try, GCC 12 at -O2
                        // kept a stale time here when the call threw (tests/tune/sweep_test.cpp).
                        const std::optional<Timing> timing = [&]() -> std::optional<Timing> {
                            try {
                                return time(spec, layout);
                            } catch (const UsageError&) {
                                return std::nullopt;  // a size or shape this algorithm does not take
                            }
                        }();
                        if (timing)
                            point.times.push_back({candidate, timing->time_ns, timing->p10_ns, timing->p90_ns});
                        else
                            point.times.push_back({candidate, std::nullopt, std::nullopt, std::nullopt});
                        progress.advance_each(++done);
                    }
                    points.push_back(std::move(point));
                }
            }
    }
    return points;
}

}  // namespace numacoll::tune

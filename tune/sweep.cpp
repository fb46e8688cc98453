#include "tune/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <cstdlib>
#include <map>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "common/byte_size.hpp"
#include "common/progress.hpp"

namespace numacoll::tune {

namespace {

bool has_option(const algo::AlgorithmInfo& info, const std::string& name) {
    return std::any_of(info.options.begin(), info.options.end(),
                       [&](const sched::OptionInfo& option) { return option.name == name; });
}

// The sizes a collective is timed at: a barrier moves no data, so it is
// timed once per shape, at 0 bytes, whatever sizes the sweep names.
std::vector<std::uint64_t> sizes_of(sched::Collective collective, const SweepRequest& request) {
    if (collective == sched::Collective::barrier) return {0};
    return request.bytes;
}

}  // namespace

std::vector<Candidate> candidates_for(sched::Collective collective, const SweepRequest& request) {
    std::vector<const algo::AlgorithmInfo*> algorithms;
    if (request.algorithms.empty()) {
        for (const auto& info : algo::algorithm_registry())
            if (info.collective == collective) algorithms.push_back(&info);
    } else {
        for (const std::string& name : request.algorithms) {
            if (name == native_algorithm) continue;  // below, when the request measures it
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
    if (request.with_native) candidates.push_back({native_algorithm, {}});
    return candidates;
}

std::size_t planned_timings(const SweepRequest& request) {
    std::size_t per_shape = 0;
    for (sched::Collective collective : request.collectives)
        per_shape += candidates_for(collective, request).size() * sizes_of(collective, request).size();
    return per_shape * request.nodes.size() * request.ranks_per_node.size();
}

namespace {

algo::Layout layout_of(const std::shared_ptr<const topo::Machine>& machine, int nodes, int per_node) {
    algo::LayoutOptions layout_options;
    layout_options.nodes = nodes;
    layout_options.ranks_per_node = per_node;
    return algo::make_layout(machine, layout_options);
}

sched::CollectiveSpec spec_of(sched::Collective collective, const Candidate& candidate, std::uint64_t bytes,
                              const SweepRequest& request) {
    sched::CollectiveSpec spec;
    spec.collective = collective;
    spec.algorithm = candidate.algorithm;
    spec.bytes = bytes;
    spec.root = request.root;
    spec.datatype = request.datatype;
    spec.op = request.op;
    spec.options = candidate.options;
    return spec;
}

// One point of a sweep, as for_each_point hands it over.
struct PointOf {
    std::size_t index = 0;  // in sweep order
    sched::Collective collective = sched::Collective::allreduce;
    const std::vector<Candidate>* candidates = nullptr;
    const algo::Layout* layout = nullptr;
    std::uint64_t bytes = 0;

    // "allreduce at 2 nodes x 12 ranks, 64KiB"
    std::string name() const {
        return fmt::format("{} at {} node{} x {} ranks, {}", sched::to_string(collective), layout->nodes,
                           layout->nodes == 1 ? "" : "s", layout->ranks_per_node, format_bytes(bytes));
    }
};

// Every point in the order collective, shape (nodes, then ranks per node),
// size, each shape laid out once on `machine` (compact placement).
void for_each_point(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine,
                    const std::function<void(const PointOf&)>& visit) {
    PointOf point;
    for (sched::Collective collective : request.collectives) {
        const std::vector<Candidate> candidates = candidates_for(collective, request);
        point.collective = collective;
        point.candidates = &candidates;
        for (int nodes : request.nodes)
            for (int per_node : request.ranks_per_node) {
                const algo::Layout layout = layout_of(machine, nodes, per_node);
                point.layout = &layout;
                for (std::uint64_t bytes : sizes_of(collective, request)) {
                    point.bytes = bytes;
                    visit(point);
                    ++point.index;
                }
            }
    }
}

}  // namespace

SweepCheck check_sweep(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine) {
    SweepCheck check;
    // Per option value asked for (segment=N, fanout=K): whether some point took it, and the first refusal.
    std::map<std::string, std::pair<bool, std::string>> asked;
    for_each_point(request, machine, [&](const PointOf& point) {
        const std::vector<Candidate>& candidates = *point.candidates;
        std::string first_refusal;
        bool taken = false;
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            std::string refusal;
            if (candidates[c].algorithm == native_algorithm) {  // the MPI library takes every size
                taken = true;
                // Its cost unknown: weighed as one task per rank, a floor.
                check.estimated_tasks.push_back(static_cast<double>(point.layout->size()));
                continue;
            }
            double estimate = 0;
            try {
                estimate = static_cast<double>(algo::check_schedule_request(
                    spec_of(point.collective, candidates[c], point.bytes, request), *point.layout));
            } catch (const UsageError& error) {
                refusal = error.what();
            }
            check.estimated_tasks.push_back(refusal.empty() ? estimate : 0.0);
            taken = taken || refusal.empty();
            if (!refusal.empty()) {
                check.refused.emplace(point.index, c);
                if (first_refusal.empty()) first_refusal = refusal;
            }
            for (const char* key : {"segment", "fanout"}) {
                const auto found = candidates[c].options.find(key);
                if (found == candidates[c].options.end()) continue;
                auto& [used, why] = asked[fmt::format("{}={}", key, found->second)];
                used = used || refusal.empty();
                if (why.empty() && !refusal.empty()) why = fmt::format("{}: {}", point.name(), refusal);
            }
        }
        if (!taken) throw UsageError(fmt::format("{}: {}", point.name(), first_refusal));
    });
    for (const auto& [value, outcome] : asked)
        if (!outcome.first)
            throw UsageError(fmt::format("--{}s {} fits no candidate at any point: {}", value.substr(0, value.find('=')),
                                         value.substr(value.find('=') + 1), outcome.second));
    return check;
}

std::string TimingJob::key() const {
    return fmt::format("{} {}x{} {} {}", sched::to_string(spec.collective), layout->nodes, layout->ranks_per_node,
                       spec.bytes, describe(candidate));
}

std::vector<TimingJob> timing_jobs(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine,
                                   const SweepCheck& checked) {
    std::vector<TimingJob> jobs;
    std::shared_ptr<const algo::Layout> layout;
    for_each_point(request, machine, [&](const PointOf& at) {
        if (!layout || layout.get() != at.layout) layout = std::make_shared<const algo::Layout>(*at.layout);
        const std::vector<Candidate>& candidates = *at.candidates;
        for (std::size_t c = 0; c < candidates.size(); ++c) {
            TimingJob job;
            job.point = at.index;
            job.candidate = candidates[c];
            job.spec = spec_of(at.collective, candidates[c], at.bytes, request);
            job.layout = layout;
            job.refused = checked.refused.count({at.index, c}) > 0;
            if (jobs.size() < checked.estimated_tasks.size()) job.estimated_tasks = checked.estimated_tasks[jobs.size()];
            jobs.push_back(std::move(job));
        }
    });
    return jobs;
}

std::vector<TunePoint> points_from_timings(const std::vector<TimingJob>& jobs,
                                           const std::vector<std::optional<Timing>>& timings) {
    if (timings.size() != jobs.size())
        throw Error(fmt::format("{} timings for a sweep of {}", timings.size(), jobs.size()));
    std::vector<TunePoint> points;
    for (std::size_t i = 0; i < jobs.size(); ++i) {
        const TimingJob& job = jobs[i];
        if (points.empty() || i == 0 || jobs[i - 1].point != job.point) {
            TunePoint point;
            point.collective = job.spec.collective;
            point.nodes = job.layout->nodes;
            point.ranks_per_node = job.layout->ranks_per_node;
            point.bytes = job.spec.bytes;
            points.push_back(std::move(point));
        }
        const std::optional<Timing>& timing = timings[i];
        if (timing)
            points.back().times.push_back({job.candidate, timing->time_ns, timing->p10_ns, timing->p90_ns});
        else
            points.back().times.push_back({job.candidate, std::nullopt, std::nullopt, std::nullopt});
    }
    return points;
}

std::optional<Timing> time_job(const TimingJob& job, const Timer& time) {
    if (job.refused) return std::nullopt;  // a size or shape this algorithm does not take
    // Returned from the handler: assigning inside the try, GCC 12 at -O2
    // kept a stale time here when the call threw (tests/tune/sweep_test.cpp).
    try {
        return time(job.spec, *job.layout);
    } catch (const UsageError&) {
        return std::nullopt;  // one the engine does not take (no model for it)
    }
}

std::string timing_text(const std::optional<Timing>& timing) {
    if (!timing) return "";
    // fmt's shortest form reads back to the same double.
    std::string text = fmt::format("{}", timing->time_ns);
    if (timing->p10_ns && timing->p90_ns) text += fmt::format(" {} {}", *timing->p10_ns, *timing->p90_ns);
    return text;
}

std::optional<Timing> timing_from_text(const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::vector<double> numbers;
    const char* at = text.c_str();
    while (*at != '\0') {
        char* end = nullptr;
        const double number = std::strtod(at, &end);
        if (end == at || (*end != ' ' && *end != '\0')) throw InputError(fmt::format("'{}' is not a timing", text));
        numbers.push_back(number);
        at = *end == ' ' ? end + 1 : end;
    }
    if (numbers.size() != 1 && numbers.size() != 3) throw InputError(fmt::format("'{}' is not a timing", text));
    Timing timing{numbers[0], std::nullopt, std::nullopt};
    if (numbers.size() == 3) timing.p10_ns = numbers[1], timing.p90_ns = numbers[2];
    return timing;
}

std::vector<TunePoint> sweep(const SweepRequest& request, const std::shared_ptr<const topo::Machine>& machine,
                             const Timer& time, const std::string& what, const SweepCheck* checked) {
    std::optional<SweepCheck> own;
    if (checked == nullptr) checked = &own.emplace(check_sweep(request, machine));
    const std::vector<TimingJob> jobs = timing_jobs(request, machine, *checked);
    ProgressReport progress(what, "timings", jobs.size());
    double work_total = 0, work_done = 0;
    for (const TimingJob& job : jobs) work_total += job.estimated_tasks;
    std::vector<std::optional<Timing>> timings;
    timings.reserve(jobs.size());
    for (const TimingJob& job : jobs) {
        timings.push_back(time_job(job, time));
        work_done += job.estimated_tasks;
        progress.advance_each(timings.size(), work_done, work_total);
    }
    return points_from_timings(jobs, timings);
}

}  // namespace numacoll::tune

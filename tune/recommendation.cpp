#include "tune/recommendation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/byte_size.hpp"

namespace numacoll::tune {

namespace {

constexpr double same_time = 1e-6;  // relative: simulated or modelled times this close are one schedule's

bool ties(const CandidateTime& best, const CandidateTime& other) {
    if (best.p10_ns && best.p90_ns) return *other.time_ns >= *best.p10_ns && *other.time_ns <= *best.p90_ns;
    return std::abs(*other.time_ns - *best.time_ns) <= same_time * *best.time_ns;
}

// What a size of one shape decides: its tied candidates (the fastest first) and the untied rest.
struct SizeVerdict {
    std::uint64_t bytes = 0;
    std::vector<const CandidateTime*> tied;
    const CandidateTime* next = nullptr;  // the fastest candidate of an algorithm none of the tied has
};

SizeVerdict verdict_of(const TunePoint& point) {
    SizeVerdict verdict;
    verdict.bytes = point.bytes;
    const CandidateTime* best = nullptr;
    for (const CandidateTime& entry : point.times)
        if (entry.time_ns && (best == nullptr || *entry.time_ns < *best->time_ns)) best = &entry;
    if (best == nullptr) return verdict;
    for (const CandidateTime& entry : point.times)
        if (entry.time_ns && ties(*best, entry)) verdict.tied.push_back(&entry);
    std::stable_sort(verdict.tied.begin(), verdict.tied.end(),
                     [&](const CandidateTime* a, const CandidateTime* b) { return a == best && b != best; });
    for (const CandidateTime& entry : point.times) {
        if (!entry.time_ns) continue;
        const bool algorithm_tied = std::any_of(verdict.tied.begin(), verdict.tied.end(), [&](const CandidateTime* t) {
            return t->candidate.algorithm == entry.candidate.algorithm;
        });
        if (!algorithm_tied && (verdict.next == nullptr || *entry.time_ns < *verdict.next->time_ns))
            verdict.next = &entry;
    }
    return verdict;
}

// The candidate kept at a size: the previous size's if it ties, else the simplest.
const CandidateTime* kept(const SizeVerdict& verdict, const std::optional<Candidate>& previous) {
    if (previous)
        for (const CandidateTime* entry : verdict.tied)
            if (entry->candidate == *previous) return entry;
    // The tied list is in sweep order after the fastest; the fewest options wins, the earliest on equal counts.
    const CandidateTime* simplest = nullptr;
    for (const CandidateTime* entry : verdict.tied)
        if (simplest == nullptr || entry->candidate.options.size() < simplest->candidate.options.size()) simplest = entry;
    return simplest;
}

}  // namespace

std::vector<Recommendation> recommend(const std::vector<TunePoint>& points) {
    std::vector<Recommendation> out;
    for (const TunePoint& point : points) {
        const SizeVerdict verdict = verdict_of(point);
        if (verdict.tied.empty()) continue;
        auto shape = std::find_if(out.begin(), out.end(), [&](const Recommendation& r) {
            return r.collective == point.collective && r.nodes == point.nodes && r.ranks_per_node == point.ranks_per_node;
        });
        if (shape == out.end()) {
            out.push_back({point.collective, point.nodes, point.ranks_per_node, {}});
            shape = out.end() - 1;
        }
        std::vector<RecommendedRange>& ranges = shape->ranges;
        const std::optional<Candidate> previous =
            ranges.empty() ? std::nullopt : std::optional<Candidate>(ranges.back().pick);
        const CandidateTime* pick = kept(verdict, previous);
        if (ranges.empty() || !(ranges.back().pick == pick->candidate))
            ranges.push_back({verdict.bytes, verdict.bytes, pick->candidate, {}, std::nullopt, ""});
        RecommendedRange& range = ranges.back();
        range.to_bytes = verdict.bytes;
        for (const CandidateTime* entry : verdict.tied)
            if (entry->candidate.algorithm != pick->candidate.algorithm &&
                std::find(range.tied.begin(), range.tied.end(), entry->candidate.algorithm) == range.tied.end())
                range.tied.push_back(entry->candidate.algorithm);
        if (verdict.next != nullptr) {
            const double margin = *verdict.next->time_ns / *pick->time_ns - 1;
            if (!range.margin || margin < *range.margin) {
                range.margin = margin;
                range.runner_up = verdict.next->candidate.algorithm;
            }
        }
    }
    return out;
}

std::string sizes_text(const RecommendedRange& range) {
    return range.from_bytes == range.to_bytes ? format_bytes(range.from_bytes)
                                              : format_bytes(range.from_bytes) + "-" + format_bytes(range.to_bytes);
}

std::string recommendation_text(const std::vector<Recommendation>& recommendations) {
    std::string text;
    for (const Recommendation& r : recommendations) {
        text += fmt::format("{:<10} {:>3}x{:<3}", sched::to_string(r.collective), r.nodes, r.ranks_per_node);
        for (const RecommendedRange& range : r.ranges) {
            text += "  " + sizes_text(range) + " " + describe(range.pick);
            for (const std::string& name : range.tied) text += "=" + name;
            if (range.margin) {
                const double percent = 100 * *range.margin;
                text += percent < 10 ? fmt::format(" +{:.1f}%", percent) : fmt::format(" +{:.0f}%", percent);
            }
        }
        text += "\n";
    }
    return text;
}

}  // namespace numacoll::tune

// The recommendation a sweep gives: ranges of sizes with the algorithm to
// use, ties collapsed (measured within the spread, or the same simulated
// time), the previous range's pick kept where it ties, and the margin to
// the next untied algorithm.
#include "tune/recommendation.hpp"

#include <gtest/gtest.h>

using namespace numacoll;

namespace {

tune::CandidateTime timed(const std::string& algorithm, double ns, std::optional<double> p10 = std::nullopt,
                          std::optional<double> p90 = std::nullopt,
                          std::map<std::string, std::string> options = {}) {
    return {{algorithm, std::move(options)}, ns, p10, p90};
}

tune::TunePoint at(std::uint64_t bytes, std::vector<tune::CandidateTime> times, int nodes = 1) {
    return {sched::Collective::allreduce, nodes, 12, bytes, std::move(times)};
}

}  // namespace

TEST(Recommendation, RangesOfOneAlgorithmWithTheirMargin) {
    const auto recommendations = tune::recommend({
        at(8, {timed("recursive-doubling", 100), timed("ring", 150)}),
        at(64, {timed("recursive-doubling", 110), timed("ring", 121)}),
        at(4096, {timed("recursive-doubling", 300), timed("ring", 200)}),
    });
    ASSERT_EQ(recommendations.size(), 1u);
    const auto& ranges = recommendations[0].ranges;
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(ranges[0].pick.algorithm, "recursive-doubling");
    EXPECT_EQ(ranges[0].from_bytes, 8u);
    EXPECT_EQ(ranges[0].to_bytes, 64u);
    EXPECT_NEAR(*ranges[0].margin, 0.10, 1e-12);  // the closest size of the range
    EXPECT_EQ(ranges[0].runner_up, "ring");
    EXPECT_EQ(ranges[1].pick.algorithm, "ring");
    EXPECT_NEAR(*ranges[1].margin, 0.5, 1e-12);
    const std::string text = tune::recommendation_text(recommendations);
    EXPECT_NE(text.find("allreduce    1x12   8B-64B recursive-doubling +10%  4KiB ring +50%\n"),
              std::string::npos)
        << text;
}

TEST(Recommendation, MeasuredTiesKeepThePreviousPick) {
    // At 64 B ring is faster by a margin inside recursive doubling's spread: a tie, and the
    // previous size's pick stays, so the range does not flip back and forth.
    const auto recommendations = tune::recommend({
        at(8, {timed("recursive-doubling", 100, 95, 110), timed("ring", 150, 140, 160)}),
        at(64, {timed("ring", 99, 95, 104), timed("recursive-doubling", 101, 96, 106)}),
        at(128, {timed("recursive-doubling", 100, 95, 110), timed("ring", 130, 125, 140)}),
    });
    ASSERT_EQ(recommendations[0].ranges.size(), 1u);
    const auto& range = recommendations[0].ranges[0];
    EXPECT_EQ(range.pick.algorithm, "recursive-doubling");
    EXPECT_EQ(range.to_bytes, 128u);
    EXPECT_EQ(range.tied, std::vector<std::string>{"ring"});
    EXPECT_FALSE(range.margin.has_value() && *range.margin < 0);
}

TEST(Recommendation, EqualSimulatedTimesCollapseIntoTheSimplest) {
    // The same schedule under two names, and a segmented variant as fast: the bare one is kept.
    const auto recommendations = tune::recommend({
        at(8, {timed("tiled", 100), timed("tiled-naive", 100), timed("ring", 120)}),
        at(64, {timed("segmented-ring", 50, std::nullopt, std::nullopt, {{"segment", "1KiB"}}), timed("ring", 50),
                timed("tiled", 90)}),
    });
    const auto& ranges = recommendations[0].ranges;
    ASSERT_EQ(ranges.size(), 2u);
    EXPECT_EQ(ranges[0].pick.algorithm, "tiled");
    EXPECT_EQ(ranges[0].tied, std::vector<std::string>{"tiled-naive"});
    EXPECT_NEAR(*ranges[0].margin, 0.2, 1e-12);
    EXPECT_EQ(ranges[1].pick.algorithm, "ring");
    EXPECT_EQ(ranges[1].tied, std::vector<std::string>{"segmented-ring"});
}

TEST(Recommendation, OneLinePerCollectiveAndShape) {
    std::vector<tune::TunePoint> points;
    for (int nodes : {1, 2})
        for (std::uint64_t bytes : {8u, 64u}) points.push_back(at(bytes, {timed("ring", 10), timed("linear", 20)}, nodes));
    points.push_back({sched::Collective::barrier, 1, 12, 0, {timed("linear", 5)}});
    points.push_back({sched::Collective::barrier, 1, 12, 0, {}});  // nothing timed: no line of its own
    const auto recommendations = tune::recommend(points);
    ASSERT_EQ(recommendations.size(), 3u);
    const std::string text = tune::recommendation_text(recommendations);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3) << text;
    EXPECT_FALSE(recommendations[2].ranges[0].margin.has_value());  // alone: nothing to compare with
}

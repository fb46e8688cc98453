// A sweep's points on one process and in shards: each computed once, results
// in point order, finished ones taken as they are, and the shards a
// deterministic partition. (Over MPI processes: spread_sweeps_test.sh.)
#include "spread/distribution.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

using namespace numacoll;

namespace {

std::vector<double> costs_of(std::size_t count) {
    std::vector<double> costs;
    for (std::size_t i = 0; i < count; ++i) costs.push_back(static_cast<double>((i * 7919) % 23));
    return costs;
}

}  // namespace

TEST(Distribution, ALoneProcessComputesEachPointOnceLongestFirst) {
    spread::SpreadRequest request;
    request.expected_cost = {1, 5, 3, 5, 0};
    std::vector<std::size_t> order;
    const auto results = spread::compute_points(request, [&](std::size_t point) {
        order.push_back(point);
        return "r" + std::to_string(point);
    });
    EXPECT_EQ(order, (std::vector<std::size_t>{1, 3, 2, 0, 4}));
    ASSERT_EQ(results.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(results[i], "r" + std::to_string(i));
}

TEST(Distribution, FinishedPointsAreTakenAsTheyAreAndJournalled) {
    const std::string path =
        (std::filesystem::temp_directory_path() / ("distribution-" + std::to_string(::getpid()))).string();
    spread::JournalHead head;
    head.points = 4;
    spread::PointJournal journal(path, head);
    spread::SpreadRequest request;
    request.expected_cost = {1, 1, 1, 1};
    request.finished = {{1, "kept"}, {2, "also kept"}};
    request.journal = &journal;
    std::set<std::size_t> computed;
    const auto results = spread::compute_points(request, [&](std::size_t point) {
        computed.insert(point);
        return "new";
    });
    EXPECT_EQ(computed, (std::set<std::size_t>{0, 3}));
    EXPECT_EQ(results[1], "kept");
    EXPECT_EQ(results[2], "also kept");
    EXPECT_EQ(results[0], "new");
    const spread::JournalContents contents = spread::read_journal(path);
    EXPECT_EQ(contents.results.size(), 4u);  // the new journal alone holds every point
    std::filesystem::remove(path);
}

TEST(Distribution, ShardsPartitionThePointsAlikeOnEveryRun) {
    for (std::size_t count : {1u, 7u, 100u})
        for (int shards : {1, 2, 3, 8}) {
            const std::vector<double> costs = costs_of(count);
            std::set<std::size_t> seen;
            double heaviest = 0, lightest = 1e300;
            for (int k = 1; k <= shards; ++k) {
                const auto mine = spread::points_of_shard(costs, {k, shards});
                EXPECT_EQ(mine, spread::points_of_shard(costs, {k, shards}));
                double load = 0;
                for (std::size_t point : mine) {
                    EXPECT_TRUE(seen.insert(point).second) << "point " << point << " in two shards";
                    load += costs[point] + 1;
                }
                heaviest = std::max(heaviest, load);
                lightest = std::min(lightest, load);
            }
            EXPECT_EQ(seen.size(), count);
            // Longest first to the least loaded: no share exceeds another by more than the longest point.
            if (count >= static_cast<std::size_t>(shards)) {
                EXPECT_LE(heaviest - lightest, 23.0 + 1);
            }
        }
}

TEST(Distribution, AShardComputesOnlyItsShare) {
    spread::SpreadRequest request;
    request.expected_cost = costs_of(10);
    request.shard = {2, 3};
    std::set<std::size_t> computed;
    const auto results = spread::compute_points(request, [&](std::size_t point) {
        computed.insert(point);
        return std::to_string(point);
    });
    const auto mine = spread::points_of_shard(request.expected_cost, request.shard);
    EXPECT_EQ(computed, std::set<std::size_t>(mine.begin(), mine.end()));
    for (std::size_t point = 0; point < results.size(); ++point)
        EXPECT_EQ(results[point].has_value(), computed.count(point) > 0);
}

TEST(Distribution, APointThatThrowsOnALoneProcessEndsTheSweep) {
    spread::SpreadRequest request;
    request.expected_cost = {1, 2};
    EXPECT_THROW((void)spread::compute_points(request, [](std::size_t point) -> std::string {
                     if (point == 0) throw std::runtime_error("simulation failed");
                     return "ok";
                 }),
                 std::runtime_error);
}

// The selection table: winners and runners-up, its CSV read back, and the
// comparison of two tables priced by the first one's timings.
#include "tune/selection_table.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

namespace {

tune::TunePoint point(std::uint64_t bytes, std::vector<tune::CandidateTime> times) {
    return {sched::Collective::bcast, 2, 4, bytes, std::move(times)};
}

const tune::Candidate chain16{"chain", {{"segment", "16384"}}};
const tune::Candidate chain64{"chain", {{"segment", "65536"}}};
const tune::Candidate binomial{"binomial", {}};
const tune::Candidate linear{"linear", {}};

}  // namespace

TEST(SelectionTable, TheRunnerUpIsTheBestOfAnotherAlgorithm) {
    // The second-fastest variant is chain's other segment size: the runner-up
    // must be binomial, so that the margin prices the choice of algorithm.
    const auto rows = tune::select_winners({point(64, {{chain16, 10.0}, {chain64, 11.0}, {binomial, 15.0}, {linear, {}}})});
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].winner, chain16);
    ASSERT_TRUE(rows[0].runner_up);
    EXPECT_EQ(rows[0].runner_up->algorithm, "binomial");
    EXPECT_DOUBLE_EQ(*rows[0].margin(), 0.5);
}

TEST(SelectionTable, CandidatesWithoutATimeNeverWin) {
    const auto rows = tune::select_winners({point(64, {{linear, {}}, {binomial, 30.0}}), point(128, {{linear, {}}})});
    ASSERT_EQ(rows.size(), 1u);  // the second point has no winner
    EXPECT_EQ(rows[0].winner, binomial);
    EXPECT_FALSE(rows[0].runner_up);
    EXPECT_FALSE(rows[0].margin());
}

TEST(SelectionTable, CsvReadsBackAndSaysWhereEachChoiceEnds) {
    const auto rows = tune::select_winners(
        {point(64, {{binomial, 10.0}, {chain16, 20.0}}), point(1024, {{binomial, 30.0}, {chain16, 25.5}})});
    const std::string csv = tune::selection_csv(rows);
    EXPECT_NE(csv.find("bcast,2,4,8,64,1023,binomial,,10.000,chain,segment=16384,20.000,1.0000"), std::string::npos) << csv;
    EXPECT_NE(csv.find("bcast,2,4,8,1024,,chain,segment=16384,25.500,binomial,,30.000,0.1765"), std::string::npos) << csv;
    const auto back = tune::selection_from_csv(csv);
    ASSERT_EQ(back.size(), 2u);
    EXPECT_EQ(back[1].winner, chain16);
    EXPECT_EQ(back[1].bytes, 1024u);
    EXPECT_DOUBLE_EQ(back[1].time_ns, 25.5);
    EXPECT_THROW(tune::selection_from_csv("collective,nodes\nbcast,1\n"), InputError);
    EXPECT_THROW(tune::selection_from_csv(csv + "bcast,0,4,0,64,,binomial,,1.0,,,,\n"), InputError);  // 0 nodes
    EXPECT_THROW(tune::selection_from_csv(csv + "bcast,1,4,4,64,,binomial,,-1,,,,\n"), InputError);  // negative time
    EXPECT_THROW(tune::selection_from_csv(""), InputError);
}

TEST(SelectionTable, AComparisonPricesTheOtherPickWithTheFirstTimings) {
    const std::vector<tune::TunePoint> mine = {point(64, {{binomial, 10.0}, {chain16, 12.0}, {chain64, 11.0}}),
                                               point(1024, {{binomial, 40.0}, {chain16, 20.0}})};
    const std::vector<tune::TunePoint> theirs = {point(64, {{binomial, 9.0}, {chain16, 8.0}}),
                                                 point(1024, {{binomial, 50.0}, {chain16, 10.0}})};
    // The timings table reads back as it was written.
    const auto timings = tune::timings_from_csv(tune::timings_csv(mine));
    ASSERT_EQ(timings.size(), 2u);
    ASSERT_EQ(timings[0].times.size(), 3u);
    EXPECT_EQ(timings[0].times[1].candidate, chain16);
    const tune::Comparison comparison =
        tune::compare_tables(tune::select_winners(mine), tune::select_winners(theirs), timings);
    EXPECT_EQ(comparison.common_points, 2);
    EXPECT_EQ(comparison.agreeing_points, 1);  // both pick chain at 1 KiB
    ASSERT_EQ(comparison.disagreements.size(), 1u);
    // Theirs picks chain with 16 KiB segments at 64 B: 12 against my best 10.
    ASSERT_TRUE(comparison.disagreements[0].cost);
    EXPECT_DOUBLE_EQ(*comparison.disagreements[0].cost, 0.2);
}

TEST(SelectionTable, APickWithinTheMeasuredSpreadIsATie) {
    // Measured: binomial's median 10 with iterations from 9 to 13; chain's 12
    // is inside that spread at 64 B, linear's 20 is not at 1 KiB.
    const std::vector<tune::TunePoint> measured = {
        point(64, {{binomial, 10.0, 9.0, 13.0}, {chain16, 12.0, 11.0, 14.0}}),
        point(1024, {{binomial, 10.0, 9.0, 13.0}, {linear, 20.0, 19.0, 21.0}})};
    const std::vector<tune::TunePoint> predicted = {point(64, {{binomial, 5.0}, {chain16, 4.0}}),
                                                    point(1024, {{binomial, 5.0}, {linear, 4.0}})};
    const auto timings = tune::timings_from_csv(tune::timings_csv(measured));
    EXPECT_EQ(timings[0].times[0].p90_ns, 13.0);
    const tune::Comparison comparison =
        tune::compare_tables(tune::select_winners(measured), tune::select_winners(predicted), timings);
    EXPECT_EQ(comparison.agreeing_points, 0);
    EXPECT_EQ(comparison.tied_points, 1);
    ASSERT_EQ(comparison.disagreements.size(), 2u);
    EXPECT_TRUE(comparison.disagreements[0].within_spread);
    EXPECT_FALSE(comparison.disagreements[1].within_spread);
    EXPECT_DOUBLE_EQ(*comparison.disagreements[1].cost, 1.0);
}

TEST(SelectionTable, JsonReadsBackAndDecidesACallByShapeAndSize) {
    std::vector<tune::TunePoint> points = {point(64, {{binomial, 10.0}, {chain16, 20.0}}),
                                           point(1024, {{binomial, 30.0}, {chain16, 25.5}})};
    points.push_back({sched::Collective::bcast, 1, 2, 64, {{linear, 5.0}}});
    const auto rows = tune::select_winners(points);
    const auto back = tune::selection_from_json(tune::selection_json(rows, {{"engine", "mpi"}}), "table");
    ASSERT_EQ(back.size(), 3u);
    EXPECT_EQ(back[1].winner, chain16);
    // 2 x 4 ranks: below the first size, between, above the last.
    EXPECT_EQ(tune::row_for_call(back, sched::Collective::bcast, 2, 8, 8)->winner, binomial);
    EXPECT_EQ(tune::row_for_call(back, sched::Collective::bcast, 2, 8, 1000)->winner, binomial);
    EXPECT_EQ(tune::row_for_call(back, sched::Collective::bcast, 2, 8, 1 << 20)->winner, chain16);
    // One node of 3 ranks: the table's one-node shape.
    EXPECT_EQ(tune::row_for_call(back, sched::Collective::bcast, 1, 3, 1 << 20)->winner, linear);
    EXPECT_EQ(tune::row_for_call(back, sched::Collective::reduce, 1, 3, 64), nullptr);
    EXPECT_THROW(tune::selection_from_json("[]", "table"), InputError);
    EXPECT_THROW(tune::selection_from_json("{", "table"), InputError);
    EXPECT_THROW(tune::selection_from_json(R"({"format":"numacoll-selection","rows":[{"collective":"bcast"}]})", "table"),
                 InputError);
}

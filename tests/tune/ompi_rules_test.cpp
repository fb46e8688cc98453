// Open MPI rules from a sweep: message sizes as Open MPI counts them, which
// candidates Open MPI can run, merged rules starting at 0, and both file
// formats as Open MPI's readers expect them.
#include "tune/ompi_rules.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

#include "common/error.hpp"

using namespace numacoll;

TEST(OmpiRules, MessageSizesFollowOpenMpisDefinition) {
    // Open MPI's decision functions: dtype size x count for bcast, reduce and
    // allreduce; x the communicator size for gather, scatter and allgather.
    EXPECT_EQ(tune::ompi_message_bytes(sched::Collective::bcast, 4096, 16), 4096u);
    EXPECT_EQ(tune::ompi_message_bytes(sched::Collective::allreduce, 4096, 16), 4096u);
    EXPECT_EQ(tune::ompi_message_bytes(sched::Collective::gather, 4096, 16), 65536u);
    EXPECT_EQ(tune::ompi_message_bytes(sched::Collective::allgather, 100, 3), 300u);
    EXPECT_EQ(tune::ompi_message_bytes(sched::Collective::barrier, 0, 8), 0u);
    EXPECT_EQ(tune::ompi_collective_id(sched::Collective::bcast), 7);
    EXPECT_EQ(tune::ompi_collective_id(sched::Collective::reduce), 11);
    EXPECT_EQ(tune::ompi_collective_id(sched::Collective::scatter), 15);
    EXPECT_THROW(tune::ompi_collective_id(sched::Collective::pingpong), UsageError);
}

TEST(OmpiRules, OnlyWhatOpenMpiRunsIsExpressible) {
    EXPECT_TRUE(tune::ompi_expressible(sched::Collective::bcast, {"binomial", {}}));
    EXPECT_TRUE(tune::ompi_expressible(sched::Collective::bcast, {"chain", {{"segment", "8192"}, {"fanout", "2"}}}));
    EXPECT_FALSE(tune::ompi_expressible(sched::Collective::bcast, {"chain", {{"leader", "nic"}}}));  // numacoll's order
    EXPECT_FALSE(tune::ompi_expressible(sched::Collective::bcast, {"tree", {}}));          // HPDC'13 threads
    EXPECT_FALSE(tune::ompi_expressible(sched::Collective::bcast, {"hier-binomial", {}}));  // not in coll/tuned
}

namespace {

tune::TunePoint point(sched::Collective collective, int nodes, int per_node, std::uint64_t bytes,
                      std::vector<tune::CandidateTime> times) {
    return {collective, nodes, per_node, bytes, std::move(times)};
}

// bcast on 2 x 4 ranks: binomial wins small sizes, chain (Open MPI's) large
// ones; the HPDC'13 tree is fastest at 1 MiB but Open MPI has no such thing.
std::vector<tune::TunePoint> bcast_points() {
    const tune::Candidate binomial{"binomial", {}}, chain{"chain", {{"segment", "16384"}}}, tree{"tree", {}};
    return {point(sched::Collective::bcast, 2, 4, 8, {{binomial, 1.0}, {chain, 3.0}, {tree, 2.0}}),
            point(sched::Collective::bcast, 2, 4, 64, {{binomial, 1.5}, {chain, 3.5}, {tree, 2.5}}),
            point(sched::Collective::bcast, 2, 4, 65536, {{binomial, 9.0}, {chain, 5.0}, {tree, 6.0}}),
            point(sched::Collective::bcast, 2, 4, 1 << 20, {{binomial, 90.0}, {chain, 50.0}, {tree, 10.0}}),
            point(sched::Collective::bcast, 1, 8, 8, {{binomial, 1.0}, {chain, 3.0}}),
            point(sched::Collective::gather, 2, 4, 1024, {{{"binomial", {}}, 7.0}, {{"linear", {}}, 8.0}})};
}

}  // namespace

TEST(OmpiRules, RulesMergeEqualChoicesAndStartAtZero) {
    const auto rules = tune::ompi_rules(bcast_points());
    ASSERT_EQ(rules.size(), 3u);
    const tune::OmpiCommRule& bcast = rules[0];
    EXPECT_EQ(bcast.ranks, 8);
    ASSERT_EQ(bcast.choices.size(), 2u);  // binomial from 0, chain from 64 KiB (tree is not Open MPI's)
    EXPECT_EQ(bcast.choices[0].message_bytes, 0u);
    EXPECT_EQ(bcast.choices[0].id, 6);
    EXPECT_EQ(bcast.choices[1].message_bytes, 65536u);
    EXPECT_EQ(bcast.choices[1].id, 2);
    EXPECT_EQ(bcast.choices[1].segment_bytes, 16384u);
    EXPECT_EQ(bcast.choices[1].faninout, 4);  // chain's own default fan-out, written out
    EXPECT_EQ(rules[2].collective, sched::Collective::gather);
}

TEST(OmpiRules, TheClassicFileIsWhatOpenMpisReaderCounts) {
    const std::string text = tune::ompi_classic_rules(tune::ompi_rules(bcast_points()), false, {"from a test"});
    // Open MPI's reader takes the numbers in order and skips '#' to the line's end.
    std::vector<long> numbers;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        std::istringstream words(line.substr(0, line.find('#')));
        for (long value; words >> value;) numbers.push_back(value);
    }
    // 2 collectives; bcast (7): 1 size (the 2 x 4 shape wins over 1 x 8 for
    // 8 ranks: the most nodes), from 8 ranks, 2 rules; gather (9): 1 size, 8
    // ranks, 1 rule starting at 0 (binomial, id 2).
    const std::vector<long> expected = {2, 7, 1, 8, 2, 0, 6, 0, 0, 65536, 2, 4, 16384, 9, 1, 8, 1, 0, 2, 0, 0};
    EXPECT_EQ(numbers, expected) << text;
    EXPECT_EQ(text.rfind("rule-file-version", 0), std::string::npos);
    const std::string versioned = tune::ompi_classic_rules(tune::ompi_rules(bcast_points()), true, {});
    EXPECT_EQ(versioned.rfind("rule-file-version-2\n", 0), 0u);  // the very first line
}

TEST(OmpiRules, TheJsonFileSeparatesOneNodeFromSeveral) {
    const auto json = nlohmann::json::parse(tune::ompi_json_rules(tune::ompi_rules(bcast_points()), {{"engine", "sim"}}));
    const auto& bcast = json.at("collectives").at("bcast");
    ASSERT_EQ(bcast.size(), 2u);
    EXPECT_EQ(bcast[0].at("comm_rank_distribution"), "single-node");  // first: Open MPI takes the first match
    EXPECT_EQ(bcast[1].at("comm_rank_distribution"), "any");
    EXPECT_EQ(bcast[1].at("comm_size_min"), 8);
    const auto& rules = bcast[1].at("rules");
    ASSERT_EQ(rules.size(), 2u);
    EXPECT_EQ(rules[0].at("alg"), "binomial");
    EXPECT_EQ(rules[0].at("msg_size_max"), 65535);
    EXPECT_EQ(rules[1].at("alg"), "chain");
    EXPECT_EQ(rules[1].at("seg_size"), 16384);
    EXPECT_FALSE(rules[1].contains("msg_size_max"));  // open-ended
    EXPECT_EQ(json.at("collectives").at("gather")[0].at("rules")[0].at("msg_size_min"), 0);
}

TEST(OmpiRules, ACollectiveWithoutRulesIsNamedWithTheReason) {
    const tune::Candidate tree{"tree", {}}, tiled{"tiled", {}}, ring{"ring", {}}, nic_chain{"chain", {{"leader", "nic"}}};
    const std::vector<tune::TunePoint> points = {
        point(sched::Collective::allreduce, 1, 4, 8, {{tree, 1.0}, {tiled, 2.0}}),
        point(sched::Collective::bcast, 1, 4, 8, {{nic_chain, 1.0}}),
        point(sched::Collective::reduce, 1, 4, 8, {{{"binomial", {}}, std::nullopt}}),
        point(sched::Collective::allgather, 1, 4, 8, {{ring, 1.0}})};
    const auto lines = tune::collectives_without_rules(points, tune::ompi_rules(points));
    ASSERT_EQ(lines.size(), 3u);  // allgather ring is Open MPI's: it has rules
    EXPECT_NE(lines[0].find("allreduce: none of the algorithms timed (tree, tiled) is one of Open MPI's; time one of "
                            "linear, nonoverlapping, recursive-doubling, ring"),
              std::string::npos)
        << lines[0];
    EXPECT_NE(lines[1].find("bcast: Open MPI cannot run chain with the options timed"), std::string::npos) << lines[1];
    EXPECT_NE(lines[2].find("reduce: none of Open MPI's algorithms could be timed"), std::string::npos) << lines[2];
}

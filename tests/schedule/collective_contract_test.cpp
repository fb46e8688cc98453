// What the ping-pong owes (the other collectives' contracts are exercised by
// the checker's tests and the proofs of every algorithm).
#include "schedule/collective_contract.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "schedule/symbolic_checker.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

TEST(CollectiveContract, APingPongSwapsTheInputsOfTheRootAndItsPeer) {
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::pingpong;
    spec.bytes = 64;
    spec.root = 2;
    spec.options["peer"] = "5";
    EXPECT_EQ(sched::pingpong_peer(spec), 5);
    for (int rank = 0; rank < 8; ++rank) {
        EXPECT_EQ(sched::has_input(spec, rank), rank == 2 || rank == 5) << rank;
        EXPECT_EQ(sched::has_output(spec, rank), rank == 2 || rank == 5) << rank;
    }
    const auto blocks = sched::required_blocks(spec, 8);
    ASSERT_EQ(blocks.size(), 2u);
    EXPECT_EQ(blocks[0].rank, 2);
    EXPECT_EQ(blocks[0].sources, std::vector<int>{5});
    EXPECT_EQ(blocks[1].rank, 5);
    EXPECT_EQ(blocks[1].sources, std::vector<int>{2});
    spec.options.erase("peer");
    EXPECT_EQ(sched::pingpong_peer(spec), 1);
}

TEST(CollectiveContract, APingPongIsProvenBetweenNodesAndRefusesItselfAsPeer) {
    const auto between_nodes =
        test::schedule("opteron8218", sched::Collective::pingpong, "direct", 1024, 1, 2, 0);
    EXPECT_TRUE(sched::check_schedule(between_nodes).holds);
    int messages = 0;
    for (int id = 0; id < between_nodes.task_count(); ++id) messages += between_nodes.task(id).kind == sched::TaskKind::net;
    EXPECT_EQ(messages, 2);  // the ping and the pong
    EXPECT_EQ(between_nodes.rank_kind, sched::RankKind::process);
    EXPECT_THROW(test::schedule("westmere", sched::Collective::pingpong, "direct", 64, 4, 1, 1, {{"peer", "1"}}),
                 UsageError);
    // By default the root's successor answers, and the schedule names it.
    const auto next = test::schedule("westmere", sched::Collective::pingpong, "direct", 64, 4, 1, 3);
    EXPECT_EQ(next.spec.options.at("peer"), "0");
    EXPECT_TRUE(sched::check_schedule(next).holds);
}

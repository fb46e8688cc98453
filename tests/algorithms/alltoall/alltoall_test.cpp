// What each alltoall exists for (Open MPI coll/tuned's algorithms 1-5;
// Thakur, Rabenseifner, Gropp 2005, section 4.5): across nodes, the linear
// and pairwise exchanges send a message to every other rank, the modified
// Bruck ceil(log2 p) messages; the linear exchange with a window of K sends
// waits, beyond the first K, for a block to be taken before the next; the
// two-process exchange runs on two ranks only and refuses other counts; the
// leader exchange sends one message per pair of nodes, from the leaders.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "../schedule_fixtures.hpp"

using namespace numacoll;

namespace {

sched::Schedule alltoall(const std::string& algorithm, int ranks_per_node, int nodes,
                         std::map<std::string, std::string> options = {}) {
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::alltoall;
    spec.algorithm = algorithm;
    spec.bytes = 64;
    spec.options = std::move(options);
    algo::LayoutOptions layout_options;
    layout_options.ranks_per_node = ranks_per_node;
    layout_options.nodes = nodes;
    return algo::generate_schedule(spec, algo::make_layout(test::machine("westmere"), layout_options));
}

// Per rank, its tasks of one kind whose label holds `part`.
std::vector<int> count_per_rank(const sched::Schedule& schedule, sched::TaskKind kind, const std::string& part = "") {
    std::vector<int> counts(static_cast<std::size_t>(schedule.rank_count()), 0);
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.kind == kind && task.label.text().find(part) != std::string::npos) ++counts[task.thread];
    }
    return counts;
}

}  // namespace

TEST(Alltoall, MessagesAcrossNodesPerRank) {
    for (int nodes : {2, 5, 8}) {
        EXPECT_EQ(count_per_rank(alltoall("linear", 1, nodes), sched::TaskKind::net), std::vector<int>(nodes, nodes - 1));
        EXPECT_EQ(count_per_rank(alltoall("pairwise", 1, nodes), sched::TaskKind::net), std::vector<int>(nodes, nodes - 1));
        int steps = 0;
        for (int distance = 1; distance < nodes; distance *= 2) ++steps;
        EXPECT_EQ(count_per_rank(alltoall("modified-bruck", 1, nodes), sched::TaskKind::net), std::vector<int>(nodes, steps));
    }
}

TEST(Alltoall, LeadersSendOneMessagePerPairOfNodes) {
    for (int nodes : {2, 3, 5}) {
        // Four ranks a node, led by local rank 0: k - 1 messages of 16 blocks from each leader, none from the others.
        std::vector<int> expected(static_cast<std::size_t>(4 * nodes), 0);
        for (int node = 0; node < nodes; ++node) expected[4 * node] = nodes - 1;
        const sched::Schedule schedule = alltoall("leader", 4, nodes);
        EXPECT_EQ(count_per_rank(schedule, sched::TaskKind::net), expected);
        for (int id = 0; id < schedule.task_count(); ++id)
            if (schedule.task(id).kind == sched::TaskKind::net) EXPECT_EQ(schedule.task(id).write.bytes, 16u * 64u);
    }
    // On one node: the linear exchange's hand-overs, and nothing through a leader.
    EXPECT_EQ(count_per_rank(alltoall("leader", 6, 1), sched::TaskKind::flag), std::vector<int>(6, 5));
}

TEST(Alltoall, AWindowOfSendsWaitsForBlocksToBeTaken) {
    // On one node of 6 ranks: with K = 1, sends 2..5 of every rank each wait for one taken block.
    EXPECT_EQ(count_per_rank(alltoall("linear-sync", 6, 1, {{"requests", "1"}}), sched::TaskKind::flag, "taken"),
              std::vector<int>(6, 4));
    EXPECT_EQ(count_per_rank(alltoall("linear-sync", 6, 1, {{"requests", "3"}}), sched::TaskKind::flag, "taken"),
              std::vector<int>(6, 2));
    EXPECT_EQ(count_per_rank(alltoall("linear-sync", 6, 1), sched::TaskKind::flag, "taken"), std::vector<int>(6, 0));
    // Across nodes a send is done once its message has arrived: no flag back.
    EXPECT_EQ(count_per_rank(alltoall("linear-sync", 1, 6, {{"requests", "1"}}), sched::TaskKind::flag),
              std::vector<int>(6, 0));
}

TEST(Alltoall, TwoProcessExchangeRefusesOtherCounts) {
    EXPECT_EQ(count_per_rank(alltoall("two-proc", 2, 1), sched::TaskKind::flag), std::vector<int>(2, 1));
    for (const auto& [ranks, nodes] : std::vector<std::pair<int, int>>{{3, 1}, {1, 3}, {2, 2}, {1, 1}}) {
        try {
            alltoall("two-proc", ranks, nodes);
            ADD_FAILURE() << "two-proc generated on " << ranks * nodes << " ranks";
        } catch (const UsageError& error) {
            EXPECT_EQ(std::string(error.what()),
                      "alltoall two-proc runs on exactly 2 ranks, not on " + std::to_string(ranks * nodes));
        }
    }
}

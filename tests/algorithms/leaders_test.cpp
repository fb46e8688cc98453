// NUIOA leader election (Goglin, Moreaud, section 3.2): on Westmere
// the NIC hangs off socket 0, so a root on socket 1 makes the default and
// the NIC-aware rules disagree, and the NIC-aware leaders receive the
// broadcast on the NIC's NUMA node.
#include <gtest/gtest.h>

#include <set>

#include "algorithms/leaders.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

algo::Layout westmere(int nodes) {
    algo::LayoutOptions options;
    options.nodes = nodes;
    return algo::make_layout(test::machine("westmere"), options);
}

int nic_numa() {
    const auto nics = test::machine("westmere")->nics();
    return nics.empty() ? -1 : nics.front()->numa_node;
}

// The ranks that receive the broadcast over the network.
std::set<int> network_receivers(const sched::Schedule& schedule) {
    std::set<int> receivers;
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).kind == sched::TaskKind::net) receivers.insert(schedule.task(id).peer);
    return receivers;
}

}  // namespace

TEST(Leaders, WestmereNicIsOnSocketZero) { EXPECT_EQ(nic_numa(), 0); }

TEST(Leaders, DefaultAndNicDisagreeWhenTheRootIsOnSocketOne) {
    const algo::Layout layout = westmere(4);
    const int root = 8;  // local rank 8: socket 1
    ASSERT_EQ(layout.ranks[root].numa, 1);
    const int by_rank = algo::leader_local_rank(layout, root, algo::LeaderRule::default_rank);
    const int by_nic = algo::leader_local_rank(layout, root, algo::LeaderRule::nic);
    EXPECT_EQ(by_rank, 8);
    EXPECT_NE(by_nic, by_rank);
    for (int node = 1; node < layout.nodes; ++node) {
        const int leader = algo::node_leader(layout, root, algo::LeaderRule::nic, node);
        EXPECT_EQ(layout.node_of(leader), node);
        EXPECT_EQ(layout.ranks[leader].numa, nic_numa()) << "node " << node;
    }
    EXPECT_EQ(algo::node_leader(layout, root, algo::LeaderRule::nic, 0), root);  // the root leads its own node
}

TEST(Leaders, AlreadyNearTheNicKeepsTheRootsLocalRank) {
    const algo::Layout layout = westmere(2);
    EXPECT_EQ(algo::leader_local_rank(layout, 3, algo::LeaderRule::nic), 3);
}

TEST(Leaders, NoNicFallsBackToTheDefault) {
    algo::LayoutOptions options;
    options.nodes = 2;
    const algo::Layout layout = algo::make_layout(test::machine("synthetic:Package:2 Core:4"), options);
    ASSERT_TRUE(layout.machine->nics().empty());
    EXPECT_EQ(algo::leader_local_rank(layout, 5, algo::LeaderRule::nic), 5);
}

TEST(Leaders, LeaderBroadcastReceivesNearTheNicOnlyWhenAsked) {
    for (const char* rule : {"default", "nic"}) {
        SCOPED_TRACE(rule);
        const sched::Schedule schedule =
            test::schedule("westmere", sched::Collective::bcast, "leader", 1 << 20, 12, 4, 8, {{"leader", rule}});
        const std::set<int> receivers = network_receivers(schedule);
        ASSERT_EQ(receivers.size(), 3u);
        for (int rank : receivers)
            EXPECT_EQ(schedule.ranks[rank].numa == nic_numa(), std::string(rule) == "nic") << "rank " << rank;
    }
}

TEST(Leaders, NicChainEntersEveryNodeNearTheNic) {
    const sched::Schedule schedule = test::schedule("westmere", sched::Collective::bcast, "pipeline", 4096, 12, 3, 8,
                                                   {{"leader", "nic"}});
    for (int rank : network_receivers(schedule)) EXPECT_EQ(schedule.ranks[rank].numa, nic_numa()) << "rank " << rank;
}

#include "algorithms/layout.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

namespace {
std::shared_ptr<const topo::Machine> westmere() {
    static auto machine = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    return machine;
}
}  // namespace

TEST(Layout, DefaultIsOneRankPerCoreCompact) {
    auto layout = algo::make_layout(westmere(), {});
    ASSERT_EQ(layout.size(), 12);
    for (int rank = 0; rank < 12; ++rank) {
        EXPECT_EQ(layout.ranks[rank].core, rank);
        EXPECT_EQ(layout.ranks[rank].pu, westmere()->core(rank).pus.front());
        EXPECT_EQ(layout.ranks[rank].package, rank / 6);
        EXPECT_EQ(layout.ranks[rank].numa, rank / 6);
    }
    // OS indexes are kept apart from logical ones: package 1's first core is P#6.
    EXPECT_EQ(layout.ranks[6].pu_os, 6);
}

TEST(Layout, FewerRanksAndHyperThreads) {
    algo::LayoutOptions options;
    options.ranks_per_node = 4;
    auto layout = algo::make_layout(westmere(), options);
    EXPECT_EQ(layout.size(), 4);
    EXPECT_EQ(layout.ranks[3].core, 3);
    options.ranks_per_node = 13;  // the 13th rank takes core 0's second PU
    layout = algo::make_layout(westmere(), options);
    EXPECT_EQ(layout.ranks[12].core, 0);
    EXPECT_NE(layout.ranks[12].pu, layout.ranks[0].pu);
}

TEST(Layout, ScatterAlternatesPackages) {
    algo::LayoutOptions options;
    options.placement = algo::Placement::scatter;
    options.ranks_per_node = 4;
    auto layout = algo::make_layout(westmere(), options);
    EXPECT_EQ(layout.ranks[0].package, 0);
    EXPECT_EQ(layout.ranks[1].package, 1);
    EXPECT_EQ(layout.ranks[2].package, 0);
    EXPECT_EQ(layout.ranks[3].package, 1);
    EXPECT_EQ(layout.ranks[2].core, 1);
}

TEST(Layout, ExplicitListAndNodes) {
    algo::LayoutOptions options;
    options.placement = algo::Placement::list;
    options.pu_list = {westmere()->core(6).pus.front(), westmere()->core(0).pus.front()};
    options.nodes = 3;
    auto layout = algo::make_layout(westmere(), options);
    ASSERT_EQ(layout.size(), 6);
    EXPECT_EQ(layout.ranks[0].core, 6);
    EXPECT_EQ(layout.ranks[1].core, 0);
    EXPECT_EQ(layout.ranks[5].node, 2);
    EXPECT_EQ(layout.ranks[5].local_rank, 1);
    EXPECT_EQ(layout.node_root(2), 4);
}

TEST(Layout, RejectsImpossibleRequests) {
    algo::LayoutOptions options;
    options.ranks_per_node = 25;  // westmere has 24 PUs
    EXPECT_THROW(algo::make_layout(westmere(), options), UsageError);
    options.ranks_per_node = -1;
    EXPECT_THROW(algo::make_layout(westmere(), options), UsageError);
    options = {};
    options.nodes = 0;
    EXPECT_THROW(algo::make_layout(westmere(), options), UsageError);
    options = {};
    options.placement = algo::Placement::list;
    options.pu_list = {0, 0};
    EXPECT_THROW(algo::make_layout(westmere(), options), UsageError);
    options.pu_list = {24};
    EXPECT_THROW(algo::make_layout(westmere(), options), UsageError);
    EXPECT_THROW(algo::parse_placement("diagonal"), UsageError);
}

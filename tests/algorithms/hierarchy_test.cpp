#include "algorithms/hierarchy.hpp"

#include <gtest/gtest.h>

using namespace numacoll;

namespace {
algo::NodeHierarchy hierarchy_of(const std::string& spec, int ranks = 0) {
    algo::LayoutOptions options;
    options.ranks_per_node = ranks;
    auto machine = std::make_shared<const topo::Machine>(topo::load_machine(spec));
    return algo::build_node_hierarchy(algo::make_layout(machine, options));
}
}  // namespace

TEST(Hierarchy, WestmereIsTwoSocketsOfSixCores) {
    auto h = hierarchy_of("westmere");
    const auto& root = h.groups[h.root];
    EXPECT_EQ(root.ranks.size(), 12u);
    ASSERT_EQ(root.children.size(), 2u);
    for (int s = 0; s < 2; ++s) {
        const auto& socket = h.groups[root.children[s]];
        EXPECT_EQ(socket.level, "package+L3");
        EXPECT_EQ(socket.leader(), 6 * s);
        EXPECT_EQ(socket.children.size(), 6u);
        for (int child : socket.children) EXPECT_TRUE(h.groups[child].children.empty());
    }
}

TEST(Hierarchy, MagnyCoursIsPackagesOfDiesOfCores) {
    auto h = hierarchy_of("magnycours");
    const auto& root = h.groups[h.root];
    ASSERT_EQ(root.children.size(), 4u);
    for (int p = 0; p < 4; ++p) {
        const auto& package = h.groups[root.children[p]];
        EXPECT_EQ(package.ranks.size(), 8u);
        ASSERT_EQ(package.children.size(), 2u);
        for (int d : package.children) {
            EXPECT_EQ(h.groups[d].ranks.size(), 4u);
            EXPECT_EQ(h.groups[d].children.size(), 4u);
        }
    }
}

TEST(Hierarchy, RedundantLevelsVanish) {
    // Three ranks on one package of westmere: the root is that package.
    auto h = hierarchy_of("westmere", 3);
    EXPECT_EQ(h.groups[h.root].children.size(), 3u);
    // One rank: a single leaf.
    auto single = hierarchy_of("westmere", 1);
    EXPECT_EQ(single.groups.size(), 1u);
    EXPECT_TRUE(single.groups[single.root].children.empty());
}

TEST(Hierarchy, HyperThreadsShareACoreGroup) {
    auto h = hierarchy_of("synthetic:Package:1 Core:2 PU:2", 4);
    const auto& root = h.groups[h.root];
    ASSERT_EQ(root.children.size(), 2u);
    EXPECT_EQ(h.groups[root.children[0]].ranks, (std::vector<int>{0, 2}));
}

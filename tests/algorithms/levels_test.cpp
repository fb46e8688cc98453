// The hierarchy of levels and its roots groups (hierarchical communicators,
// section 3.2.3) on the bundled machines.
#include <gtest/gtest.h>

#include "algorithms/levels.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

algo::Layout layout_of(const std::string& topology, int nodes, int ranks = 0) {
    algo::LayoutOptions options;
    options.nodes = nodes;
    options.ranks_per_node = ranks;
    return algo::make_layout(test::machine(topology), options);
}

}  // namespace

TEST(Levels, WestmereTwoNodesHasNetworkMachineAndSockets) {
    const algo::Layout layout = layout_of("westmere", 2);
    const algo::LayoutLevels levels(layout, 7);
    EXPECT_EQ(levels.depth_count(), 4);  // network, machine, package+L3, rank
    const algo::LevelGroup& top = levels.group(levels.top());
    EXPECT_EQ(top.level, "network");
    EXPECT_EQ(top.ranks.size(), 24u);
    // Node leaders: the root on its node, the root's local rank elsewhere.
    EXPECT_EQ(levels.roots_group(levels.top()), (std::vector<int>{7, 19}));
    const int node0 = top.children[0];
    // The root's socket is led by the root, the other by its first rank.
    EXPECT_EQ(levels.roots_group(node0), (std::vector<int>{7, 0}));
    EXPECT_EQ(levels.roots_group(levels.group(node0).children[0]), (std::vector<int>{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(levels.roots_group(levels.group(node0).children[1]), (std::vector<int>{7, 6, 8, 9, 10, 11}));
}

TEST(Levels, MagnyCoursSplitsPackagesIntoDies) {
    // Built from a temporary layout on purpose: the levels hold what they need.
    const algo::LayoutLevels levels(layout_of("magnycours", 1), 0);
    const algo::LevelGroup& top = levels.group(levels.top());
    EXPECT_EQ(top.children.size(), 4u);  // packages
    EXPECT_EQ(levels.roots_group(levels.top()), (std::vector<int>{0, 8, 16, 24}));
    const algo::LevelGroup& package = levels.group(top.children[1]);
    EXPECT_EQ(package.children.size(), 2u);  // two dies sharing nothing but the package
    EXPECT_EQ(levels.roots_group(top.children[1]), (std::vector<int>{8, 12}));
}

TEST(Levels, ChildrenPartitionTheirGroupAndLeadersBelongToIt) {
    for (const char* topology : {"westmere", "magnycours", "synthetic:Package:3 Core:5", "synthetic:Core:1"})
        for (int nodes : {1, 3}) {
            SCOPED_TRACE(topology);
            const algo::Layout layout = layout_of(topology, nodes);
            for (int root : {0, layout.size() - 1}) {
                const algo::LayoutLevels levels(layout, root);
                for (int index = 0; index < static_cast<int>(levels.groups().size()); ++index) {
                    const algo::LevelGroup& group = levels.group(index);
                    std::vector<int> covered;
                    for (int child : group.children) {
                        const auto& ranks = levels.group(child).ranks;
                        covered.insert(covered.end(), ranks.begin(), ranks.end());
                    }
                    std::sort(covered.begin(), covered.end());
                    if (!group.children.empty()) {
                        EXPECT_EQ(covered, group.ranks);
                    }
                    EXPECT_TRUE(std::binary_search(group.ranks.begin(), group.ranks.end(), levels.leader(index)));
                    EXPECT_EQ(levels.roots_group(index).size(), std::max<std::size_t>(1, group.children.size()));
                }
            }
        }
}

TEST(Levels, RankListsAreCompressed) {
    EXPECT_EQ(algo::rank_list_text({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
    EXPECT_EQ(algo::rank_list_text({7, 0}), "7,0");
}

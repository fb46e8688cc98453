// The shapes of the flat algorithms, as Open MPI's coll/tuned builds them.
#include <gtest/gtest.h>

#include "algorithms/patterns/flat_trees.hpp"

using namespace numacoll;

namespace {

std::vector<int> iota_ranks(int count) {
    std::vector<int> ranks(count);
    for (int k = 0; k < count; ++k) ranks[k] = k;
    return ranks;
}

}  // namespace

TEST(FlatTrees, InOrderBinomialChildrenAreLargestSubtreeFirst) {
    const algo::FlatTree tree = algo::make_flat_tree(algo::FlatShape::in_order_binomial, iota_ranks(7), 1);
    EXPECT_EQ(tree.children[0], (std::vector<int>{4, 2, 1}));
    EXPECT_EQ(tree.children[4], (std::vector<int>{6, 5}));
    EXPECT_EQ(tree.children[2], (std::vector<int>{3}));
    EXPECT_TRUE(tree.children[1].empty());
}

// Open MPI's trees (ompi/mca/coll/base/coll_base_topo.c), read off its own
// comments and loops: build_tree(2) for 7 ranks is 0 -> 1, 2; 1 -> 3, 5;
// 2 -> 4, 6; build_bmtree gives i the children i + 2^k above its highest bit.
TEST(FlatTrees, BinaryAndBinomialBroadcastTreesAreOpenMpis) {
    const algo::FlatTree binary = algo::make_flat_tree(algo::FlatShape::binary, iota_ranks(12), 2);
    EXPECT_EQ(binary.children[0], (std::vector<int>{1, 2}));
    EXPECT_EQ(binary.children[1], (std::vector<int>{3, 5}));
    EXPECT_EQ(binary.children[2], (std::vector<int>{4, 6}));
    EXPECT_EQ(binary.children[3], (std::vector<int>{7, 11}));
    EXPECT_EQ(binary.children[4], (std::vector<int>{8}));
    EXPECT_EQ(binary.children[6], (std::vector<int>{10}));
    EXPECT_TRUE(binary.children[7].empty());
    const algo::FlatTree binomial = algo::make_flat_tree(algo::FlatShape::binomial, iota_ranks(10), 1);
    EXPECT_EQ(binomial.children[0], (std::vector<int>{1, 2, 4, 8}));
    EXPECT_EQ(binomial.children[1], (std::vector<int>{3, 5, 9}));
    EXPECT_EQ(binomial.children[2], (std::vector<int>{6}));
    EXPECT_EQ(binomial.children[3], (std::vector<int>{7}));
    EXPECT_TRUE(binomial.children[4].empty());
    EXPECT_EQ(binomial.parent[9], 1);
}

TEST(FlatTrees, ChainsSplitTheRanksEvenly) {
    const algo::FlatTree tree = algo::make_flat_tree(algo::FlatShape::chain, iota_ranks(8), 3);
    EXPECT_EQ(tree.children[0], (std::vector<int>{1, 4, 6}));  // chains 1-3, 4-5, 6-7
    EXPECT_EQ(tree.parent[3], 2);
    EXPECT_EQ(tree.parent[7], 6);
    const algo::FlatTree pipeline = algo::make_flat_tree(algo::FlatShape::chain, iota_ranks(5), 1);
    for (int pos = 1; pos < 5; ++pos) EXPECT_EQ(pipeline.parent[pos], pos - 1);
}

TEST(FlatTrees, EveryShapeIsATreeWithChildrenAfterParents) {
    for (auto shape : {algo::FlatShape::linear, algo::FlatShape::chain, algo::FlatShape::binary,
                       algo::FlatShape::binomial, algo::FlatShape::in_order_binomial})
        for (int count = 1; count <= 40; ++count) {
            const algo::FlatTree tree = algo::make_flat_tree(shape, iota_ranks(count), 4);
            int edges = 0;
            for (int pos = 0; pos < count; ++pos)
                for (int child : tree.children[pos]) {
                    EXPECT_GT(child, pos);
                    EXPECT_EQ(tree.parent[child], pos);
                    ++edges;
                }
            EXPECT_EQ(edges, count - 1);
            EXPECT_EQ(tree.parent[0], -1);
        }
}

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

TEST(FlatTrees, BinomialChildrenAreLargestSubtreeFirst) {
    const algo::FlatTree tree = algo::make_flat_tree(algo::FlatShape::binomial, iota_ranks(7), 1);
    EXPECT_EQ(tree.children[0], (std::vector<int>{4, 2, 1}));
    EXPECT_EQ(tree.children[4], (std::vector<int>{6, 5}));
    EXPECT_EQ(tree.children[2], (std::vector<int>{3}));
    EXPECT_TRUE(tree.children[1].empty());
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
                       algo::FlatShape::binomial})
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

// The HPDC'13 model of allreduce tree, equations (1), (2), (4) and (5), by
// hand on round parameters, and read through the registry with the node
// shape the generators' socket groups give.
#include "models/allreduce/tree.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "models/registry.hpp"
#include "models/shape.hpp"
#include "model_fixtures.hpp"

using namespace numacoll;
using test::round_params;

namespace {

sched::CollectiveSpec tree_spec(std::uint64_t bytes, const std::string& bcast, const std::string& arity = "2") {
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = bytes;
    spec.options = {{"arity", arity}, {"bcast", bcast}, {"strip", "auto"}, {"internode", "recursive-doubling"}};
    return spec;
}

}  // namespace

TEST(TreeModel, TwoSocketsOfFourByHand) {
    // q = 4, s = 2, n = 2, m = 100: a_a = 10, b_a = 1, B_a = 0.5; a_b = 100, b_b = 2, B_b = 1.
    // T_intra = max(10 + 100, 10 + 0.5*2*100) + max(10 + 100, 10 + 0.5*1*100) = 110 + 110 = 220
    // T_inter = (100 + 200) * 1 = 300
    // T_bcast one stage = 100 + 1*4*100 = 500; two stages = 10 + 0.5*3*100 + 100 + 200 = 460
    const models::NodeShape shape{2, 4, 1};
    EXPECT_DOUBLE_EQ(models::tree_allreduce_ns(round_params(), shape, 2, false, 100), 1020);
    EXPECT_DOUBLE_EQ(models::tree_allreduce_ns(round_params(), shape, 2, true, 100), 980);
    const models::ModelInfo* model = models::find_model(sched::Collective::allreduce, "tree");
    ASSERT_NE(model, nullptr);
    // The registered model adds the steps of section 3.4: 2 reduction steps inside (74 + 2*110 + 1 each),
    // 1 across (228 + 220 + 1), the broadcast's flags and local writes (228 + 110, and 74 + 110 for a second stage).
    EXPECT_DOUBLE_EQ(models::tree_allreduce_steps_ns(round_params(), shape, 2, true, 100), 1039 + 522);
    EXPECT_DOUBLE_EQ(*model->predict(tree_spec(100, "2stage"), shape, round_params()), 980 + 1039 + 522);
    EXPECT_DOUBLE_EQ(*model->predict(tree_spec(100, "nary"), shape, round_params()), 1020 + 1039 + 338);
    // On several nodes the internode allreduce among node roots adds to the node's part.
    EXPECT_GT(*model->predict(tree_spec(100, "1stage"), {2, 4, 2}, round_params()), 1020 + 1039 + 338);
    // Options are read like the generators read them.
    EXPECT_THROW(model->predict(tree_spec(100, "1stage", "1"), shape, round_params()), UsageError);
}

TEST(TreeModel, TheShapeIsTheGeneratorsSocketGroups) {
    const auto westmere = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    const auto magnycours = std::make_shared<const topo::Machine>(topo::load_machine("magnycours"));
    const models::NodeShape two_sockets = models::node_shape(algo::make_layout(westmere, {}));
    EXPECT_EQ(two_sockets.sockets, 2);
    EXPECT_EQ(two_sockets.threads_per_socket, 6);
    const models::NodeShape four_packages = models::node_shape(algo::make_layout(magnycours, {}));
    EXPECT_EQ(four_packages.sockets, 4);
    EXPECT_EQ(four_packages.threads_per_socket, 8);
    algo::LayoutOptions three;
    three.ranks_per_node = 3;
    three.nodes = 2;
    const models::NodeShape small = models::node_shape(algo::make_layout(westmere, three));
    EXPECT_EQ(small.sockets, 1);  // three ranks on socket 0: one group
    EXPECT_EQ(small.threads_per_socket, 3);
    EXPECT_EQ(small.nodes, 2);
}

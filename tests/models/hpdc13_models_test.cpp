// HPDC'13's tiled (equations 8-11), dissemination (6, 7), reduce (1-3),
// bcast (4) and barrier (1-4 at m = 0) models by hand on round parameters,
// through the registry.
#include <gtest/gtest.h>

#include <map>
#include <optional>

#include "models/allreduce/dissemination.hpp"
#include "models/allreduce/tiled.hpp"
#include "models/registry.hpp"
#include "model_fixtures.hpp"

using namespace numacoll;
using test::round_params;

TEST(TiledModel, TwoSocketsOfFourByHand) {
    // q = 4, s = 2, m = 100: intra = 10*4 + 0.5*4*100 = 240; inter = (100 + 1*100) * 1 = 200;
    // broadcast one stage = 100 + 1*4*100 = 500, two stages = 10 + 0.5*3*100 + 100 + 2*100 = 460.
    // The steps (section 3.4), flags 10 + 64*1 = 74 inside and 100 + 64*2 = 228 across, local
    // accesses 10 + m, arithmetic m / 100, tiles of 25 B: intra 74 + 2*35 + 75/100 = 144.75;
    // inter 228 + 2*35 + 25/100 = 298.25; broadcast one stage 228 + 110 = 338, two 338 + 74 + 110 = 522.
    const models::NodeShape shape{2, 4, 1};
    EXPECT_DOUBLE_EQ(models::tiled_allreduce_ns(round_params(), shape, false, 100), 940 + 144.75 + 298.25 + 338);
    EXPECT_DOUBLE_EQ(models::tiled_allreduce_ns(round_params(), shape, true, 100), 900 + 144.75 + 298.25 + 522);
    // One socket: no tree of tiles, and the broadcast stays inside: 240 + 10 + 0.5*3*100 = 400;
    // steps 144.75 + (74 + 110).
    EXPECT_DOUBLE_EQ(models::tiled_allreduce_ns(round_params(), {1, 4, 1}, false, 100), 400 + 144.75 + 184);
    const models::ModelInfo* model = models::find_model(sched::Collective::allreduce, "tiled");
    ASSERT_NE(model, nullptr);
    sched::CollectiveSpec spec;
    spec.algorithm = "tiled";
    spec.bytes = 100;
    spec.options = {{"bcast", "2stage"}, {"strip", "auto"}, {"internode", "recursive-doubling"}};
    EXPECT_DOUBLE_EQ(*model->predict(spec, shape, round_params()), 1865);
    EXPECT_GT(*model->predict(spec, {2, 4, 2}, round_params()), 1865);
}

TEST(DisseminationModel, PowersOfTwoAndTheExcessThreadsByHand) {
    const costs::Params params = round_params();
    // Each round also pays its flag, two local accesses and a fold (section 3.4): inside
    // 74 + 2*110 + 100/100 = 295, across 228 + 220 + 1 = 449.
    // q = 4, s = 2 (p = 8): (10 + 0.5*4*100) * 2 + (100 + 1*4*100) * 1 = 920; rounds 2*295 + 449.
    EXPECT_DOUBLE_EQ(models::dissemination_allreduce_ns(params, {2, 4, 1}, 100), 920 + 2 * 295 + 449);
    // q = 6 (q' = 4, r = 2), s = 2: 420 + 500 + 2 (10 + 0.5*2*100) = 1140; rounds (2 + 2)*295 + 449.
    EXPECT_DOUBLE_EQ(models::dissemination_allreduce_ns(params, {2, 6, 1}, 100), 1140 + 4 * 295 + 449);
    // q = 4, s = 3: p = 12 is no power of two; r = 0: 420 + 500 * 2 + 2 * 10 = 1440; rounds 4*295 + 2*449.
    EXPECT_DOUBLE_EQ(models::dissemination_allreduce_ns(params, {3, 4, 1}, 100), 1440 + 4 * 295 + 2 * 449);
    const models::ModelInfo* model = models::find_model(sched::Collective::allreduce, "dissemination");
    ASSERT_NE(model, nullptr);
    sched::CollectiveSpec spec;
    spec.algorithm = "dissemination";
    spec.bytes = 100;
    EXPECT_DOUBLE_EQ(*model->predict(spec, {2, 4, 1}, params), 1959);
}

namespace {

std::optional<double> predict(sched::Collective collective, std::uint64_t bytes,
                              std::map<std::string, std::string> options, const models::NodeShape& shape) {
    const models::ModelInfo* model = models::find_model(collective, "tree");
    EXPECT_NE(model, nullptr);
    sched::CollectiveSpec spec;
    spec.collective = collective;
    spec.algorithm = "tree";
    spec.bytes = bytes;
    spec.options = std::move(options);
    return model->predict(spec, shape, round_params());
}

}  // namespace

TEST(TreePhaseModels, ReduceBroadcastAndBarrierByHand) {
    const models::NodeShape shape{2, 4, 1};
    // Reduction, q = 4, s = 2, n = 2, m = 100: intra 110 + 110, inter (100 + 2*100) * 1 = 300;
    // steps (section 3.4): 2 inside of 74 + 2*110 + 1 = 295, 1 across of 228 + 220 + 1 = 449.
    EXPECT_DOUBLE_EQ(*predict(sched::Collective::reduce, 100, {{"arity", "2"}}, shape), 520 + 2 * 295 + 449);
    // Broadcast: one stage 100 + 1*4*100 = 500; two stages 10 + 0.5*3*100 + 100 + 2*100 = 460; n-ary: none;
    // stages' flags and local writes: 228 + 110, and 74 + 110 more for the second.
    EXPECT_DOUBLE_EQ(*predict(sched::Collective::bcast, 100, {{"arity", "2"}, {"bcast", "1stage"}}, shape), 500 + 338);
    EXPECT_DOUBLE_EQ(*predict(sched::Collective::bcast, 100, {{"arity", "2"}, {"bcast", "2stage"}}, shape), 460 + 522);
    EXPECT_FALSE(predict(sched::Collective::bcast, 100, {{"arity", "2"}, {"bcast", "nary"}}, shape).has_value());
    // Barrier (m = 0): 2 steps of 10 inside, 100 across, then 100 (one stage) or 10 + 100 (two stages);
    // and their flags alone (no bytes, no local accesses): 2*74 + 228, then 228 or 228 + 74.
    EXPECT_DOUBLE_EQ(*predict(sched::Collective::barrier, 0, {{"arity", "2"}, {"bcast", "1stage"}}, shape), 220 + 376 + 228);
    EXPECT_DOUBLE_EQ(*predict(sched::Collective::barrier, 0, {{"arity", "2"}, {"bcast", "2stage"}}, shape), 230 + 376 + 302);
    EXPECT_FALSE(predict(sched::Collective::barrier, 0, {{"arity", "2"}, {"bcast", "1stage"}}, {2, 4, 2}).has_value());
}

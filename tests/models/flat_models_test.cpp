// The Hockney/LogGP closed forms of the flat, leader and point-to-point
// models by hand on round parameters (tests/models/model_fixtures.hpp):
// inside a socket a = 10, b = 1, B = 0.5, a local copy 10 + m, a flag
// 10 + 64 = 74, the reduction 100 bytes/ns.
#include <gtest/gtest.h>

#include "models/flat_models.hpp"
#include "models/internode_terms.hpp"
#include "models/registry.hpp"
#include "model_fixtures.hpp"

using namespace numacoll;
using test::round_params;

TEST(FlatModels, HandOverTermsByHand) {
    const models::P2pTerms t = models::p2p_terms(round_params(), costs::Level::same_socket, true);
    EXPECT_DOUBLE_EQ(t.signal_ns(), 74);                 // 10 + 64 * 1
    EXPECT_DOUBLE_EQ(t.signal_ns(4), 10 + 64 * 2);       // B d = 0.5 * 4 = 2 > b
    EXPECT_DOUBLE_EQ(t.copy_ns(100), 110 + 110);         // read + write to own cache
    EXPECT_DOUBLE_EQ(t.fold_ns(100), 110 + 220 + 1);     // read, own read and write, 100 bytes folded
}

TEST(FlatModels, ClassicFormsByHand) {
    const models::P2pTerms t = models::p2p_terms(round_params(), costs::Level::same_socket, true);
    const double F = 74, C = 220, R = 331;
    // Linear bcast, p = 3: one step, two readers at once (B d = 1 = b: no contention).
    EXPECT_DOUBLE_EQ(models::flat_bcast_ns("linear", 3, 1, t, 100, 0), F + C);
    // Pipeline, p = 4, 4 segments of 25 bytes: 3 F + (3 + 4 - 1) C(25), every receiver taken as
    // active (d = 3, B d = 1.5): F = 10 + 64 * 1.5 = 106, C(25) = 10 + 25 * 1.5 + 35 = 82.5.
    EXPECT_DOUBLE_EQ(models::flat_bcast_ns("pipeline", 4, 1, t, 100, 25), 3 * 106 + 6 * 82.5);
    // Binomial bcast, p = 8, one segment: depth 3, levels of 3, 3, 1 readers.
    const double level3 = (10 + 64 * 1.5) + (10 + 100 * 1.5 + 110);
    EXPECT_DOUBLE_EQ(models::flat_bcast_ns("binomial", 8, 1, t, 100, 0), 2 * level3 + F + C);
    // Linear reduce, p = 3: both flags at once into the root's one stream (10 + 2 * 64),
    // then two folds in turn.
    EXPECT_DOUBLE_EQ(models::flat_reduce_ns("linear", 3, 1, t, 100, 0), 138 + 2 * R);
    // Binomial reduce, p = 4: k F + k (k + 1) / 2 R with k = 2 (one parent per level).
    EXPECT_DOUBLE_EQ(models::flat_reduce_ns("binomial", 4, 1, t, 100, 0), F + R + F + R + R);
}

TEST(FlatModels, EveryAlgorithmHasAPredictionOnEveryShape) {
    for (const auto& model : models::model_registry())
        for (const models::NodeShape shape : {models::NodeShape{1, 4, 1, 4}, models::NodeShape{2, 4, 1, 8},
                                              models::NodeShape{2, 4, 3, 8}}) {
            sched::CollectiveSpec spec;
            spec.collective = model.collective;
            spec.algorithm = model.name;
            spec.bytes = model.collective == sched::Collective::barrier ? 0 : 4096;
            spec.options = {{"segment", "1KiB"}, {"fanout", "2"}, {"arity", "2"}, {"bcast", "1stage"},
                            {"internode", "ring"}, {"intra", "binomial"}, {"stages", "2stage"}, {"peer", "next"},
                            {"radix", "2"}, {"requests", "0"}};
            const std::optional<double> time = model.predict(spec, shape, round_params());
            if (time) {
                EXPECT_GT(*time, 0) << model.name;
            }
        }
}

TEST(FlatModels, InternodePatternsByHand) {
    // Without message parameters: a message of m is 2 a_nic + a_network + m max(b, B) = 30 + m.
    const costs::Params params = round_params();
    const models::P2pTerms net = models::p2p_terms(params, costs::Level::network, false);
    EXPECT_DOUBLE_EQ(net.copy_ns(100), 130);
    // A fold of what landed: the message, the DRAM read 10 + 100, own read and write 220, 1 ns folding.
    EXPECT_DOUBLE_EQ(net.fold_ns(100), 130 + 110 + 221);
    EXPECT_DOUBLE_EQ(models::internode_allreduce_ns("recursive-doubling", 4, params, 100), 2 * 461);
    EXPECT_DOUBLE_EQ(models::internode_allreduce_ns("ring", 2, params, 100),
                     net.fold_ns(50) + net.copy_ns(50));
    EXPECT_DOUBLE_EQ(models::internode_allreduce_ns("ring", 1, params, 100), 0);
}

// Which level joins two cores: the same answers on the paper's machines as
// the platform model's routes gave before the levels had a home of their own.
#include "costs/core_levels.hpp"

#include <gtest/gtest.h>

using namespace numacoll;

namespace {

costs::CoreLevels levels_of(const std::string& spec) { return costs::CoreLevels(topo::load_machine(spec)); }

}  // namespace

TEST(CoreLevels, WestmereHasTwoSocketsOneHopApart) {
    const auto levels = levels_of("westmere");
    ASSERT_EQ(levels.domain_count(), 2);
    EXPECT_EQ(levels.between(3, 3).level, costs::Level::local_cache);
    EXPECT_EQ(levels.between(0, 5).level, costs::Level::same_socket);  // one L3 per socket, private L2s
    const costs::LevelJoin remote = levels.between(6, 0);
    EXPECT_EQ(remote.level, costs::Level::other_socket);
    EXPECT_EQ(remote.hops, 1);
    EXPECT_EQ(levels.llc_bytes_of_core(0), 12u << 20);
    EXPECT_EQ(levels.numa_of_domain(1), 1);
}

TEST(CoreLevels, MagnyCoursDiagonalsAreTwoHops) {
    const auto levels = levels_of("magnycours");
    ASSERT_EQ(levels.domain_count(), 8);  // one L3 per die
    EXPECT_EQ(levels.hops(0, 1), 1);
    EXPECT_EQ(levels.hops(0, 6), 2);
    EXPECT_EQ(levels.hops(6, 0), 2);
    EXPECT_EQ(levels.between(24, 0).hops, 2);
    EXPECT_EQ(levels.between(4, 0).hops, 1);
    // A two-hop path goes through a neighbour of both ends.
    const int via = levels.next_hop(0, 6);
    EXPECT_EQ(levels.hops(0, via), 1);
    EXPECT_EQ(levels.hops(via, 6), 1);
}

TEST(CoreLevels, SharedCachesBelowTheLastLevelAreTheirOwnLevel) {
    const auto levels = levels_of("synthetic:Package:1 L3Cache:1 L2Cache:2 Core:2");
    EXPECT_EQ(levels.between(0, 1).level, costs::Level::same_cache);
    EXPECT_EQ(levels.between(0, 2).level, costs::Level::same_socket);
    EXPECT_GE(levels.shared_cache_of_core(0), 0);
    EXPECT_EQ(levels.shared_cache_of_core(0), levels.shared_cache_of_core(1));
}

TEST(CoreLevels, AMachineWithoutCachesOrDistances) {
    const auto levels = levels_of("synthetic:Package:3 Core:2");
    EXPECT_EQ(levels.domain_count(), 3);
    EXPECT_EQ(levels.llc_bytes_of_core(0), 0u);
    EXPECT_EQ(levels.between(0, 1).level, costs::Level::same_socket);
    EXPECT_EQ(levels.between(0, 2).hops, 1);  // without distances every other socket is one hop away
}

TEST(CoreLevels, ThePrivateCacheIsTheLargestBelowTheLastLevelThatACoreHasAlone) {
    EXPECT_EQ(levels_of("westmere").private_cache_bytes_of_core(0), 256u * 1024);   // L2 per core, L3 shared
    EXPECT_EQ(levels_of("magnycours").private_cache_bytes_of_core(5), 512u * 1024);  // L2 per core, L3 per die
    EXPECT_EQ(levels_of("opteron8218").private_cache_bytes_of_core(0), 0u);         // its L2 is the last level
}

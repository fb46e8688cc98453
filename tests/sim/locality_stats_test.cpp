// numacoll dag --stats: bytes per locality class and the critical path,
// against the paper's step decomposition and the algorithms' purpose.
#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "sim/locality_stats.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;

namespace {

struct Analysed {
    std::shared_ptr<const topo::Machine> machine;
    sched::Schedule schedule;
    sim::ScheduleStats stats;
};

Analysed analyse(const std::string& topology, const std::string& algorithm, std::uint64_t bytes,
                 std::map<std::string, std::string> options = {}) {
    Analysed result;
    result.machine = test::load(topology);
    sched::CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.options = std::move(options);
    result.schedule = algo::generate_schedule(spec, algo::make_layout(result.machine, {}));
    const sim::PlatformModel platform(result.machine, costs::params_for(*result.machine, ""), 1);
    result.stats = sim::schedule_stats(result.schedule, platform);
    return result;
}

std::uint64_t inter_socket_bytes(const sim::ScheduleStats& stats) {
    std::uint64_t bytes = 0;
    for (const auto& [locality, count] : stats.bytes_read)
        if (locality.name.rfind("other LLC domain", 0) == 0) bytes += count;
    return bytes;
}

}  // namespace

// HPDC'13 section 3.4: on Westmere a one-line tree allreduce is three
// intra-socket reduction steps, one inter-socket step, then a 1-stage
// broadcast (a copy).
TEST(LocalityStats, WestmereTreeFollowsThePaperSteps) {
    const Analysed tree = analyse("westmere", "tree", 64);
    std::vector<std::string> steps;
    for (const auto& step : tree.stats.critical_steps)
        steps.push_back(std::string(sched::to_string(step.kind)) + " " + step.locality.name);
    const std::vector<std::string> expected{"reduce same LLC domain", "reduce same LLC domain", "reduce same LLC domain",
                                            "reduce other LLC domain (1 hop)"};
    ASSERT_EQ(steps.size(), 5u);
    EXPECT_EQ(std::vector<std::string>(steps.begin(), steps.begin() + 4), expected);
    EXPECT_EQ(steps.back().rfind("copy", 0), 0u);
    EXPECT_EQ(tree.stats.tasks, 44);
    EXPECT_EQ(tree.stats.tasks_by_kind.at(sched::TaskKind::reduce), 11);  // 12 inputs into one: 11 folds
    EXPECT_EQ(tree.stats.tasks_by_kind.at(sched::TaskKind::copy), 11);    // the 1-stage broadcast
    EXPECT_EQ(tree.stats.tasks_per_thread.size(), 12u);
}

// Every byte read is counted once: the classes add up to the reads.
TEST(LocalityStats, ClassesAddUpToEveryRead) {
    const Analysed tiled = analyse("magnycours", "tiled", 4096);
    std::uint64_t reads = 0, classed = 0;
    for (int id = 0; id < tiled.schedule.task_count(); ++id)
        for (const auto& read : tiled.schedule.task(id).reads) reads += read.bytes;
    for (const auto& [locality, bytes] : tiled.stats.bytes_read) classed += bytes;
    EXPECT_EQ(classed, reads);
    EXPECT_TRUE(tiled.stats.bytes_read.count({4, "other LLC domain (2 hops)"}));  // magnycours' diagonal packages
}

// Section 3.2: the hierarchical tiled reduce avoids the inter-socket
// contention of the naive one.
TEST(LocalityStats, TiledMovesFewerInterSocketBytesThanTiledNaiveOnMagnycours) {
    for (const char* bcast : {"1stage", "2stage"}) {
        SCOPED_TRACE(bcast);
        const auto tiled = analyse("magnycours", "tiled", 64 * 1024, {{"bcast", bcast}});
        const auto naive = analyse("magnycours", "tiled-naive", 64 * 1024, {{"bcast", bcast}});
        EXPECT_LT(inter_socket_bytes(tiled.stats), inter_socket_bytes(naive.stats));
    }
}

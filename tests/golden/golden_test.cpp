// Golden outputs: for a dozen (collective, algorithm, machine, size, nodes)
// cases, the schedule's text and its simulated time are compared with files
// committed in tests/golden/cases/. A change that moves them changes what
// numacoll generates or predicts, and has to say so.
//
// The files were written before the schedule IR moved to its own library,
// in version 1 of the text format; they are read back (version 1 still
// loads, its waiting points becoming wait tasks) and compared with the
// generated schedule: equal as schedules, and their texts byte-identical in
// the current format. The `numacoll` provenance line (version and git
// revision) is left out: it changes with every commit. Simulated times are
// compared as printed, to the last of their six decimals.
// NUMACOLL_REGENERATE_GOLDEN=1 rewrites the files instead of comparing.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "algorithms/registry.hpp"
#include "schedule/schedule_io.hpp"
#include "sim/comm_attachment.hpp"
#include "sim/engine.hpp"
#include "sim/platform_lookups.hpp"
#include "sim/recycling_heap.hpp"
#include "../support/files.hpp"

using namespace numacoll;

namespace {

struct GoldenCase {
    std::string name;
    std::string topology;
    sched::Collective collective;
    std::string algorithm;
    std::uint64_t bytes;
    int nodes;
    int ranks_per_node;  // 0: one per core
    int root;
    std::map<std::string, std::string> options;
};

std::vector<GoldenCase> cases() {
    using C = sched::Collective;
    return {
        {"allreduce-tree-westmere-64B", "westmere", C::allreduce, "tree", 64, 1, 0, 0, {}},
        {"allreduce-tree-magnycours-1MiB-2stage", "magnycours", C::allreduce, "tree", 1 << 20, 1, 0, 0, {{"bcast", "2stage"}}},
        {"allreduce-tiled-magnycours-64KiB-2nodes-ring", "magnycours", C::allreduce, "tiled", 64 << 10, 2, 0, 0,
         {{"internode", "ring"}}},
        {"allreduce-dissemination-westmere-4KiB-3nodes", "westmere", C::allreduce, "dissemination", 4 << 10, 3, 0, 0, {}},
        {"allreduce-tiled-cyclic-westmere-16KiB", "westmere", C::allreduce, "tiled-cyclic", 16 << 10, 1, 0, 0, {}},
        {"reduce-hier-binomial-westmere-4KiB-2nodes", "westmere", C::reduce, "hier-binomial", 4 << 10, 2, 0, 5, {}},
        {"reduce-tree-magnycours-64KiB-3ary", "magnycours", C::reduce, "tree", 64 << 10, 1, 0, 9, {{"arity", "3"}}},
        {"bcast-leader-nic-magnycours-1MiB-2nodes", "magnycours", C::bcast, "leader", 1 << 20, 2, 0, 0,
         {{"leader", "nic"}}},
        {"bcast-tree-2stage-magnycours-64B", "magnycours", C::bcast, "tree", 64, 1, 0, 3, {{"bcast", "2stage"}}},
        {"bcast-chain-westmere-256KiB-2nodes", "westmere", C::bcast, "chain", 256 << 10, 2, 0, 0, {{"leader", "nic"}}},
        {"scatter-tree-westmere-1KiB-2nodes", "westmere", C::scatter, "tree", 1 << 10, 2, 0, 1, {}},
        {"gather-binomial-westmere-256B-3nodes", "westmere", C::gather, "binomial", 256, 3, 4, 2, {}},
        {"allgather-recursive-doubling-westmere-64B-5ranks", "westmere", C::allgather, "recursive-doubling", 64, 1, 5, 0, {}},
        {"barrier-dissemination-westmere-2nodes", "westmere", C::barrier, "dissemination", 0, 2, 0, 0, {}},
        {"barrier-tree-nary-magnycours", "magnycours", C::barrier, "tree", 0, 1, 0, 0, {{"bcast", "nary"}}},
    };
}

sched::Schedule generate(const GoldenCase& golden) {
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine(golden.topology));
    algo::LayoutOptions layout_options;
    layout_options.nodes = golden.nodes;
    layout_options.ranks_per_node = golden.ranks_per_node;
    sched::CollectiveSpec spec;
    spec.collective = golden.collective;
    spec.algorithm = golden.algorithm;
    spec.bytes = golden.bytes;
    spec.root = golden.root;
    spec.options = golden.options;
    sched::Schedule schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout_options));
    schedule.provenance.erase("numacoll");
    return schedule;
}

// The case's machine with its own params, on the case's nodes.
sim::PlatformModel golden_platform(const GoldenCase& golden) {
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine(golden.topology));
    return sim::PlatformModel(machine, costs::params_for(*machine, ""), golden.nodes);
}

std::string simulated_ns(const GoldenCase& golden, const sched::Schedule& schedule) {
    return fmt::format("{:.6f}", sim::simulate(schedule, golden_platform(golden)).timeline.makespan_ns);
}

std::filesystem::path golden_dir() { return NUMACOLL_GOLDEN_DIR; }

using numacoll::test_support::slurp;

bool regenerating() {
    const char* flag = std::getenv("NUMACOLL_REGENERATE_GOLDEN");
    return flag != nullptr && std::string(flag) == "1";
}

// name -> simulated time, from simulated_ns.csv ("name,time_ns" lines).
std::map<std::string, std::string> golden_times() {
    std::map<std::string, std::string> times;
    std::istringstream lines(slurp(golden_dir() / "simulated_ns.csv"));
    std::string line;
    std::getline(lines, line);  // header
    while (std::getline(lines, line)) {
        const auto comma = line.find(',');
        if (comma != std::string::npos) times[line.substr(0, comma)] = line.substr(comma + 1);
    }
    return times;
}

// The same activities, and every task's start and end and the makespan bit for bit.
void expect_bit_identical(const sim::Simulation& with, const sim::Simulation& without) {
    EXPECT_EQ(with.stats.activities, without.stats.activities);
    ASSERT_EQ(with.timeline.tasks.size(), without.timeline.tasks.size());
    EXPECT_EQ(std::memcmp(with.timeline.tasks.data(), without.timeline.tasks.data(),
                          with.timeline.tasks.size() * sizeof(sched::TaskTime)),
              0);
    EXPECT_EQ(std::memcmp(&with.timeline.makespan_ns, &without.timeline.makespan_ns, sizeof(double)), 0);
}

}  // namespace

TEST(Golden, SchedulesAndSimulatedTimesAreUnchanged) {
    if (regenerating()) {
        std::filesystem::create_directories(golden_dir());
        std::string times = "case,simulated_ns\n";
        for (const GoldenCase& golden : cases()) {
            const sched::Schedule schedule = generate(golden);
            std::ofstream(golden_dir() / (golden.name + ".txt"), std::ios::binary) << sched::to_text(schedule);
            times += golden.name + "," + simulated_ns(golden, schedule) + "\n";
        }
        std::ofstream(golden_dir() / "simulated_ns.csv", std::ios::binary) << times;
        GTEST_SKIP() << "golden files rewritten in " << golden_dir();
    }
    const auto times = golden_times();
    ASSERT_EQ(times.size(), cases().size()) << "simulated_ns.csv does not list every case";
    for (const GoldenCase& golden : cases()) {
        SCOPED_TRACE(golden.name);
        const sched::Schedule schedule = generate(golden);
        const std::string golden_text = slurp(golden_dir() / (golden.name + ".txt"));
        ASSERT_FALSE(golden_text.empty()) << "no golden file " << golden.name << ".txt";
        const sched::Schedule expected = sched::schedule_from_text(golden_text);
        EXPECT_TRUE(schedule == expected) << "the schedule differs from " << golden.name << ".txt";
        EXPECT_TRUE(sched::to_text(schedule) == sched::to_text(expected))
            << "the schedule's text differs from " << golden.name << ".txt";
        EXPECT_EQ(simulated_ns(golden, schedule), times.at(golden.name));
    }
}

// The SimGrid substitutes (sim/comm_attachment.hpp below 3.34,
// sim/platform_lookups.hpp on every version) change how fast SimGrid runs,
// never what it computes: every task's start and end on every golden case,
// compared bit for bit, with and without them.
TEST(Golden, TimelinesAreBitIdenticalWithAndWithoutTheSimGridSubstitutes) {
    if (!sim::comm_attachment_built() && !sim::PlatformIndex::built())
        GTEST_SKIP() << "this build substitutes nothing of SimGrid's (the CMake option is off)";
    for (const GoldenCase& golden : cases()) {
        SCOPED_TRACE(golden.name);
        const sched::Schedule schedule = generate(golden);
        const sim::PlatformModel platform = golden_platform(golden);
        sim::keep_comms_attached(true);
        sim::PlatformIndex::set_enabled(true);
        const sim::Simulation with = sim::simulate(schedule, platform);
        sim::keep_comms_attached(false);
        sim::PlatformIndex::set_enabled(false);
        const sim::Simulation without = sim::simulate(schedule, platform);
        sim::keep_comms_attached(true);
        sim::PlatformIndex::set_enabled(true);
        // Comms were kept out of maestro's list with them (where built), none without.
        if (sim::comm_attachment_built()) {
            EXPECT_GT(with.stats.comms_kept_attached, 0u);
            EXPECT_LE(with.stats.comms_kept_attached, with.stats.activities);
        }
        EXPECT_EQ(without.stats.comms_kept_attached, 0u);
        // The platform's lookups were answered by the index with them, by SimGrid without.
        if (sim::PlatformIndex::built()) {
            EXPECT_GT(with.stats.platform_lookups_indexed, 0u);
        }
        EXPECT_EQ(without.stats.platform_lookups_indexed, 0u);
        expect_bit_identical(with, without);
    }
}

// The simulating process's recycling heap (sim/recycling_heap.hpp) changes
// where SimGrid's objects live, never what it computes: every task's start
// and end on every golden case, compared bit for bit, with and without it.
TEST(Golden, TimelinesAreBitIdenticalWithAndWithoutTheRecyclingHeap) {
    if (!sim::recycling_heap_built())
        GTEST_SKIP() << "this build keeps the default operator new (sanitizer or CMake option)";
    const bool requested = sim::recycling_heap_requested();
    for (const GoldenCase& golden : cases()) {
        SCOPED_TRACE(golden.name);
        const sched::Schedule schedule = generate(golden);
        const sim::PlatformModel platform = golden_platform(golden);
        sim::request_recycling_heap(true);
        const sim::Simulation with = sim::simulate(schedule, platform);
        sim::request_recycling_heap(false);
        const sim::Simulation without = sim::simulate(schedule, platform);
        sim::request_recycling_heap(requested);
        EXPECT_GT(with.stats.recycling_heap_bytes, 0u);
        EXPECT_EQ(without.stats.recycling_heap_bytes, 0u);
        expect_bit_identical(with, without);
    }
}

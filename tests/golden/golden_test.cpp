// Golden outputs, as files: each case is one file of tests/golden/cases/,
// whose first line is the `numacoll dag` command that makes it
// ("# numacoll dag -t westmere -c allreduce -a tree -b 64"), whose second
// is the schedule's simulated time on its machine with that machine's own
// params ("# simulated_ns 611.946154"), and whose rest is the schedule's
// text. The driver runs every file it finds: the command through the built
// program, its schedule compared with the file's (equal as schedules, and
// their texts byte-identical in the current format), and its simulated time
// compared as printed, to the last of its six decimals. The `numacoll`
// provenance line (version and git revision) is left out: it changes with
// every commit. A change that moves a case changes what numacoll generates
// or predicts, and has to say so.
//
// A case is added by writing its first line into a new file;
// NUMACOLL_REGENERATE_GOLDEN=1 then rewrites every file below its first
// line instead of comparing.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "schedule/schedule_io.hpp"
#include "sim/comm_attachment.hpp"
#include "sim/engine.hpp"
#include "sim/platform_lookups.hpp"
#include "sim/recycling_heap.hpp"
#include "../support/files.hpp"

using namespace numacoll;

namespace {

using numacoll::test_support::slurp;

const std::string command_prefix = "# numacoll dag ";
const std::string time_prefix = "# simulated_ns ";

std::filesystem::path golden_dir() { return NUMACOLL_GOLDEN_DIR; }

struct GoldenCase {
    std::string name;
    std::filesystem::path path;
    std::string arguments;  // of `numacoll dag`, as a shell reads them
    std::string simulated_ns;  // as the file gives it ("" when it gives none yet)
    std::string schedule_text;  // the file below its two lines
};

// Every file of the folder, by name.
std::vector<GoldenCase> cases() {
    std::vector<GoldenCase> found;
    for (const auto& entry : std::filesystem::directory_iterator(golden_dir())) {
        if (entry.path().extension() != ".txt") continue;
        GoldenCase golden{entry.path().stem().string(), entry.path(), "", "", ""};
        std::istringstream lines(slurp(entry.path()));
        std::string line;
        std::getline(lines, line);
        if (line.rfind(command_prefix, 0) != 0)
            ADD_FAILURE() << entry.path() << " does not start with '" << command_prefix << "ARGUMENTS'";
        else
            golden.arguments = line.substr(command_prefix.size());
        const std::streampos after_command = lines.tellg();
        if (std::getline(lines, line) && line.rfind(time_prefix, 0) == 0)
            golden.simulated_ns = line.substr(time_prefix.size());
        else
            lines.seekg(after_command);
        golden.schedule_text.assign(std::istreambuf_iterator<char>(lines), std::istreambuf_iterator<char>());
        found.push_back(std::move(golden));
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return found;
}

// The case's command, run by the built program into a scratch file.
sched::Schedule generate(const GoldenCase& golden) {
    const std::filesystem::path output =
        std::filesystem::temp_directory_path() / fmt::format("numacoll-golden-{}-{}.txt", getpid(), golden.name);
    const std::string command = fmt::format("'{}' dag {} -o '{}'", NUMACOLL_PROGRAM, golden.arguments, output.string());
    const int status = std::system(command.c_str());
    const std::string text = slurp(output);
    std::filesystem::remove(output);
    if (status != 0) throw std::runtime_error(fmt::format("'{}' exited with status {}", command, status));
    sched::Schedule schedule = sched::schedule_from_text(text);
    schedule.provenance.erase("numacoll");
    return schedule;
}

// The schedule's machine (its provenance names it) with its own params, on its nodes.
sim::PlatformModel golden_platform(const sched::Schedule& schedule) {
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine(schedule.provenance.at("topology")));
    return sim::PlatformModel(machine, costs::params_for(*machine, ""), schedule.nodes);
}

std::string simulated_ns(const sched::Schedule& schedule) {
    return fmt::format("{:.6f}", sim::simulate(schedule, golden_platform(schedule)).timeline.makespan_ns);
}

bool regenerating() {
    const char* flag = std::getenv("NUMACOLL_REGENERATE_GOLDEN");
    return flag != nullptr && std::string(flag) == "1";
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
    const std::vector<GoldenCase> all = cases();
    ASSERT_GE(all.size(), 15u) << "the golden cases of " << golden_dir() << " are missing";
    if (regenerating()) {
        for (const GoldenCase& golden : all) {
            const sched::Schedule schedule = generate(golden);
            std::ofstream(golden.path, std::ios::binary) << command_prefix << golden.arguments << "\n"
                                                         << time_prefix << simulated_ns(schedule) << "\n"
                                                         << sched::to_text(schedule);
        }
        GTEST_SKIP() << "golden files rewritten in " << golden_dir();
    }
    for (const GoldenCase& golden : all) {
        SCOPED_TRACE(golden.name);
        const sched::Schedule schedule = generate(golden);
        ASSERT_FALSE(golden.simulated_ns.empty()) << golden.path << " gives no '" << time_prefix << "' line";
        const sched::Schedule expected = sched::schedule_from_text(golden.schedule_text);
        EXPECT_TRUE(schedule == expected) << "the schedule differs from " << golden.path;
        EXPECT_TRUE(sched::to_text(schedule) == sched::to_text(expected))
            << "the schedule's text differs from " << golden.path;
        EXPECT_EQ(simulated_ns(schedule), golden.simulated_ns);
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
        const sim::PlatformModel platform = golden_platform(schedule);
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
        const sim::PlatformModel platform = golden_platform(schedule);
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

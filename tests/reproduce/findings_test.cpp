// The findings' catalogue and the helpers its verdicts rest on.
#include "reproduce/findings.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "costs/params.hpp"
#include "reproduce/sweep.hpp"
#include "sim/engine.hpp"

using namespace numacoll;
using namespace numacoll::reproduce;

TEST(Findings, EachPaperHasItsFindingsUnderUniqueNames) {
    std::set<std::string> names;
    int hpdc13 = 0, hierarchical = 0, nuioa = 0;
    for (const Finding& finding : findings()) {
        EXPECT_TRUE(names.insert(finding.name).second) << finding.name;
        EXPECT_FALSE(finding.paper.empty() || finding.setup.empty() || finding.claim.empty()) << finding.name;
        hpdc13 += finding.name.rfind("hpdc13-", 0) == 0;
        hierarchical += finding.name.rfind("hier-", 0) == 0;
        nuioa += finding.name.rfind("nuioa-", 0) == 0;
    }
    EXPECT_GE(hpdc13, 12);
    EXPECT_GE(hierarchical, 3);
    EXPECT_GE(nuioa, 7);
}

TEST(Findings, AnExperimentGivesWhatTheSimulatorGives) {
    Setting setting;
    setting.topology = "westmere";
    setting.nodes = 2;
    setting.collective = sched::Collective::bcast;
    setting.algorithm = "binomial";
    setting.bytes = 4096;
    Experiment experiment(true);
    const double via_experiment = experiment.time_ns(setting);
    EXPECT_EQ(experiment.time_ns(setting), via_experiment);  // remembered, not simulated again
    EXPECT_EQ(experiment.simulations(), 1u);

    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), 2);
    algo::LayoutOptions layout;
    layout.nodes = 2;
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::bcast;
    spec.algorithm = "binomial";
    spec.bytes = 4096;
    const double direct = sim::simulate(algo::generate_schedule(spec, algo::make_layout(machine, layout)), platform)
                              .timeline.makespan_ns;
    EXPECT_DOUBLE_EQ(via_experiment, direct);
    EXPECT_EQ(sim_command(setting), "numacoll sim -t westmere -N 2 -c bcast -a binomial --bytes 4KiB");
}

// The commands reproduce.csv gives paste into a shell as they are.
TEST(Findings, CommandsQuoteWhatAShellWouldSplit) {
    Setting setting;
    setting.topology = "synthetic:Package:1 Core:1";
    setting.params = "my params.json";
    EXPECT_EQ(sim_command(setting),
              "numacoll sim -t 'synthetic:Package:1 Core:1' --params 'my params.json' -c allreduce -a tree --bytes 8B");
    setting.topology = "it's.xml";
    setting.params.clear();
    EXPECT_EQ(sim_command(setting), "numacoll sim -t 'it'\\''s.xml' -c allreduce -a tree --bytes 8B");
}

// Checking a run simulates nothing: it checks every setting as sim would.
TEST(Findings, ACheckOfEverySettingSimulatesNothing) {
    Experiment estimate(true, true);
    for (const Finding& finding : findings())
        if (finding.name.starts_with("hpdc13-westmere")) (void)finding.evaluate(estimate);
    EXPECT_GT(estimate.simulations(), 10u);
    // A setting on PUs the machine does not have is refused as its layout is made.
    Setting beyond;
    beyond.topology = "westmere";
    beyond.ranks_per_node = 1;
    beyond.pus = {99};
    EXPECT_THROW((void)estimate.time_ns(beyond), UsageError);
    // A machine of one package cannot stand for westmere.
    EXPECT_THROW(check_substitute("westmere", "one.xml", topo::load_machine("synthetic:Package:1 Core:2")), UsageError);
    EXPECT_NO_THROW(check_substitute("westmere", "two.xml", topo::load_machine("synthetic:Package:2 NUMANode:1 Core:2")));
}

TEST(Findings, CrossoversAreInterpolatedBetweenTheSizesAroundTheSwitch) {
    Sweep result;
    result.sizes = {1024, 2048, 4096, 8192};
    result.labels = {"tree", "tiled"};
    result.ns["tree"] = {1, 2, 4, 8};
    result.ns["tiled"] = {2, 3, 2, 3};  // tiled / tree: 2, 1.5, 0.5 -> the log-ratio crosses 0 between 2 and 4 KiB
    const auto at = crossover_bytes(result, "tree", "tiled");
    ASSERT_TRUE(at.has_value());
    // log(1.5) / (log(1.5) - log(0.5)) of the way from log 2048 to log 4096.
    const double fraction = std::log(1.5) / (std::log(1.5) - std::log(0.5));
    EXPECT_NEAR(*at, 2048 * std::pow(2.0, fraction), 1e-9);
    result.ns["tiled"] = {0.5, 3, 5, 9};  // ahead from the start: no crossover
    EXPECT_FALSE(crossover_bytes(result, "tree", "tiled").has_value());
    EXPECT_EQ(result.best(0), "tiled");
    EXPECT_EQ(result.best(1), "tree");
}

TEST(Findings, TheWestmereModelCheckIsReproduced) {
    Experiment experiment(true);
    for (const Finding& finding : findings()) {
        if (finding.name != "hpdc13-westmere-line") continue;
        const Outcome outcome = finding.evaluate(experiment);
        EXPECT_EQ(outcome.verdict, Verdict::reproduced) << outcome.numacoll;
        EXPECT_NE(outcome.numacoll.find("317.6 ns"), std::string::npos) << outcome.numacoll;
        return;
    }
    FAIL() << "no hpdc13-westmere-line";
}

TEST(Findings, ARealWestmereExportGivesTheSameVerdicts) {
    // hwloc's export of a real 2 x X5650 node, with the westmere params.
    const std::string path = std::string(NUMACOLL_HWLOC_XML_DIR) + "/Intel-Westmere-2xXeon-X5650.output";
    if (!std::filesystem::exists(path)) GTEST_SKIP() << path << " is absent";
    Experiment bundled(true), real(true);
    real.substitute("westmere", path);
    Setting westmere;
    westmere.topology = "westmere";
    EXPECT_EQ(real.resolved(westmere).topology, path);
    EXPECT_EQ(real.resolved(westmere).params, "westmere");
    for (const Finding& finding : findings()) {
        if (finding.name != "hpdc13-westmere-line" && finding.name != "hpdc13-westmere-crossover" &&
            finding.name != "hpdc13-westmere-bcast")
            continue;
        SCOPED_TRACE(finding.name);
        const Outcome expected = finding.evaluate(bundled);
        const Outcome outcome = finding.evaluate(real);
        EXPECT_EQ(outcome.verdict, expected.verdict);
        EXPECT_EQ(outcome.numacoll, expected.numacoll);
    }
    EXPECT_GT(real.simulations(), 20u);
}

// opteron8218's NIC write window is derived from the NUIOA ping-pong (its
// params say how), as calibrate derives one: that finding is a calibration
// input, and the simulated ping-pong moves window / round trip two hops from
// the NIC, the link's bandwidth near it and one hop away (the window carries
// more than the link there).
TEST(Findings, ThePingPongIsTheCalibrationInputOfTheNicWriteWindow) {
    const costs::Params params = costs::load_params("opteron8218");
    ASSERT_TRUE(params.nic_dma);
    const double link_bytes_per_ns = std::min(params.at(costs::Level::nic).bandwidth_bytes_per_ns.value,
                                              params.at(costs::Level::network).bandwidth_bytes_per_ns.value);
    const double two_hops_trip_ns = costs::dma_round_trip_ns(params, 2, false);
    // The paper's +25-30% near the NIC, at its midpoint.
    EXPECT_NEAR(params.nic_dma->write_window_bytes.value, costs::dma_window_bytes(link_bytes_per_ns / 1.275, two_hops_trip_ns),
                1e-3);
    EXPECT_NE(params.nic_dma->write_window_bytes.source.find("PingPong"), std::string::npos);

    Experiment experiment(true);
    // Bytes per ns of the one-way time's growth from 2 to 4 MiB (latencies cancel).
    auto bandwidth = [&](int pu) {
        Setting setting;
        setting.topology = "opteron8218";
        setting.collective = sched::Collective::pingpong;
        setting.algorithm = "direct";
        setting.nodes = 2;
        setting.ranks_per_node = 1;
        setting.pus = {pu};
        setting.bytes = 2 << 20;
        const double small_ns = experiment.time_ns(setting);
        setting.bytes = 4 << 20;
        return 2.0 * (2 << 20) / (experiment.time_ns(setting) - small_ns);  // a round trip moves the bytes twice
    };
    EXPECT_NEAR(bandwidth(2), link_bytes_per_ns, 1e-3 * link_bytes_per_ns);  // near: NUMA node 1
    EXPECT_NEAR(bandwidth(0), link_bytes_per_ns, 1e-3 * link_bytes_per_ns);  // one hop: the window binds no more
    EXPECT_NEAR(bandwidth(4), params.nic_dma->write_window_bytes.value / two_hops_trip_ns,
                1e-3 * link_bytes_per_ns);  // two hops
    for (const Finding& finding : findings()) {
        if (finding.name != "nuioa-pingpong-throughput") continue;
        const Outcome outcome = finding.evaluate(experiment);
        EXPECT_EQ(outcome.verdict, Verdict::calibration_input);
        EXPECT_EQ(std::string(to_string(outcome.verdict)), "calibration input");
        return;
    }
    FAIL() << "no nuioa-pingpong-throughput";
}

// Where the paper shows one machine and reports "similar results" on the
// other, the finding is judged on both, with a figure for each.
TEST(Findings, FindingsThePaperReportsOnBothMachinesAreJudgedOnBoth) {
    Experiment experiment(true);
    int judged = 0;
    for (const Finding& finding : findings()) {
        if (finding.name != "hpdc13-binary-reduction" && finding.name != "hpdc13-tiled-variants") continue;
        SCOPED_TRACE(finding.name);
        const Outcome outcome = finding.evaluate(experiment);
        EXPECT_NE(outcome.numacoll.find("magnycours: "), std::string::npos) << outcome.numacoll;
        EXPECT_NE(outcome.numacoll.find("westmere: "), std::string::npos) << outcome.numacoll;
        ASSERT_EQ(outcome.figures.size(), 2u);
        EXPECT_NE(outcome.figures[0].name, outcome.figures[1].name);
        ++judged;
    }
    EXPECT_EQ(judged, 2);
}

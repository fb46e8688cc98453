// Calibrated params: every figure says where it comes from, they survive a
// round trip through their file, and the fit's composition is the
// simulator's: with any figures (and a private cache the larger sizes
// spill from), simulating a two-rank bcast tree (flag, copy)
// and allreduce tree (flag, reduce, flag, copy) gives the sum of what the
// fit charges for those microbenchmarks; with single copy between two
// processes, the bcast adds the kernel's work and the reader's release
// flag (flag, call + pages x page, copy, flag).
#include "calibrate/calibration.hpp"

#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "schedule/process_form.hpp"
#include "sim/engine.hpp"

using namespace numacoll;
using calibrate::Measurement;
using calibrate::Microbenchmark;
using costs::Level;

namespace {

calibrate::FitResult two_core_fit() {
    calibrate::FitResult fit;
    calibrate::LevelFit local;
    local.latency_ns = 3;
    local.bandwidth_bytes_per_ns = 50;
    local.residual = 0.02;
    local.rows = 10;
    local.microbenchmarks = "copy, reduce";
    fit.levels[Level::local_cache] = local;
    calibrate::LevelFit socket = local;
    socket.latency_ns = 40;
    socket.bandwidth_bytes_per_ns = 15;
    socket.aggregate_bytes_per_ns = 24;
    socket.contention_seen = true;
    socket.streams_measured = 2;
    fit.levels[Level::same_socket] = socket;
    fit.reduce_bytes_per_ns = 20;
    fit.flag_overhead_ns = 12;
    return fit;
}

Measurement point(Microbenchmark kind, Level level, std::uint64_t bytes) {
    Measurement m;
    m.kind = kind;
    m.level = level;
    m.bytes = bytes;
    return m;
}

double simulate(const std::string& collective, const std::string& algorithm, std::uint64_t bytes,
                const costs::Params& params, bool single_copy = false,
                sched::Datatype datatype = sched::Datatype::double_) {
    auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:1 L3Cache:1 Core:2"));
    sched::CollectiveSpec spec;
    spec.collective = sched::parse_collective(collective);
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.datatype = datatype;
    auto schedule = algo::generate_schedule(spec, algo::make_layout(machine, {}));
    if (single_copy) schedule = sched::process_form(schedule, {.single_copy = true});
    const sim::PlatformModel platform(machine, params, 1);
    return sim::simulate(schedule, platform).timeline.makespan_ns;
}

}  // namespace

TEST(CalibratedParams, EveryFigureSaysWhereItComesFrom) {
    const costs::Params base = costs::load_params("generic");
    std::vector<std::string> from_base;
    const costs::Params params = calibrate::calibrated_params(two_core_fit(), {}, base,
                                                              {"host7", "2026-11-23T02:00:00Z", "0.1.0 (abc1234)"}, &from_base);
    EXPECT_EQ(params.name, "calibrated:host7");
    EXPECT_DOUBLE_EQ(params.at(Level::same_socket).latency_ns.value, 40);
    EXPECT_DOUBLE_EQ(params.at(Level::same_socket).bandwidth_bytes_per_ns.value, 15);
    EXPECT_DOUBLE_EQ(params.at(Level::same_socket).aggregate_bandwidth_bytes_per_ns.value, 24);
    EXPECT_DOUBLE_EQ(params.at(Level::local_cache).aggregate_bandwidth_bytes_per_ns.value, 50);
    EXPECT_DOUBLE_EQ(params.reduce_bytes_per_ns.value, 20);
    EXPECT_DOUBLE_EQ(params.flag_overhead_ns->value, 12);
    for (const char* needle : {"calibrated on host7", "2026-11-23", "abc1234", "copy, reduce", "residual 2.0%"})
        EXPECT_NE(params.at(Level::same_socket).latency_ns.source.find(needle), std::string::npos) << needle;
    // What was not measured keeps the base's value, and says so.
    EXPECT_EQ(from_base, (std::vector<std::string>{"same_cache", "other_socket", "dram", "nic", "network"}));
    EXPECT_DOUBLE_EQ(params.at(Level::other_socket).latency_ns.value, base.at(Level::other_socket).latency_ns.value);
    EXPECT_NE(params.at(Level::other_socket).latency_ns.source.find("no such level"), std::string::npos);
    EXPECT_NE(params.at(Level::network).latency_ns.source.find("from base 'generic'"), std::string::npos);
    EXPECT_NE(params.messages->process_send_overhead_ns.source.find("not measured"), std::string::npos);
    EXPECT_NE(params.description.find("from base 'generic'"), std::string::npos);
}

TEST(CalibratedParams, SurviveTheirFile) {
    const costs::Params params = calibrate::calibrated_params(two_core_fit(), {}, costs::load_params("generic"),
                                                              {"host7", "2026-11-23T02:00:00Z", "0.1.0 (abc1234)"});
    const costs::Params back = costs::parse_params(costs::params_to_json(params), "round trip");
    EXPECT_EQ(back.name, params.name);
    EXPECT_EQ(back.description, params.description);
    for (Level level : costs::all_levels) {
        EXPECT_DOUBLE_EQ(back.at(level).latency_ns.value, params.at(level).latency_ns.value);
        EXPECT_EQ(back.at(level).latency_ns.source, params.at(level).latency_ns.source);
        EXPECT_DOUBLE_EQ(back.at(level).aggregate_bandwidth_bytes_per_ns.value,
                         params.at(level).aggregate_bandwidth_bytes_per_ns.value);
    }
    EXPECT_DOUBLE_EQ(back.reduce_bytes_per_ns.value, params.reduce_bytes_per_ns.value);
    EXPECT_DOUBLE_EQ(back.flag_overhead_ns->value, 12);
    EXPECT_DOUBLE_EQ(back.messages->network_gap_ns.value, params.messages->network_gap_ns.value);
    EXPECT_DOUBLE_EQ(back.nic_dma->read_window_bytes.value, params.nic_dma->read_window_bytes.value);
}

TEST(CalibratedParams, TheFitChargesWhatTheSimulatorCharges) {
    costs::Params params = calibrate::calibrated_params(two_core_fit(), {}, costs::load_params("generic"),
                                                        {"host7", "2026-11-23T02:00:00Z", "0.1.0 (abc1234)"});
    // Beyond a private cache of 256 KiB too: a reduce of 128 KiB touches 384 KiB, a copy of 256 KiB 512 KiB.
    params.private_cache_bytes = costs::Figure{256 * 1024, "test"};
    for (std::uint64_t bytes : {8u, 1024u, 65536u, 131072u, 262144u, 1048576u}) {
        const double flag = calibrate::predicted_ns(point(Microbenchmark::flag, Level::same_socket, 64), params);
        const double copy = calibrate::predicted_ns(point(Microbenchmark::copy, Level::same_socket, bytes), params);
        const double reduce = calibrate::predicted_ns(point(Microbenchmark::reduce, Level::same_socket, bytes), params);
        EXPECT_NEAR(simulate("bcast", "tree", bytes, params), flag + copy, 1e-6 * (flag + copy)) << bytes;
        EXPECT_NEAR(simulate("allreduce", "tree", bytes, params), 2 * flag + reduce + copy,
                    1e-6 * (2 * flag + reduce + copy))
            << bytes;
    }
}

TEST(CalibratedParams, ASingleCopyCostsTheKernelsWorkBesideTheCopy) {
    calibrate::FitResult fit = two_core_fit();
    fit.single_copy_call_ns = 700;
    fit.single_copy_page_ns = 50;
    const costs::Params params = calibrate::calibrated_params(fit, {}, costs::load_params("generic"),
                                                              {"host7", "2026-11-23T02:00:00Z", "0.1.0 (abc1234)"});
    ASSERT_TRUE(params.single_copy.has_value());
    EXPECT_NE(params.single_copy->page_ns.source.find("process_vm_readv"), std::string::npos);
    const costs::Params back = costs::parse_params(costs::params_to_json(params), "round trip");
    ASSERT_TRUE(back.single_copy.has_value());
    EXPECT_DOUBLE_EQ(back.single_copy->call_ns.value, 700);
    EXPECT_EQ(back.single_copy->page_ns.source, params.single_copy->page_ns.source);
    for (std::uint64_t bytes : {8u, 4096u, 4097u, 65536u}) {
        const double flag = calibrate::predicted_ns(point(Microbenchmark::flag, Level::same_socket, 64), params);
        const double copy = calibrate::predicted_ns(point(Microbenchmark::copy, Level::same_socket, bytes), params);
        const double kernel = 700 + 50 * costs::SingleCopyParams::pages(bytes);
        const double expected = flag + kernel + copy + flag;
        EXPECT_NEAR(simulate("bcast", "tree", bytes, params, true), expected, 1e-6 * expected) << bytes;
    }
    EXPECT_THROW((void)simulate("bcast", "tree", 64, costs::load_params("generic"), true), UsageError);
}

// A reduction of floats folds at float's rate where the params give one:
// the fold's share of the two-rank allreduce scales, nothing else moves.
TEST(CalibratedParams, ATypesOwnReductionRateIsCharged) {
    costs::Params params = calibrate::calibrated_params(two_core_fit(), {}, costs::load_params("generic"),
                                                        {"host7", "2026-11-23T02:00:00Z", "0.1.0 (abc1234)"});
    params.reduce_bytes_per_ns_by_datatype["float"] = costs::Figure{50, "test"};
    for (std::uint64_t bytes : {8u, 1024u, 65536u}) {
        const double flag = calibrate::predicted_ns(point(Microbenchmark::flag, Level::same_socket, 64), params);
        const double copy = calibrate::predicted_ns(point(Microbenchmark::copy, Level::same_socket, bytes), params);
        const double m = static_cast<double>(bytes);
        const double reduce = calibrate::predicted_ns(point(Microbenchmark::reduce, Level::same_socket, bytes), params) -
                              m / params.reduce_bytes_per_ns.value + m / 50;
        const double expected = 2 * flag + reduce + copy;
        EXPECT_NEAR(simulate("allreduce", "tree", bytes, params, false, sched::Datatype::float_), expected,
                    1e-6 * expected)
            << bytes;
    }
}

// The fit on synthetic measurements (a two-socket machine with a shared L2
// and memory up to two hops away): made from known figures by the
// composition the simulator charges (calibrate::predicted_ns), with a
// deterministic noise of up to +-0.5%, the fit gives the figures back
// within 2%.
#include "calibrate/fit.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"

using namespace numacoll;
using calibrate::Measurement;
using calibrate::Microbenchmark;
using costs::Level;

namespace {

costs::Params known_params() {
    costs::Params params = costs::load_params("westmere");
    auto set = [&](Level level, double a, double bw, double aggregate) {
        params.at(level).latency_ns.value = a;
        params.at(level).bandwidth_bytes_per_ns.value = bw;
        params.at(level).aggregate_bandwidth_bytes_per_ns.value = aggregate;
    };
    set(Level::local_cache, 2.5, 60, 60);
    set(Level::same_cache, 12, 30, 45);
    set(Level::same_socket, 40, 14, 20);
    set(Level::other_socket, 110, 7, 10);
    set(Level::dram, 85, 9, 25);
    params.reduce_bytes_per_ns.value = 24;
    params.compute_flops_per_ns = costs::Figure{11, "known"};
    params.flag_overhead_ns = costs::Figure{15, "known"};
    params.single_copy = costs::SingleCopyParams{{900, "known"}, {60, "known"}};
    params.reduce_bytes_per_ns_by_datatype["float"] = costs::Figure{48, "known"};
    return params;
}

// What a calibration on a two-socket machine with a shared L2 would measure.
std::vector<Measurement> synthetic_measurements(const costs::Params& params, double noise) {
    std::vector<Measurement> list;
    const std::vector<std::uint64_t> sizes = {64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20};
    auto add = [&](Microbenchmark kind, Level level, std::uint64_t bytes, int streams = 1, int hops = 0) {
        Measurement m;
        m.kind = kind;
        m.level = level;
        m.bytes = bytes;
        m.streams = streams;
        m.hops = hops;
        // A fixed pattern in [-noise, +noise]: no two neighbours err alike.
        const double wobble = noise * std::sin(1.7 * static_cast<double>(list.size()) + 0.3);
        m.time_ns = calibrate::predicted_ns(m, params) * (1 + wobble);
        list.push_back(m);
    };
    for (auto bytes : sizes) {
        add(Microbenchmark::copy, Level::local_cache, bytes);
        add(Microbenchmark::reduce, Level::local_cache, bytes);
    }
    for (Level level : {Level::same_cache, Level::same_socket, Level::other_socket}) {
        add(Microbenchmark::flag, level, 64);
        for (auto bytes : sizes) {
            add(Microbenchmark::copy, level, bytes);
            add(Microbenchmark::reduce, level, bytes);
        }
    }
    for (int d : {2, 4, 6})
        for (std::uint64_t bytes : {65536u, 1u << 20, 4u << 20}) {
            add(Microbenchmark::contended_copy, Level::same_socket, bytes, d);
            add(Microbenchmark::contended_copy, Level::other_socket, bytes, d);
        }
    add(Microbenchmark::contended_copy, Level::same_cache, 1 << 20, 2);
    add(Microbenchmark::dram_chase, Level::dram, 64);
    add(Microbenchmark::dram_chase, Level::dram, 64, 1, 1);  // memory one and two inter-socket hops away
    add(Microbenchmark::dram_chase, Level::dram, 64, 1, 2);
    add(Microbenchmark::dram_copy, Level::dram, 128u << 20);
    add(Microbenchmark::dram_copy, Level::dram, 256u << 20);
    add(Microbenchmark::contended_dram_copy, Level::dram, 64u << 20, 2);
    add(Microbenchmark::contended_dram_copy, Level::dram, 32u << 20, 4);
    add(Microbenchmark::compute, Level::local_cache, 100000);
    add(Microbenchmark::compute, Level::local_cache, 1000000);
    for (std::uint64_t bytes : {64u, 16384u, 262144u}) add(Microbenchmark::single_copy, Level::local_cache, bytes);
    for (sched::Datatype datatype : {sched::Datatype::float_, sched::Datatype::int32}) {
        add(Microbenchmark::typed_reduce, Level::local_cache, 65536);
        list.back().datatype = datatype;
        list.back().time_ns = calibrate::predicted_ns(list.back(), params);
    }
    return list;
}

void expect_within(double fitted, double known, double tolerance, const std::string& what) {
    EXPECT_NEAR(fitted / known, 1.0, tolerance) << what << ": fitted " << fitted << ", known " << known;
}

}  // namespace

TEST(CalibrationFit, RecoversKnownFiguresWithinTwoPercent) {
    const costs::Params known = known_params();
    const calibrate::FitResult fit = calibrate::fit_measurements(synthetic_measurements(known, 0.005), 64);
    for (Level level : {Level::local_cache, Level::same_cache, Level::same_socket, Level::other_socket, Level::dram}) {
        ASSERT_TRUE(fit.levels.count(level)) << costs::to_string(level);
        const calibrate::LevelFit& f = fit.levels.at(level);
        expect_within(f.latency_ns, known.at(level).latency_ns.value, 0.02, std::string(costs::to_string(level)) + " a");
        expect_within(f.bandwidth_bytes_per_ns, known.at(level).bandwidth_bytes_per_ns.value, 0.02,
                      std::string(costs::to_string(level)) + " 1/b");
        EXPECT_LT(f.residual, 0.01);
    }
    for (Level level : {Level::same_socket, Level::other_socket, Level::dram}) {
        const calibrate::LevelFit& f = fit.levels.at(level);
        ASSERT_TRUE(f.aggregate_bytes_per_ns.has_value());
        EXPECT_TRUE(f.contention_seen);
        expect_within(*f.aggregate_bytes_per_ns, known.at(level).aggregate_bandwidth_bytes_per_ns.value, 0.02,
                      std::string(costs::to_string(level)) + " 1/B");
    }
    // Two readers of the shared L2 at 30 GB/s each would take 60 GB/s; it gives 45.
    expect_within(*fit.levels.at(Level::same_cache).aggregate_bytes_per_ns, 45, 0.02, "same_cache 1/B");
    ASSERT_TRUE(fit.reduce_bytes_per_ns.has_value());
    expect_within(*fit.reduce_bytes_per_ns, 24, 0.02, "reduction rate");
    ASSERT_TRUE(fit.compute_flops_per_ns.has_value());
    expect_within(*fit.compute_flops_per_ns, 11, 0.02, "compute rate");
    ASSERT_TRUE(fit.flag_overhead_ns.has_value());
    expect_within(*fit.flag_overhead_ns, 15, 0.02, "flag overhead");
    ASSERT_TRUE(fit.single_copy_call_ns.has_value() && fit.single_copy_page_ns.has_value());
    expect_within(*fit.single_copy_call_ns, 900, 0.02, "single copy per call");
    expect_within(*fit.single_copy_page_ns, 60, 0.05, "single copy per page");
    // float's kernel folds twice as fast as double's; int32's as fast: only float's rate is kept.
    ASSERT_EQ(fit.reduce_bytes_per_ns_by_datatype.size(), 1u);
    expect_within(fit.reduce_bytes_per_ns_by_datatype.at("float"), 48, 0.03, "float reduction rate");
}

TEST(CalibrationFit, WithoutNoiseTheFitIsExact) {
    const costs::Params known = known_params();
    const calibrate::FitResult fit = calibrate::fit_measurements(synthetic_measurements(known, 0), 64);
    for (const auto& [level, f] : fit.levels) {
        expect_within(f.latency_ns, known.at(level).latency_ns.value, 1e-6, costs::to_string(level));
        expect_within(f.bandwidth_bytes_per_ns, known.at(level).bandwidth_bytes_per_ns.value, 1e-6, costs::to_string(level));
        EXPECT_LT(f.residual, 1e-9);
    }
    expect_within(*fit.flag_overhead_ns, 15, 1e-6, "flag overhead");
    expect_within(*fit.single_copy_call_ns, 900, 1e-6, "single copy per call");
    expect_within(*fit.single_copy_page_ns, 60, 1e-6, "single copy per page");
}

TEST(CalibrationFit, RowsBeyondThePrivateCacheChargeTheLlcAndTheFitRecoversEveryFigure) {
    costs::Params known = known_params();
    known.private_cache_bytes = costs::Figure{256 * 1024, "known"};
    const std::vector<Measurement> list = synthetic_measurements(known, 0.005);
    // A local copy of 1 MiB (2 MiB touched) costs what two LLC streams cost, not two private ones.
    Measurement big{};
    big.kind = Microbenchmark::copy;
    big.level = Level::local_cache;
    big.bytes = 1 << 20;
    const auto& llc = known.at(Level::same_socket);
    EXPECT_NEAR(calibrate::predicted_ns(big, known),
                2 * (llc.latency_ns.value + big.bytes / llc.bandwidth_bytes_per_ns.value), 1e-9);
    Measurement small = big;
    small.bytes = 64 * 1024;  // 128 KiB touched: private
    const auto& local = known.at(Level::local_cache);
    EXPECT_NEAR(calibrate::predicted_ns(small, known),
                2 * (local.latency_ns.value + small.bytes / local.bandwidth_bytes_per_ns.value), 1e-9);

    const calibrate::FitResult fit = calibrate::fit_measurements(list, 64, 256 * 1024);
    for (Level level : {Level::local_cache, Level::same_cache, Level::same_socket, Level::other_socket}) {
        const calibrate::LevelFit& f = fit.levels.at(level);
        expect_within(f.latency_ns, known.at(level).latency_ns.value, 0.02, std::string(costs::to_string(level)) + " a");
        expect_within(f.bandwidth_bytes_per_ns, known.at(level).bandwidth_bytes_per_ns.value, 0.02,
                      std::string(costs::to_string(level)) + " 1/b");
    }
    expect_within(*fit.levels.at(Level::same_socket).aggregate_bytes_per_ns,
                  known.at(Level::same_socket).aggregate_bandwidth_bytes_per_ns.value, 0.02, "same_socket 1/B");
    expect_within(*fit.reduce_bytes_per_ns, 24, 0.02, "reduction rate");
    // Fitted as if every access stayed private, the same rows give a local bandwidth more than 10% off.
    const calibrate::FitResult blind = calibrate::fit_measurements(list, 64);
    EXPECT_GT(std::fabs(blind.levels.at(Level::local_cache).bandwidth_bytes_per_ns / local.bandwidth_bytes_per_ns.value - 1),
              0.1);
}

TEST(CalibrationFit, RowsThatRanSlowForAWhileShowInTheWorstCacheResidual) {
    const costs::Params known = known_params();
    std::vector<Measurement> list = synthetic_measurements(known, 0.005);
    EXPECT_LT(calibrate::fit_measurements(list, 64).worst_cache_residual(), 0.01);
    // The same_socket copies and sums from 1 KiB to 256 KiB measured at half speed, as in one calibration here.
    for (auto& m : list)
        if (m.level == Level::same_socket && (m.kind == Microbenchmark::copy || m.kind == Microbenchmark::reduce) &&
            m.bytes >= 1024 && m.bytes <= 262144)
            m.time_ns *= 2.5;
    EXPECT_GT(calibrate::fit_measurements(list, 64).worst_cache_residual(), 0.3);
}

TEST(CalibrationFit, StreamsThatDoNotSlowDownGiveALowerBound) {
    costs::Params known = known_params();
    known.at(Level::same_socket).aggregate_bandwidth_bytes_per_ns.value = 1000;  // never binds for d <= 6
    const calibrate::FitResult fit = calibrate::fit_measurements(synthetic_measurements(known, 0), 64);
    const calibrate::LevelFit& f = fit.levels.at(Level::same_socket);
    EXPECT_FALSE(f.contention_seen);
    EXPECT_EQ(f.streams_measured, 6);
    expect_within(*f.aggregate_bytes_per_ns, 6 * 14.0, 1e-6, "lower bound d/b");
}

TEST(CalibrationFit, ANegativeLatencyIsHeldAtZero) {
    // Copies whose time is proportional to their size: a = 0, not below.
    std::vector<Measurement> list;
    for (std::uint64_t bytes : {64u, 1024u, 65536u}) {
        Measurement m;
        m.kind = Microbenchmark::copy;
        m.level = Level::local_cache;
        m.bytes = bytes;
        m.time_ns = 2.0 * static_cast<double>(bytes) / 50 * (bytes == 64 ? 0.9 : 1.0);  // the smallest a little fast
        list.push_back(m);
    }
    const calibrate::FitResult fit = calibrate::fit_measurements(list, 64);
    EXPECT_EQ(fit.levels.at(Level::local_cache).latency_ns, 0);
    EXPECT_GT(fit.levels.at(Level::local_cache).bandwidth_bytes_per_ns, 0);
}

TEST(CalibrationFit, TooFewSizesAreRefused) {
    Measurement one;
    one.kind = Microbenchmark::copy;
    one.level = Level::local_cache;
    one.bytes = 1024;
    one.time_ns = 100;
    EXPECT_THROW(calibrate::fit_measurements({one}, 64), CheckError);
    Measurement remote = one;
    remote.level = Level::same_socket;
    remote.kind = Microbenchmark::contended_copy;
    remote.streams = 2;
    std::vector<Measurement> list;
    for (std::uint64_t bytes : {64u, 65536u}) {
        one.bytes = bytes;
        one.time_ns = 10 + static_cast<double>(bytes) / 20;
        list.push_back(one);
    }
    list.push_back(remote);  // contended rows of a level never measured alone
    EXPECT_THROW(calibrate::fit_measurements(list, 64), CheckError);
}

// The join of simulated, measured and modelled times: validation.csv keeps
// its columns and gains the provenance fields; the model comes from the
// models' registry; errors are against the measured median.
#include "validate/validation.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "algorithms/registry.hpp"
#include "models/shape.hpp"

using namespace numacoll;

namespace {

validate::ValidationPoint point(double simulated_ns, double measured_ns, std::optional<double> model_ns) {
    validate::ValidationPoint p;
    p.simulated.collective = p.measured.collective = "allreduce";
    p.simulated.algorithm = p.measured.algorithm = "tree";
    p.simulated.bytes = p.measured.bytes = 64;
    p.simulated.ranks = p.measured.ranks = 2;
    p.simulated.time_ns = simulated_ns;
    p.measured.time_ns = measured_ns;
    TimeStats spread;
    spread.median_ns = measured_ns;
    spread.iterations = 5;
    p.measured.spread = spread;
    p.measured.provenance = {"0.1.0 (abc)", "Release", "3.32.0", "host1", "2026-11-22T00:00:00Z", ""};
    p.model_ns = model_ns;
    return p;
}

}  // namespace

TEST(Validation, CsvKeepsItsColumnsAndGainsProvenance) {
    const auto columns = validate::validation_columns();
    const std::vector<std::string> kept = {
        "collective",      "algorithm",          "bytes",           "ranks",           "simulated_ns",
        "measured_median_ns", "measured_p10_ns", "measured_p90_ns", "measured_min_ns", "measured_max_ns",
        "iterations",      "model_ns",           "simulated_error", "model_error",     "simulated_abs_error_ns",
        "model_abs_error_ns", "provenance"};
    ASSERT_GE(columns.size(), kept.size());
    EXPECT_TRUE(std::equal(kept.begin(), kept.end(), columns.begin()));
    for (const char* name : {"numacoll", "build_type", "simgrid", "host", "date", "mpi"})
        EXPECT_NE(std::find(columns.begin(), columns.end(), name), columns.end()) << name;

    const auto fields = validate::validation_fields(point(1200, 1000, 900), "a run");
    ASSERT_EQ(fields.size(), columns.size());
    EXPECT_EQ(fields[4], "1200.000");
    EXPECT_EQ(fields[12], "0.2000");   // (1200 - 1000) / 1000
    EXPECT_EQ(fields[13], "-0.1000");  // (900 - 1000) / 1000
    EXPECT_EQ(fields[16], "a run");
    EXPECT_EQ(fields[fields.size() - 3], "2026-11-22T00:00:00Z");  // the provenance (date, mpi), then the floor
    EXPECT_EQ(columns.back(), "timing_floor_ns");
    // The harness's floor is added to the predictions before the errors.
    validate::ValidationPoint floored = point(1200, 1000, 900);
    floored.timing_floor_ns = 50;
    const auto with_floor = validate::validation_fields(floored, "a run");
    EXPECT_EQ(with_floor[12], "0.2500");   // (1200 + 50 - 1000) / 1000
    EXPECT_EQ(with_floor[13], "-0.0500");  // (900 + 50 - 1000) / 1000
    EXPECT_EQ(with_floor.back(), "50.0");
    const auto without_model = validate::validation_fields(point(1200, 1000, std::nullopt), "a run");
    EXPECT_EQ(without_model[11], "");
    EXPECT_EQ(without_model[13], "");
}

TEST(Validation, SummaryNamesTheWorstSize) {
    std::vector<validate::ValidationPoint> points = {point(1100, 1000, std::nullopt), point(3000, 1000, std::nullopt)};
    points[1].measured.bytes = points[1].simulated.bytes = 4096;
    const std::string summary = validate::summary_text(points, "a run");
    EXPECT_NE(summary.find("worst   200.0% at 4KiB"), std::string::npos) << summary;
    EXPECT_NE(summary.find("no closed form for this algorithm"), std::string::npos) << summary;
}

TEST(Validation, RunsTheGivenSchedulesAndAsksTheModels) {
    // Two threads of this machine, one size: simulated, executed, modelled.
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("live"));
    algo::LayoutOptions options;
    options.ranks_per_node = 2;
    options.oversubscribe = true;
    const algo::Layout layout = algo::make_layout(machine, options);
    const sim::PlatformModel platform(machine, costs::params_for(*machine, "generic"), 1);
    validate::ValidationSetup setup;
    setup.machine = machine.get();
    setup.platform = &platform;
    setup.shape = models::node_shape(layout);
    int generated = 0;
    setup.make_schedule = [&](const sched::CollectiveSpec& spec) {
        ++generated;
        return algo::generate_schedule(spec, layout);
    };
    setup.exec_options.warmup_iterations = 1;
    setup.exec_options.timed_iterations = 3;
    setup.trace_bytes = 64;
    sched::CollectiveSpec tree;
    tree.algorithm = "tree";
    tree.bytes = 64;
    sched::CollectiveSpec binomial = tree;
    binomial.collective = sched::Collective::reduce;
    binomial.algorithm = "binomial";
    int told = 0;
    const auto run = validate::run_validation(setup, {tree, binomial}, [&](const validate::ValidationPoint&, int done, int total) {
        EXPECT_EQ(done, ++told);
        EXPECT_EQ(total, 2);
    });
    EXPECT_EQ(generated, 2);
    ASSERT_EQ(run.points.size(), 2u);
    EXPECT_GT(run.points[0].simulated.time_ns, 0);
    EXPECT_GT(run.points[0].measured.time_ns, 0);
    EXPECT_TRUE(run.points[0].model_ns.has_value());   // allreduce tree has a closed form
    EXPECT_TRUE(run.points[1].model_ns.has_value());   // so has reduce binomial
    EXPECT_EQ(run.traces.size(), 2u);
}

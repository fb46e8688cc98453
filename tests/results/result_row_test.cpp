// One result row for sim, run and validate: its columns keep every column
// the commands wrote before, and its fields say what produced them.
#include "results/result_row.hpp"

#include <gtest/gtest.h>

#include <algorithm>

using namespace numacoll;

namespace {

sched::Schedule small_schedule() {
    sched::Schedule schedule;
    schedule.spec.collective = sched::Collective::allreduce;
    schedule.spec.algorithm = "tree";
    schedule.spec.bytes = 64;
    schedule.spec.root = 0;
    schedule.spec.options = {{"arity", "2"}, {"bcast", "1stage"}};
    schedule.ranks = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}};
    return schedule;
}

bool has(const std::vector<std::string>& columns, const std::string& name) {
    return std::find(columns.begin(), columns.end(), name) != columns.end();
}

}  // namespace

TEST(ResultRow, ColumnsAreASupersetOfWhatSimAndRunWrote) {
    const auto columns = results::result_columns();
    const std::vector<std::string> leading = {"collective", "algorithm", "bytes", "ranks", "nodes", "engine", "time_ns"};
    ASSERT_GE(columns.size(), leading.size());
    EXPECT_TRUE(std::equal(leading.begin(), leading.end(), columns.begin()));
    for (const char* name : {"p10_ns", "p90_ns", "min_ns", "max_ns", "iterations", "tasks", "options", "topology",
                             "params", "pinned", "numa_bound", "numacoll", "placement", "root", "op", "datatype", "build_type", "simgrid",
                             "host", "date", "mpi"})
        EXPECT_TRUE(has(columns, name)) << name;
}

TEST(ResultRow, SimulatedAndMeasuredRowsSayWhatTheyAre) {
    const sched::Schedule schedule = small_schedule();
    results::ResultRow simulated = results::simulated_row(schedule, 1234.5678912);
    simulated.provenance = {"0.1.0 (abc)", "Release", "3.32.0", "host1", "2026-11-22T00:00:00Z", ""};
    const auto fields = results::result_fields(simulated);
    const auto columns = results::result_columns();
    ASSERT_EQ(fields.size(), columns.size());
    const auto field = [&](const std::vector<std::string>& row, const std::string& name) {
        return row[std::find(columns.begin(), columns.end(), name) - columns.begin()];
    };
    EXPECT_EQ(field(fields, "engine"), "sim");
    EXPECT_EQ(field(fields, "time_ns"), "1234.567891");
    EXPECT_EQ(field(fields, "p10_ns"), "");  // a simulation has no spread
    EXPECT_EQ(field(fields, "ranks"), "2");
    EXPECT_EQ(field(fields, "options"), "arity=2;bcast=1stage");
    EXPECT_EQ(field(fields, "op"), "sum");
    EXPECT_EQ(field(fields, "datatype"), "double");
    EXPECT_EQ(field(fields, "rank_kind"), sched::to_string(schedule.rank_kind));
    EXPECT_EQ(field(fields, "host"), "host1");
    EXPECT_EQ(field(fields, "simgrid"), "3.32.0");

    TimeStats times;
    times.median_ns = 900.04;
    times.p10_ns = 800;
    times.iterations = 7;
    const auto measured = results::result_fields(results::measured_row(schedule, times, true, false));
    EXPECT_EQ(field(measured, "engine"), "threads");
    EXPECT_EQ(field(measured, "time_ns"), "900.0");
    EXPECT_EQ(field(measured, "p10_ns"), "800.0");
    EXPECT_EQ(field(measured, "iterations"), "7");
    EXPECT_EQ(field(measured, "pinned"), "yes");
    EXPECT_EQ(field(measured, "numa_bound"), "no");
}

TEST(ResultRow, ProvenanceNamesThisBuildAndAnIsoDate) {
    const results::Provenance provenance = results::current_provenance();
    EXPECT_NE(provenance.numacoll.find('('), std::string::npos);
    EXPECT_FALSE(provenance.build_type.empty());
    EXPECT_FALSE(provenance.host.empty());
    ASSERT_EQ(provenance.date.size(), 20u);
    EXPECT_EQ(provenance.date[10], 'T');
    EXPECT_EQ(provenance.date.back(), 'Z');
}

// Traces in the three formats: CSV, Chrome's trace-event format checked
// against its specification, and Paje read back by pajeng's pj_dump when it
// is installed.
#include "results/trace_writer.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>
#include "../support/files.hpp"

using namespace numacoll;

namespace {

// Two nodes of two ranks: rank 0 copies, rank 2 (node 1) receives over the
// network after it, rank 3 waits for a flag.
sched::Schedule two_nodes() {
    sched::Schedule schedule;
    schedule.spec.collective = sched::Collective::bcast;
    schedule.spec.algorithm = "hand";
    schedule.spec.bytes = 64;
    schedule.nodes = 2;
    schedule.ranks = {{0, 0, 0, 0, 0}, {0, 1, 1, 0, 0}, {1, 0, 0, 0, 0}, {1, 1, 1, 0, 0}};
    for (int rank = 0; rank < 4; ++rank) schedule.add_buffer({"b", rank, 64, sched::BufferRole::output, 0});
    sched::Task copy;
    copy.kind = sched::TaskKind::copy;
    copy.thread = 0;
    copy.reads.push_back({0, 0, 64});
    copy.write = {1, 0, 64};
    copy.label = "c0:copy";
    schedule.add_task(copy, {});
    sched::Task net;
    net.kind = sched::TaskKind::net;
    net.thread = 0;
    net.peer = 2;
    net.reads.push_back({0, 0, 64});
    net.write = {2, 0, 64};
    schedule.add_task(net, {0});
    sched::Task flag;
    flag.kind = sched::TaskKind::flag;
    flag.thread = 2;
    flag.peer = 3;
    schedule.add_task(flag, {1});
    return schedule;
}

sched::Timeline timeline() {
    sched::Timeline times;
    times.tasks = {{0, 1000}, {1000, 3500}, {3500, 3600}};
    times.makespan_ns = 3600;
    return times;
}

std::filesystem::path trace_path(const std::string& name) {
    return std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "-" + name);
}

using numacoll::test_support::slurp;

}  // namespace

TEST(TraceWriter, TheExtensionChoosesTheFormat) {
    EXPECT_EQ(results::trace_format_of("t.json"), results::TraceFormat::chrome);
    EXPECT_EQ(results::trace_format_of("t.paje"), results::TraceFormat::paje);
    EXPECT_EQ(results::trace_format_of("t.csv"), results::TraceFormat::csv);
    EXPECT_EQ(results::trace_format_of("/dev/stdout"), results::TraceFormat::csv);
}

TEST(TraceWriter, ChromeTraceFollowsTheTraceEventFormat) {
    const auto path = trace_path("trace.json");
    {
        results::TraceWriter writer(path.string());
        writer.write(two_nodes(), timeline(), "simulated");
        writer.write(two_nodes(), timeline(), "measured");
        writer.finish();
    }
    const auto events = nlohmann::json::parse(slurp(path));
    std::filesystem::remove(path);
    ASSERT_TRUE(events.is_array());
    // The trace-event format: every event has a phase, a process and a name;
    // complete events ("X") a thread, a start and a duration in microseconds.
    std::map<int, std::string> process_names;
    int complete = 0;
    for (const auto& event : events) {
        ASSERT_TRUE(event.contains("ph") && event.contains("pid") && event.contains("name")) << event;
        if (event["ph"] == "M" && event["name"] == "process_name") process_names[event["pid"]] = event["args"]["name"];
        if (event["ph"] != "X") continue;
        ++complete;
        ASSERT_TRUE(event["ts"].is_number() && event["dur"].is_number() && event["tid"].is_number()) << event;
        EXPECT_GE(event["dur"].get<double>(), 0.0);
    }
    EXPECT_EQ(complete, 6);
    // A process per node and source, side by side.
    ASSERT_EQ(process_names.size(), 4u);
    EXPECT_EQ(process_names[0], "bcast hand 64B, simulated, node 0");
    EXPECT_EQ(process_names[3], "bcast hand 64B, measured, node 1");
    // The network task: on node 0's process, rank 0's thread, 1 us to 3.5 us, its arguments.
    const auto net = std::find_if(events.begin(), events.end(), [](const auto& e) { return e["ph"] == "X" && e["cat"] == "net"; });
    ASSERT_NE(net, events.end());
    EXPECT_EQ((*net)["pid"], 0);
    EXPECT_EQ((*net)["tid"], 0);
    EXPECT_DOUBLE_EQ((*net)["ts"].get<double>(), 1.0);
    EXPECT_DOUBLE_EQ((*net)["dur"].get<double>(), 2.5);
    EXPECT_EQ((*net)["args"]["peer"], 2);
    EXPECT_EQ((*net)["args"]["bytes"], 64);
    EXPECT_EQ((*net)["args"]["deps"], nlohmann::json::array({0}));
    // The flag runs on rank 2, which lives on node 1.
    const auto flag = std::find_if(events.begin(), events.end(), [](const auto& e) { return e["ph"] == "X" && e["cat"] == "flag"; });
    EXPECT_EQ((*flag)["pid"], 1);
}

TEST(TraceWriter, PajeIsReadByPajeng) {
    const auto path = trace_path("trace.paje");
    {
        results::TraceWriter writer(path.string());
        writer.write(two_nodes(), timeline());
        writer.write(two_nodes(), timeline());
        writer.finish();
    }
    const std::string text = slurp(path);
    EXPECT_EQ(text.rfind("%EventDef PajeDefineContainerType 0", 0), 0u);
    // Events in time order: the second point starts after the first ends.
    double last = -1;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '%' || line[0] == '0' || line[0] == '1') continue;
        std::istringstream fields(line);
        int kind = 0;
        double time = 0;
        fields >> kind >> time;
        EXPECT_GE(time, last) << line;
        last = time;
    }
    if (std::system("command -v pj_dump > /dev/null 2>&1") != 0) {
        std::filesystem::remove(path);
        GTEST_SKIP() << "pajeng's pj_dump is not installed";
    }
    const auto dump = trace_path("paje-dump.txt");
    ASSERT_EQ(std::system(("pj_dump " + path.string() + " > " + dump.string() + " 2>&1").c_str()), 0) << slurp(dump);
    const std::string dumped = slurp(dump);
    std::filesystem::remove(path);
    std::filesystem::remove(dump);
    // Two points of two nodes of two ranks; rank 0's copy from 0 to 1 us.
    int points = 0, ranks = 0;
    std::istringstream rows(dumped);
    for (std::string row; std::getline(rows, row);) {
        points += row.rfind("Container, 0, point,", 0) == 0;
        ranks += row.find(", rank, ") != std::string::npos && row.rfind("Container", 0) == 0;
    }
    EXPECT_EQ(points, 2);
    EXPECT_EQ(ranks, 8);
    EXPECT_NE(dumped.find("State, rank 0, task, 0.000000, 0.000001, 0.000001, 0.000000, copy"), std::string::npos)
        << dumped;
}

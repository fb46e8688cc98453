#include "schedule/schedule_io.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

TEST(ScheduleIo, TextRoundTripsExactly) {
    for (auto bytes : {0ull, 64ull, 200ull}) {
        auto schedule = test::tree_allreduce("westmere", bytes, 0, 3, {{"strip", "64"}});
        const std::string text = sched::to_text(schedule);
        auto back = sched::schedule_from_text(text);
        EXPECT_TRUE(back == schedule);
        EXPECT_EQ(sched::to_text(back), text);
    }
}

TEST(ScheduleIo, JsonRoundTripsExactly) {
    auto schedule = test::tree_allreduce("magnycours", 128, 0, 2, {{"bcast", "2stage"}});
    const std::string json = sched::to_json(schedule);
    auto back = sched::schedule_from_json(json);
    EXPECT_TRUE(back == schedule);
    EXPECT_EQ(sched::to_json(back), json);
    EXPECT_EQ(sched::to_text(back), sched::to_text(schedule));
}

TEST(ScheduleIo, TheDatatypeTravelsAndOlderFilesHoldDoubles) {
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 96;
    spec.datatype = sched::Datatype::long_int;
    spec.op = sched::ReduceOp::maxloc;
    algo::LayoutOptions layout_options;
    layout_options.ranks_per_node = 3;
    const sched::Schedule schedule = algo::generate_schedule(spec, algo::make_layout(test::machine("westmere"), layout_options));
    const std::string text = sched::to_text(schedule);
    EXPECT_NE(text.find(" op=maxloc datatype=long_int "), std::string::npos) << text.substr(0, 200);
    EXPECT_TRUE(sched::schedule_from_text(text) == schedule);
    EXPECT_TRUE(sched::schedule_from_json(sched::to_json(schedule)) == schedule);
    // Version 3 named no datatype: its elements were doubles.
    std::string version_three = "numacoll-schedule 3\n" + text.substr(text.find('\n') + 1);
    version_three.replace(version_three.find(" op=maxloc datatype=long_int"), 28, " op=sum");
    const sched::Schedule read = sched::schedule_from_text(version_three);
    EXPECT_EQ(read.spec.datatype, sched::Datatype::double_);
    // An operation that does not apply to the datatype is refused with the rule.
    std::string wrong = text;
    wrong.replace(wrong.find("op=maxloc"), 9, "op=sum");
    try {
        (void)sched::schedule_from_text(wrong);
        FAIL() << "sum of long_int pairs was read";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("operation sum does not apply to long_int"), std::string::npos)
            << error.what();
    }
}

TEST(ScheduleIo, TextIsOneTaskPerLine) {
    auto schedule = test::tree_allreduce("westmere", 64);
    const std::string text = sched::to_text(schedule);
    int task_lines = 0;
    for (std::size_t at = text.find("\ntask "); at != std::string::npos; at = text.find("\ntask ", at + 1)) ++task_lines;
    EXPECT_EQ(task_lines, schedule.task_count());
    EXPECT_NE(text.find("provenance topology=westmere"), std::string::npos);
}

TEST(ScheduleIo, DotNamesEveryTask) {
    auto schedule = test::tree_allreduce("westmere", 64);
    const std::string dot = sched::to_dot(schedule);
    EXPECT_EQ(dot.rfind("digraph", 0), 0u);
    EXPECT_NE(dot.find("43 copy r11"), std::string::npos);
    EXPECT_NE(dot.find("0->1"), std::string::npos);
    // Without a machine, tasks are grouped by node and NUMA node (westmere: two).
    EXPECT_NE(dot.find("subgraph cluster_node0 {"), std::string::npos);
    EXPECT_NE(dot.find("label=\"NUMA node 1\""), std::string::npos);
    EXPECT_EQ(dot.find("LLC domain"), std::string::npos);
}

TEST(ScheduleIo, DotClustersTasksByLlcDomain) {
    auto schedule = test::tree_allreduce("westmere", 64);
    std::vector<int> domains(schedule.rank_count());
    for (int rank = 0; rank < schedule.rank_count(); ++rank) domains[rank] = rank % 3;
    const std::string dot = sched::to_dot(schedule, domains);
    for (const char* cluster : {"cluster_node0_llc0 {", "cluster_node0_llc1 {", "cluster_node0_llc2 {"})
        EXPECT_NE(dot.find(cluster), std::string::npos) << cluster;
    // Every task is listed in exactly one cluster, the one of its rank.
    const std::size_t start = dot.find("cluster_node0_llc2 {");
    const std::string llc2 = dot.substr(start, dot.find('}', start) - start);
    for (int id = 0; id < schedule.task_count(); ++id) {
        const bool listed = llc2.find("\n" + std::to_string(id) + ";\n") != std::string::npos;
        EXPECT_EQ(listed, schedule.task(id).thread % 3 == 2) << "task " << id;
    }
    EXPECT_THROW(sched::to_dot(schedule, {0, 1}), Error);
}

TEST(ScheduleIo, BadTextNamesTheLine) {
    EXPECT_THROW(sched::schedule_from_text(""), InputError);
    EXPECT_THROW(sched::schedule_from_text("hello\n"), InputError);
    auto text = sched::to_text(test::tree_allreduce("westmere", 64));
    auto broken = text;
    broken.replace(broken.find("task 5 "), 7, "task 9 ");
    try {
        sched::schedule_from_text(broken);
        FAIL() << "accepted a task out of order";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("line"), std::string::npos);
    }
    broken = text;
    broken.replace(broken.find(" reduce thread"), 14, " blend thread");
    EXPECT_THROW(sched::schedule_from_text(broken), InputError);
}

TEST(ScheduleIo, BadJsonIsAnInputError) {
    EXPECT_THROW(sched::schedule_from_json("{"), InputError);
    EXPECT_THROW(sched::schedule_from_json("{\"format\": \"other\"}"), InputError);
    auto json = sched::to_json(test::tree_allreduce("westmere", 64));
    json.replace(json.find("\"thread\""), 8, "\"thraed\"");
    EXPECT_THROW(sched::schedule_from_json(json), InputError);
}

TEST(ScheduleIo, AnUnknownKeyIsRefusedWithItsLine) {
    // A misspelt key was ignored: 'wrte=' left a copy task without a write.
    const std::string text = sched::to_text(test::tree_allreduce("westmere", 64));
    const auto line_of = [&](std::size_t at) { return 1 + std::count(text.begin(), text.begin() + at, '\n'); };
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {" write=", " wrte="}, {" owner=", " ownr="}, {" package=", " socket="}, {" nodes=", " node="}}) {
        SCOPED_TRACE(to);
        const std::size_t at = text.find(from);
        ASSERT_NE(at, std::string::npos);
        std::string broken = text;
        broken.replace(at, from.size(), to);
        try {
            sched::schedule_from_text(broken);
            FAIL() << "accepted " << to;
        } catch (const InputError& error) {
            const std::string message = error.what();
            EXPECT_NE(message.find(fmt::format("line {}:", line_of(at))), std::string::npos) << message;
            EXPECT_NE(message.find("unknown key '" + to.substr(1, to.size() - 2) + "'"), std::string::npos) << message;
        }
    }
    // The same in JSON, for every kind of object.
    const std::string json = sched::to_json(test::tree_allreduce("westmere", 64));
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"\"write\"", "\"wrte\""}, {"\"owner\"", "\"ownr\""}, {"\"package\"", "\"socket\""},
             {"\"op\"", "\"operation\""}, {"\"nodes\"", "\"node_count\""}}) {
        SCOPED_TRACE(to);
        std::string broken = json;
        broken.replace(broken.find(from), from.size(), to);
        try {
            sched::schedule_from_json(broken);
            FAIL() << "accepted " << to;
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find("unknown key '" + to.substr(1, to.size() - 2) + "'"), std::string::npos)
                << error.what();
        }
    }
}

TEST(ScheduleIo, NumbersMustBeInRange) {
    const auto text = sched::to_text(test::tree_allreduce("westmere", 64));
    auto replace = [&](const std::string& from, const std::string& to) {
        auto changed = text;
        changed.replace(changed.find(from), from.size(), to);
        return changed;
    };
    EXPECT_THROW(sched::schedule_from_text(replace("bytes=64 root", "bytes=-1 root")), InputError);
    EXPECT_THROW(sched::schedule_from_text(replace("deps=1,6", "deps=4294967296")), InputError);
    EXPECT_THROW(sched::schedule_from_text(replace("label=c0:reduce:package+L3:r0\n", "label=bad%2G\n")), InputError);
    EXPECT_THROW(sched::schedule_from_text(replace("deps=1,6", "flops=lots deps=1,6")), InputError);
    // Without a spec line the schedule does not say what it computes.
    const auto spec_at = text.find("spec ");
    auto no_spec = text;
    no_spec.erase(spec_at, text.find('\n', spec_at) - spec_at + 1);
    EXPECT_THROW(sched::schedule_from_text(no_spec), InputError);
}

TEST(ScheduleIo, JsonNumbersAreWholeAndInRange) {
    const auto json = nlohmann::json::parse(sched::to_json(test::tree_allreduce("westmere", 64)));
    // Each used to be truncated (1.5 -> 1) or wrapped (-1 -> 2^64 - 1) on the way in.
    const struct {
        std::function<void(nlohmann::json&)> change;
        std::string expected;
    } cases[] = {
        {[](nlohmann::json& j) { j["spec"]["bytes"] = -1; }, "spec: 'bytes' must be a whole number >= 0 (got -1)"},
        {[](nlohmann::json& j) { j["spec"]["bytes"] = 64.5; }, "spec: 'bytes' must be a whole number >= 0 (got 64.5)"},
        {[](nlohmann::json& j) { j["nodes"] = 1.5; }, "spec: 'nodes' must be a whole number within int range (got 1.5)"},
        {[](nlohmann::json& j) { j["ranks"][0]["pu"] = 4294967296ull; },
         "ranks: 'pu' must be a whole number within int range (got 4294967296)"},
        {[](nlohmann::json& j) { j["buffers"][0]["bytes"] = -64; }, "buffers: 'bytes' must be a whole number >= 0 (got -64)"},
        {[](nlohmann::json& j) { j["tasks"][3]["thread"] = 0.5; },
         "task 3: 'thread' must be a whole number within int range (got 0.5)"},
        {[](nlohmann::json& j) { j["tasks"][3]["deps"] = {1.25}; },
         "task 3: 'deps' must be a whole number within int range (got 1.25)"},
        {[](nlohmann::json& j) { j["tasks"][3]["write"][1] = -8; }, "task 3: 'offset' must be a whole number >= 0 (got -8)"},
        {[](nlohmann::json& j) { j["tasks"][3]["flops"] = -1; }, "task 3: 'flops' must be a number from 0 to 1e18 (got -1)"},
        // A version too big for an int (read as a double by the parser) was converted to int: undefined.
        {[](nlohmann::json& j) { j["version"] = 4.2e20; }, "top level: 'version' must be a whole number within int range (got 4.2e+20)"},
        {[](nlohmann::json& j) { j["version"] = 2.5; }, "top level: 'version' must be a whole number within int range (got 2.5)"},
    };
    for (const auto& item : cases) {
        auto changed = json;
        item.change(changed);
        try {
            sched::schedule_from_json(changed.dump(1));
            ADD_FAILURE() << "accepted: " << item.expected;
        } catch (const InputError& error) {
            EXPECT_EQ(std::string(error.what()), "schedule JSON, " + item.expected);
        }
    }
}

TEST(ScheduleIo, VersionOneFilesLoadTheirWaitingPointsAsWaitTasks) {
    // A barrier's last tasks only wait: version 1 wrote them as compute tasks of no flops.
    auto schedule = test::schedule("westmere", sched::Collective::barrier, "tree", 0, 4, 1, 0);
    int waits = 0;
    for (int id = 0; id < schedule.task_count(); ++id) waits += schedule.task(id).kind == sched::TaskKind::wait;
    ASSERT_GT(waits, 0);
    std::string text = sched::to_text(schedule);
    ASSERT_EQ(text.rfind("numacoll-schedule 4\n", 0), 0u);
    std::string version_one = "numacoll-schedule 1\n" + text.substr(text.find('\n') + 1);
    for (std::size_t at; (at = version_one.find(" wait thread=")) != std::string::npos;)
        version_one.replace(at, 13, " compute thread=");
    EXPECT_TRUE(sched::schedule_from_text(version_one) == schedule);
    // JSON likewise.
    std::string json = sched::to_json(schedule);
    json.replace(json.find("\"version\": 4"), 12, "\"version\": 1");
    for (std::size_t at; (at = json.find("\"kind\": \"wait\"")) != std::string::npos;) json.replace(at, 14, "\"kind\": \"compute\"");
    EXPECT_TRUE(sched::schedule_from_json(json) == schedule);
    // A version this numacoll does not know is refused with what it reads.
    std::string future = "numacoll-schedule 5\n" + text.substr(text.find('\n') + 1);
    try {
        sched::schedule_from_text(future);
        FAIL() << "version 5 was accepted";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("version 1 to 4"), std::string::npos) << error.what();
    }
}

TEST(ScheduleIo, RanksSayWhetherTheyAreThreadsOrProcesses) {
    // Open MPI's algorithms run between processes, HPDC'13's between threads.
    const auto processes = test::schedule("westmere", sched::Collective::bcast, "binomial", 64, 4, 1, 0);
    const auto threads = test::schedule("westmere", sched::Collective::bcast, "tree", 64, 4, 1, 0);
    EXPECT_EQ(processes.rank_kind, sched::RankKind::process);
    EXPECT_EQ(threads.rank_kind, sched::RankKind::thread);
    const std::string text = sched::to_text(processes);
    EXPECT_NE(text.find(" ranks=processes\n"), std::string::npos) << text;
    EXPECT_TRUE(sched::schedule_from_text(text) == processes);
    EXPECT_TRUE(sched::schedule_from_json(sched::to_json(processes)) == processes);
    // Version 2 had no ranks=: its ranks were threads.
    std::string version_two = "numacoll-schedule 2\n" + text.substr(text.find('\n') + 1);
    version_two.erase(version_two.find(" ranks=processes"), 16);
    EXPECT_EQ(sched::schedule_from_text(version_two).rank_kind, sched::RankKind::thread);
}

TEST(ScheduleIo, ComputeTasksKeepTheirFlops) {
    auto schedule = test::schedule("westmere", sched::Collective::barrier, "tree", 0, 2, 1, 0);
    test::add_compute_after_last(schedule, 2.5e6);
    const std::string text = sched::to_text(schedule);
    EXPECT_NE(text.find(" compute thread="), std::string::npos) << text;
    EXPECT_NE(text.find(" flops=2500000 "), std::string::npos) << text;
    EXPECT_TRUE(sched::schedule_from_text(text) == schedule);
    EXPECT_TRUE(sched::schedule_from_json(sched::to_json(schedule)) == schedule);
}

TEST(ScheduleIo, AFileMayHoldSeveralSchedulesOneAfterAnother) {
    const auto allreduce = test::tree_allreduce("westmere", 64);
    const auto bcast = test::schedule("westmere", sched::Collective::bcast, "binomial", 256, 0, 1, 3);
    const std::string text = sched::to_text(allreduce) + sched::to_text(bcast) + sched::to_text(allreduce);
    const auto from_text = sched::schedules_from_text(text);
    ASSERT_EQ(from_text.size(), 3u);
    EXPECT_TRUE(from_text[0] == allreduce);
    EXPECT_TRUE(from_text[1] == bcast);
    EXPECT_TRUE(from_text[2] == allreduce);
    const std::string json = "[" + sched::to_json(allreduce) + "," + sched::to_json(bcast) + "]";
    const auto from_json = sched::schedules_from_json(json);
    ASSERT_EQ(from_json.size(), 2u);
    EXPECT_TRUE(from_json[1] == bcast);
    // A lone schedule reads as a list of one; the single readers want exactly one.
    EXPECT_EQ(sched::schedules_from_text(sched::to_text(bcast)).size(), 1u);
    EXPECT_EQ(sched::schedules_from_json(sched::to_json(bcast)).size(), 1u);
    try {
        (void)sched::schedule_from_text(text);
        ADD_FAILURE() << "three schedules read as one";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("holds 3 schedules"), std::string::npos) << error.what();
    }
    EXPECT_THROW((void)sched::schedule_from_json(json), InputError);
    EXPECT_THROW((void)sched::schedules_from_json("[]"), InputError);
}

TEST(ScheduleIo, AnErrorInALaterScheduleNamesItsLine) {
    const std::string first = sched::to_text(test::tree_allreduce("westmere", 64));
    const auto first_lines = std::count(first.begin(), first.end(), '\n');
    std::string second = sched::to_text(test::tree_allreduce("westmere", 64));
    second.replace(second.find(" reduce thread"), 14, " blend thread");
    try {
        (void)sched::schedules_from_text(first + second);
        ADD_FAILURE() << "a bad task kind in the second schedule was read";
    } catch (const InputError& error) {
        // The line number counts from the top of the file, not of the second schedule.
        const auto second_lines_before = std::count(second.begin(), second.begin() + second.find(" blend"), '\n');
        EXPECT_NE(std::string(error.what()).find(fmt::format("line {}", first_lines + second_lines_before + 1)),
                  std::string::npos)
            << error.what();
    }
    try {
        (void)sched::schedules_from_text(first + "numacoll-schedule 3\n");
        ADD_FAILURE() << "a schedule without spec was read";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find(fmt::format("the one from line {}", first_lines + 1)), std::string::npos)
            << error.what();
    }
}

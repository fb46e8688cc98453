// The process form of a schedule (schedule/process_form.hpp): what another
// rank touches moves into the node's shared segment, private buffers are
// touched only by their owners, and the result is proven again. Every
// algorithm's process form is proven on every machine in
// tests/algorithms/algorithm_proofs_test.cpp; here, its shape.
#include "schedule/process_form.hpp"

#include <gtest/gtest.h>
#include <fmt/format.h>

#include <set>

#include "common/error.hpp"
#include "schedule/schedule_io.hpp"
#include "schedule/symbolic_checker.hpp"
#include "schedule/validate_schedule.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

int count_labelled(const sched::Schedule& schedule, const std::string& label) {
    int count = 0;
    for (int id = 0; id < schedule.task_count(); ++id) count += schedule.task(id).label.text() == label;
    return count;
}

}  // namespace

TEST(ProcessForm, ATreeAllreduceCopiesInAndOutThroughTheSegment) {
    const sched::Schedule threads = test::tree_allreduce("westmere", 4096, 6);
    const sched::Schedule processes = sched::process_form(threads);
    EXPECT_EQ(processes.rank_kind, sched::RankKind::shared_process);
    EXPECT_TRUE(sched::check_schedule(processes).holds);
    // A binary tree of 6: ranks 1, 3 and 5 are leaves, whose inputs their
    // parents read (a copy-in and a flag each); ranks 0, 2 and 4 fold into
    // their outputs, which their parents or, for the root's result, all
    // read (a copy-out each).
    EXPECT_EQ(count_labelled(processes, "copy-in"), 3);
    EXPECT_EQ(count_labelled(processes, "copy-in-ready"), 3);
    EXPECT_EQ(count_labelled(processes, "copy-out"), 3);
    // The user's buffers stay private, and only their owners touch them.
    for (int b = 0; b < static_cast<int>(processes.buffers().size()); ++b) {
        const sched::Buffer& buffer = processes.buffer(b);
        if (buffer.role != sched::BufferRole::temp) {
            EXPECT_FALSE(buffer.shared) << buffer.name;
        }
    }
    for (int id = 0; id < processes.task_count(); ++id) {
        const sched::Task& task = processes.task(id);
        for (const sched::Range& read : task.reads)
            EXPECT_TRUE(processes.buffer(read.buffer).shared || processes.buffer(read.buffer).owner == task.thread);
        if (task.write.buffer >= 0) {  // one node: no net task, whose write would be its peer's
            EXPECT_TRUE(processes.buffer(task.write.buffer).shared ||
                        processes.buffer(task.write.buffer).owner == task.thread);
        }
    }
    // The thread form's tasks are all there, in their order, but the
    // leaves' first flags ("my input is in place"): their parents wait for
    // the copy-in-ready flags, which say as much.
    EXPECT_EQ(processes.task_count(), threads.task_count() + 3 + 3 + 3 - 3);
}

// A wait for a flag that its rank raises first is dropped only where the
// waiting task also waits for that rank's copy-in: with single copy the
// readers have no copy-in to wait for, and the flag stays.
TEST(ProcessForm, AFirstFlagIsLeftOutOnlyWhereACopyInSaysAsMuch) {
    const sched::Schedule threads = test::schedule("westmere", sched::Collective::allreduce, "dissemination", 8, 2, 1, 0);
    const auto first_flags = [](const sched::Schedule& schedule) {
        int count = 0;
        for (int id = 0; id < schedule.task_count(); ++id)
            if (schedule.task(id).kind == sched::TaskKind::flag && schedule.predecessors(id).empty()) ++count;
        return count;
    };
    ASSERT_EQ(first_flags(threads), 2);
    const sched::Schedule processes = sched::process_form(threads);
    EXPECT_EQ(first_flags(processes), 0);
    for (int id = 0; id < processes.task_count(); ++id)
        if (processes.task(id).kind == sched::TaskKind::reduce) {
            const std::vector<int> waits = processes.predecessors(id);
            ASSERT_EQ(waits.size(), 1u);
            EXPECT_EQ(processes.task(waits[0]).label.text(), "copy-in-ready");
        }
    EXPECT_TRUE(sched::check_schedule(processes).holds);

    const sched::Schedule bcast = test::schedule("westmere", sched::Collective::bcast, "tree", 4096, 4, 1, 0);
    ASSERT_EQ(first_flags(bcast), 3);  // the root tells each child its buffer is in place
    EXPECT_EQ(first_flags(sched::process_form(bcast)), 0);
    const sched::Schedule single_copy = sched::process_form(bcast, {.single_copy = true});
    EXPECT_EQ(first_flags(single_copy), 3);
    EXPECT_TRUE(sched::check_schedule(single_copy).holds);
}

TEST(ProcessForm, EveryCollectiveOfThreadsOnSeveralNodesIsProven) {
    using C = sched::Collective;
    for (const auto& [collective, algorithm] : std::vector<std::pair<C, std::string>>{
             {C::allreduce, "tree"}, {C::allreduce, "dissemination"}, {C::allreduce, "tiled"}, {C::reduce, "tree"},
             {C::bcast, "tree"}, {C::barrier, "tree"}, {C::barrier, "dissemination"}})
        for (int nodes : {1, 3})
            for (int ranks : {1, 2, 5}) {
                SCOPED_TRACE(testing::Message() << sched::to_string(collective) << " " << algorithm << ", " << nodes
                                                << " nodes x " << ranks);
                const std::uint64_t bytes = collective == C::barrier ? 0 : 200;
                const sched::Schedule threads =
                    test::schedule("magnycours", collective, algorithm, bytes, ranks, nodes, (ranks * nodes) / 2);
                const sched::CheckReport report = sched::check_schedule(sched::process_form(threads));
                EXPECT_TRUE(report.holds) << report.problems.front();
            }
}

TEST(ProcessForm, TouchingAnotherRanksPrivateBufferIsRefused) {
    sched::Schedule processes = sched::process_form(test::tree_allreduce("westmere", 64, 0, 2));
    // Rank 1 reads rank 0's private input: a thread may, a process may not.
    sched::Schedule broken = test::rebuild(processes, [&](int, sched::Task& task, std::vector<int>&) {
        if (task.thread == 1 && task.kind == sched::TaskKind::copy && !task.reads.empty())
            task.reads[0].buffer = processes.input_of(0);
        return true;
    });
    const auto problems = sched::find_schedule_problems(broken);
    ASSERT_FALSE(problems.empty());
    EXPECT_NE(problems.front().find("rank 1 reads rank 0's private buffer"), std::string::npos) << problems.front();
}

TEST(ProcessForm, RoundTripsAndRefusesAProcessFormAlready) {
    const sched::Schedule processes = sched::process_form(test::tree_allreduce("westmere", 256, 0, 3));
    const std::string text = sched::to_text(processes);
    EXPECT_NE(text.find("ranks=processes-sharing-memory"), std::string::npos);
    EXPECT_NE(text.find(" shared=1"), std::string::npos);
    EXPECT_TRUE(sched::schedule_from_text(text) == processes);
    EXPECT_TRUE(sched::schedule_from_json(sched::to_json(processes)) == processes);
    EXPECT_THROW((void)sched::process_form(processes), UsageError);
}

// Open MPI's flat algorithms hand over by copies priced as messages; in
// their process form those copies run through the segment, and no rank
// touches another's private buffer (validated, then proven).
TEST(ProcessForm, MessagePassingRanksGoThroughTheSegmentToo) {
    for (const auto& [collective, algorithm] :
         std::vector<std::pair<sched::Collective, std::string>>{{sched::Collective::bcast, "binomial"},
                                                                {sched::Collective::reduce, "linear"},
                                                                {sched::Collective::reduce, "hier-chain"}}) {
        SCOPED_TRACE(algorithm);
        const sched::Schedule messages = test::schedule("westmere", collective, algorithm, 200, 4, 2, 3);
        ASSERT_EQ(messages.rank_kind, sched::RankKind::process);
        const sched::Schedule processes = sched::process_form(messages);
        EXPECT_EQ(processes.rank_kind, sched::RankKind::shared_process);
        EXPECT_TRUE(sched::find_schedule_problems(processes).empty());
        const sched::CheckReport report = sched::check_schedule(processes);
        EXPECT_TRUE(report.holds) << report.problems.front();
        bool through_segment = false;
        for (const sched::Buffer& buffer : processes.buffers()) through_segment |= buffer.shared;
        EXPECT_TRUE(through_segment);
    }
}

// Single copy: the root's input of a 1-stage broadcast, which every other
// rank only copies from, is exposed instead of copied into the segment;
// each reader releases it after its copy, and the root leaves only after
// every release. Proven, and round-tripped.
TEST(ProcessForm, SingleCopyExposesAnInputThatOthersOnlyCopyFrom) {
    const sched::Schedule threads =
        test::schedule("westmere", sched::Collective::bcast, "tree", 4096, 6, 1, 0, {{"bcast", "1stage"}});
    const sched::Schedule processes = sched::process_form(threads, {.single_copy = true});
    ASSERT_TRUE(processes.buffer(processes.input_of(0)).exposed);
    EXPECT_EQ(count_labelled(processes, "copy-in"), 0);
    EXPECT_EQ(count_labelled(processes, "single-copy-read"), 5);
    EXPECT_EQ(count_labelled(processes, "single-copy-released"), 1);
    const int last = processes.task_count() - 1;
    EXPECT_EQ(processes.task(last).thread, 0);
    EXPECT_EQ(processes.task(last).kind, sched::TaskKind::wait);
    EXPECT_TRUE(sched::find_schedule_problems(processes).empty());
    const sched::CheckReport report = sched::check_schedule(processes);
    EXPECT_TRUE(report.holds) << report.problems.front();
    const std::string text = sched::to_text(processes);
    EXPECT_NE(text.find(" exposed=1"), std::string::npos);
    EXPECT_TRUE(sched::schedule_from_text(text) == processes);
    EXPECT_TRUE(sched::schedule_from_json(sched::to_json(processes)) == processes);
}

// An input that another rank reduces from is not exposed (the kernel only
// copies): the tree allreduce's leaves still copy in.
TEST(ProcessForm, SingleCopyLeavesInputsThatOthersReduceInTheSegment) {
    const sched::Schedule processes =
        sched::process_form(test::tree_allreduce("westmere", 4096, 6), {.single_copy = true});
    for (const sched::Buffer& buffer : processes.buffers()) EXPECT_FALSE(buffer.exposed) << buffer.name;
    EXPECT_EQ(count_labelled(processes, "copy-in"), 3);
}

// Without its releases, a reader could still copy from the root's memory
// after the root left and reused it: validation refuses that, and an
// exposed buffer among threads.
TEST(ProcessForm, SingleCopyWithoutReleaseOrAmongThreadsIsRefused) {
    const sched::Schedule processes = sched::process_form(
        test::schedule("westmere", sched::Collective::bcast, "tree", 4096, 4, 1, 0, {{"bcast", "1stage"}}),
        {.single_copy = true});
    const sched::Schedule unreleased = test::rebuild(processes, [](int, sched::Task& task, std::vector<int>&) {
        return task.label.text() != "single-copy-released" && task.label.text() != "single-copy-read";
    });
    auto problems = sched::find_schedule_problems(unreleased);
    ASSERT_FALSE(problems.empty());
    EXPECT_NE(problems.front().find("exposed buffer"), std::string::npos) << problems.front();

    const sched::Schedule threads =
        test::schedule("westmere", sched::Collective::bcast, "tree", 4096, 4, 1, 0, {{"bcast", "1stage"}});
    std::string text = sched::to_text(threads);
    const std::string input_line = fmt::format("\nbuffer {} ", threads.input_of(0));
    const std::size_t line_end = text.find('\n', text.find(input_line) + 1);
    text.insert(line_end, " exposed=1");
    problems = sched::find_schedule_problems(sched::schedule_from_text(text));
    ASSERT_FALSE(problems.empty());
    EXPECT_NE(problems.front().find("is exposed"), std::string::npos) << problems.front();
}

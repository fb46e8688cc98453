// The public API (include/numacoll), through libnumacoll.so only: what it
// returns agrees with itself and with the generators' own contract, and
// what a user gets wrong is refused with numacoll's errors.
#include <gtest/gtest.h>

#include <numacoll/numacoll.hpp>

#include <string>

namespace {

numacoll::CollectiveSpec allreduce(std::uint64_t bytes) {
    return {.collective = "allreduce", .algorithm = "tree", .bytes = bytes};
}

}  // namespace

TEST(Api, AMachineAndItsLayoutSayWhatTheyAre) {
    const numacoll::Machine machine = numacoll::Machine::load("westmere");
    EXPECT_EQ(machine.cores(), 12);
    EXPECT_EQ(machine.packages(), 2);
    EXPECT_FALSE(machine.is_this_system());
    const numacoll::Layout layout = numacoll::Layout::place(machine, {.nodes = 3, .ranks_per_node = 5});
    EXPECT_EQ(layout.ranks(), 15);
    EXPECT_EQ(layout.rank(14).node, 2);
    EXPECT_EQ(layout.machine().name(), machine.name());
    EXPECT_THROW(layout.rank(15), numacoll::UsageError);
    EXPECT_THROW(numacoll::Layout::place(machine, {.ranks_per_node = 25}), numacoll::UsageError);
    EXPECT_THROW(numacoll::Machine::load("/nonexistent/machine.xml"), numacoll::UsageError);
    EXPECT_EQ(numacoll::Params::for_machine(machine).origin(), "bundled:westmere");
    EXPECT_TRUE(numacoll::Params::for_machine(numacoll::Machine::load("synthetic:Package:2 Core:3")).generic());
}

// The fast path (planning beside generation) gives the time the generated
// schedule gives on its own, and the model is there.
TEST(Api, TheFastPathAgreesWithTheGeneratedSchedule) {
    const numacoll::Machine machine = numacoll::Machine::load("westmere");
    const numacoll::Params params = numacoll::Params::for_machine(machine);
    const numacoll::Layout layout = numacoll::Layout::place(machine, {.nodes = 2});
    const numacoll::Simulation fast = numacoll::simulate(allreduce(65536), layout, params);
    const numacoll::Schedule schedule = numacoll::Schedule::generate(allreduce(65536), layout);
    const numacoll::Simulation plain = numacoll::simulate(schedule, machine, params);
    EXPECT_GT(fast.row.time_ns, 0);
    EXPECT_EQ(fast.row.time_ns, plain.row.time_ns);
    EXPECT_EQ(fast.row.tasks, schedule.tasks());
    EXPECT_EQ(fast.timeline.tasks.size(), static_cast<std::size_t>(schedule.tasks()));
    EXPECT_EQ(fast.row.ranks, 24);
    ASSERT_TRUE(fast.row.model_ns.has_value());
    EXPECT_EQ(*fast.row.model_ns, *numacoll::model_ns(allreduce(65536), layout, params));
    EXPECT_TRUE(schedule.prove().holds);
    // Text and JSON read back into the same schedule.
    EXPECT_EQ(numacoll::Schedule::from_json(schedule.to_json()).to_text(), schedule.to_text());
    EXPECT_EQ(schedule.spec().options.at("arity"), "2");  // the defaults, filled in
}

TEST(Api, BadSpecsAreRefusedWithTheirReason) {
    const numacoll::Machine machine = numacoll::Machine::load("westmere");
    const numacoll::Layout layout = numacoll::Layout::place(machine);
    numacoll::CollectiveSpec spec = allreduce(64);
    spec.algorithm = "no-such";
    EXPECT_THROW(numacoll::Schedule::generate(spec, layout), numacoll::UsageError);
    spec = allreduce(64);
    spec.datatype = "quaternion";
    EXPECT_THROW(numacoll::Schedule::generate(spec, layout), numacoll::UsageError);
    spec = allreduce(64);
    spec.options["arty"] = "2";
    try {
        numacoll::model_ns(spec, layout, numacoll::Params::for_machine(machine));
        FAIL() << "an unknown option was accepted";
    } catch (const numacoll::UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("arty"), std::string::npos) << error.what();
    }
    // Calibration and execution measure the machine they run on.
    EXPECT_THROW(numacoll::Params::calibrate(machine, true), numacoll::UsageError);
    EXPECT_THROW(numacoll::execute(numacoll::Schedule::generate(allreduce(64), layout), machine), numacoll::UsageError);
}

// Every rank reduces into rank 0, which hands the sum back: proven when
// every hand-over is a flag, refused when the hand-back is not.
numacoll::Schedule linear_allreduce(const numacoll::Layout& layout, bool hand_back) {
    numacoll::ScheduleWriter writer(layout, {.collective = "allreduce", .algorithm = "linear", .bytes = 64});
    const int ranks = layout.ranks();
    std::vector<int> inputs, outputs, arrivals;
    for (int rank = 0; rank < ranks; ++rank) inputs.push_back(writer.add_input(rank, 64));
    for (int rank = 0; rank < ranks; ++rank) outputs.push_back(writer.add_output(rank, 64));
    std::vector<numacoll::Range> all;
    for (int rank = 0; rank < ranks; ++rank) {
        all.push_back({inputs[rank], 0, 64});
        if (rank > 0) arrivals.push_back(writer.flag(rank, 0, {}));
    }
    const int sum = writer.reduce(0, all, {outputs[0], 0, 64}, arrivals);
    std::vector<int> copied;
    for (int rank = 1; rank < ranks; ++rank) {
        const int ready = hand_back ? writer.flag(0, rank, {sum}) : sum;
        const int copy = writer.copy(rank, {outputs[0], 0, 64}, {outputs[rank], 0, 64}, {ready});
        copied.push_back(writer.flag(rank, 0, {copy}));
    }
    if (!copied.empty()) writer.wait(0, copied);
    return writer.finish();
}

TEST(Api, AGeneratorOfOnesOwnIsProvenOrRefused) {
    const numacoll::Machine machine = numacoll::Machine::load("synthetic:Package:2 Core:3");
    for (int ranks = 1; ranks <= 6; ++ranks) {
        const numacoll::Layout layout = numacoll::Layout::place(machine, {.ranks_per_node = ranks});
        const numacoll::Proof proof = linear_allreduce(layout, true).prove();
        EXPECT_TRUE(proof.holds) << ranks << " ranks: " << (proof.problems.empty() ? "" : proof.problems.front());
        EXPECT_EQ(proof.outputs_checked, ranks);
    }
    const numacoll::Proof proof = linear_allreduce(numacoll::Layout::place(machine), false).prove();
    EXPECT_FALSE(proof.holds);
    EXPECT_FALSE(proof.problems.empty());
}

TEST(Api, AWritersArgumentsAreChecked) {
    const numacoll::Layout layout = numacoll::Layout::place(numacoll::Machine::load("synthetic:Package:1 Core:2"));
    numacoll::ScheduleWriter writer(layout, {.collective = "bcast", .algorithm = "mine", .bytes = 8});
    EXPECT_THROW(writer.add_input(2, 8), numacoll::UsageError);
    const int input = writer.add_input(0, 8);
    EXPECT_THROW(writer.copy(0, {input, 0, 8}, {5, 0, 8}, {}), numacoll::UsageError);
    EXPECT_THROW(writer.flag(0, 1, {0}), numacoll::UsageError);  // no task 0 yet
    EXPECT_THROW(writer.flag(0, -1, {}), numacoll::UsageError);
    writer.flag(0, 1, {});
    EXPECT_EQ(writer.finish().tasks(), 1);
    EXPECT_EQ(writer.finish().tasks(), 0);  // it starts again
}

TEST(Api, TheLibraryIsTheVersionItsHeadersSay) {
    EXPECT_STREQ(numacoll::library_version(), numacoll::version_and_revision);
    const std::vector<numacoll::AlgorithmDescription> all = numacoll::algorithms();
    ASSERT_FALSE(all.empty());
    EXPECT_EQ(all.front().collective, "allreduce");
    EXPECT_EQ(all.front().name, "tree");
    EXPECT_TRUE(all.front().has_model);
    numacoll::set_progress_reports(true);  // exported: a program can silence or restore the reports

}

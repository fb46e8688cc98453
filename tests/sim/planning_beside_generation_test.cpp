// Planning beside generation (sim/planning_beside_generation.hpp) gives
// plan_tasks' plans: made on the second thread when it followed the whole
// schedule, made again after generation when it could not.
#include "sim/planning_beside_generation.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;

namespace {

void expect_same_plans(const sim::TaskPlans& got, const sim::TaskPlans& expected) {
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t task = 0; task < got.size(); ++task) {
        const auto a = got[task].steps;
        const auto b = expected[task].steps;
        ASSERT_EQ(a.size(), b.size()) << "task " << task;
        for (std::size_t at = 0; at < a.size(); ++at) {
            SCOPED_TRACE("task " + std::to_string(task) + " step " + std::to_string(at));
            EXPECT_EQ(a[at].kind, b[at].kind);
            EXPECT_EQ(a[at].progress_of, b[at].progress_of);
            EXPECT_EQ(a[at].from, b[at].from);
            EXPECT_EQ(a[at].to, b[at].to);
            EXPECT_EQ(a[at].amount, b[at].amount);  // the same arithmetic: equal, not near
            EXPECT_EQ(a[at].source_ready_after, b[at].source_ready_after);
            EXPECT_EQ(a[at].fallback_from, b[at].fallback_from);
        }
    }
}

sched::Buffer buffer(int owner, std::uint64_t bytes, sched::BufferRole role) {
    return {"b" + std::to_string(owner), owner, bytes, role, -1};
}

// Buffers 0 and 1 of a schedule that has none yet: `owner`'s input and output.
void add_input_and_output(sched::Schedule& schedule, int owner, std::uint64_t bytes) {
    schedule.add_buffer(buffer(owner, bytes, sched::BufferRole::input));
    schedule.add_buffer(buffer(owner, bytes, sched::BufferRole::output));
}

sched::Task copy(int thread, int from, int to, std::uint64_t bytes) {
    sched::Task task;
    task.kind = sched::TaskKind::copy;
    task.thread = thread;
    task.reads = {{from, 0, bytes}};
    task.write = {to, 0, bytes};
    return task;
}

// Two ranks of one westmere node, one per socket; each case adds its own buffers and tasks.
struct Small {
    std::shared_ptr<const topo::Machine> machine = test::load("westmere");
    sim::PlatformModel platform{machine, costs::params_for(*machine, ""), 1};

    sched::Schedule start() const {
        sched::Schedule schedule;
        schedule.ranks = {{0, 0, 0, 0, 0}, {0, 6, 6, 1, 1}};
        return schedule;
    }
};

}  // namespace

// Every algorithm on every bundled machine, 1 to 16 nodes, two sizes (and
// one schedule of 41,856 tasks, which fills the batches the generating
// thread may queue): the plans equal plan_tasks', made beside generation.
TEST(PlanningBesideGeneration, EveryAlgorithmGetsPlanTasksPlansMadeBesideGeneration) {
    struct Shape {
        const char* machine;
        int nodes;
    };
    for (const Shape shape : {Shape{"westmere", 1}, Shape{"magnycours", 3}, Shape{"haswell", 1},
                              Shape{"opteron8218", 16}}) {
        const auto machine = test::load(shape.machine);
        algo::LayoutOptions options;
        options.nodes = shape.nodes;
        const algo::Layout layout = algo::make_layout(machine, options);
        const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), shape.nodes);
        for (const auto& info : algo::algorithm_registry()) {
            if (!algo::runs_on(info, layout.size())) continue;
            for (const std::uint64_t bytes : {std::uint64_t{4096}, std::uint64_t{3} << 20}) {
                SCOPED_TRACE(std::string(shape.machine) + " " + std::to_string(shape.nodes) + " node(s) " +
                             sched::to_string(info.collective) + " " + info.name + " " + std::to_string(bytes));
                sched::CollectiveSpec spec;
                spec.collective = info.collective;
                spec.algorithm = info.name;
                spec.bytes = info.collective == sched::Collective::barrier ? 0 : bytes;
                spec.root = layout.size() - 1;
                sim::PlanningBesideGeneration planning(platform, sim::ProgressStrategy::manual, info.ranks, 0);
                const sched::Schedule schedule = algo::generate_schedule(spec, layout, &planning);
                const sim::TaskPlans plans = planning.finish(schedule);
                EXPECT_TRUE(planning.planned_beside());
                expect_same_plans(plans, sim::plan_tasks(schedule, platform));
            }
        }
    }
    const auto machine = test::load("magnycours");
    algo::LayoutOptions options;
    options.nodes = 4;
    const algo::Layout layout = algo::make_layout(machine, options);
    const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), 4);
    sched::CollectiveSpec spec;
    spec.algorithm = "tiled";
    spec.bytes = std::uint64_t{16} << 20;
    sim::PlanningBesideGeneration planning(platform, sim::ProgressStrategy::manual, sched::RankKind::thread, 1000);
    const sched::Schedule schedule = algo::generate_schedule(spec, layout, &planning);
    ASSERT_GT(static_cast<std::size_t>(schedule.task_count()),
              sim::PlanningBesideGeneration::batch_tasks * (sim::PlanningBesideGeneration::max_batches_waiting + 1));
    const sim::TaskPlans plans = planning.finish(schedule);
    EXPECT_TRUE(planning.planned_beside());
    expect_same_plans(plans, sim::plan_tasks(schedule, platform));
}

TEST(PlanningBesideGeneration, AFollowedHandBuiltScheduleIsPlannedBeside) {
    const Small small;
    sim::PlanningBesideGeneration planning(small.platform, sim::ProgressStrategy::manual, sched::RankKind::thread, 0);
    sched::Schedule schedule = small.start();
    {
        const sched::ScheduleWatch watch(&planning);
        schedule.add_buffer(buffer(0, 64, sched::BufferRole::input));
        schedule.add_buffer(buffer(1, 64, sched::BufferRole::input));
        schedule.add_task(copy(0, 1, 0, 64), {});
        schedule.add_buffer(buffer(0, 64, sched::BufferRole::output));  // a later output changes nothing
        schedule.add_task(copy(0, 0, 2, 64), {0});
    }
    const sim::TaskPlans plans = planning.finish(schedule);
    EXPECT_TRUE(planning.planned_beside());
    expect_same_plans(plans, sim::plan_tasks(schedule, small.platform));
}

// Each case makes plans beside generation that would not be plan_tasks'
// for the finished schedule: finish() plans it again, and the plans are
// plan_tasks'.
TEST(PlanningBesideGeneration, WhatItCannotFollowIsPlannedAfterGeneration) {
    const Small small;
    auto check = [&](const char* what, auto&& build) {
        SCOPED_TRACE(what);
        sim::PlanningBesideGeneration planning(small.platform, sim::ProgressStrategy::manual, sched::RankKind::thread,
                                               0);
        sched::Schedule finished = build(planning);
        const sim::TaskPlans plans = planning.finish(finished);
        EXPECT_FALSE(planning.planned_beside());
        expect_same_plans(plans, sim::plan_tasks(finished, small.platform));
    };
    check("an input added after the first task (placed before any task)", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule schedule = small.start();
        const sched::ScheduleWatch watch(&p);
        add_input_and_output(schedule, 0, 64);
        schedule.add_task(copy(0, 0, 1, 64), {});
        schedule.add_buffer(buffer(1, 64, sched::BufferRole::input));
        schedule.add_task(copy(0, 2, 1, 64), {0});
        return schedule;
    });
    check("an application task (planned with protocols and progress)", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule schedule = small.start();
        const sched::ScheduleWatch watch(&p);
        add_input_and_output(schedule, 0, 64);
        schedule.add_task(copy(0, 0, 1, 64), {});
        sched::Task wait;
        wait.kind = sched::TaskKind::wait;
        wait.application = true;
        schedule.add_task(wait, {0});
        return schedule;
    });
    check("another schedule added to while it is followed", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule schedule = small.start();
        sched::Schedule other = small.start();
        const sched::ScheduleWatch watch(&p);
        schedule.add_buffer(buffer(0, 64, sched::BufferRole::input));
        other.add_buffer(buffer(1, 64, sched::BufferRole::input));
        schedule.add_buffer(buffer(0, 64, sched::BufferRole::output));
        schedule.add_task(copy(0, 0, 1, 64), {});
        return schedule;
    });
    check("a schedule moved while it is generated", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule schedule = small.start();
        const sched::ScheduleWatch watch(&p);
        add_input_and_output(schedule, 0, 64);
        sched::Schedule moved = std::move(schedule);
        moved.add_task(copy(0, 0, 1, 64), {});
        return moved;
    });
    check("a finished schedule that is not the one followed, of the same size", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule followed = small.start();
        {
            const sched::ScheduleWatch watch(&p);
            add_input_and_output(followed, 0, 64);
            followed.add_task(copy(0, 0, 1, 64), {});
        }
        sched::Schedule other = small.start();  // not watched: rank 1's data, the same counts
        add_input_and_output(other, 1, 4096);
        other.add_task(copy(1, 0, 1, 4096), {});
        return other;
    });
    check("ranks changed after the first addition", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule schedule = small.start();
        const sched::ScheduleWatch watch(&p);
        add_input_and_output(schedule, 0, 64);
        schedule.ranks[0].core = 3;
        schedule.add_task(copy(0, 0, 1, 64), {});
        return schedule;
    });
    check("a schedule on more nodes than the platform's", [&](sim::PlanningBesideGeneration& p) {
        sched::Schedule schedule = small.start();
        schedule.nodes = 2;
        schedule.ranks[1].node = 1;
        const sched::ScheduleWatch watch(&p);
        add_input_and_output(schedule, 0, 64);
        schedule.add_task(copy(0, 0, 1, 64), {});
        schedule.nodes = 1;  // what finish() sees: planned again, on the platform's node
        schedule.ranks[1].node = 0;
        return schedule;
    });
}

// A task the planner refuses (a buffer that does not exist) fails on the
// planning thread; finish() plans the schedule again and throws what
// plan_tasks throws.
TEST(PlanningBesideGeneration, APlanningErrorIsPlanTasksError) {
    const Small small;
    sim::PlanningBesideGeneration planning(small.platform, sim::ProgressStrategy::manual, sched::RankKind::thread, 0);
    sched::Schedule schedule = small.start();
    {
        const sched::ScheduleWatch watch(&planning);
        schedule.add_buffer(buffer(0, 64, sched::BufferRole::input));
        schedule.add_task(copy(0, 0, 7, 64), {});
    }
    EXPECT_THROW(sim::plan_tasks(schedule, small.platform), Error);
    EXPECT_THROW(planning.finish(schedule), Error);
    EXPECT_FALSE(planning.planned_beside());
}

// Generation that fails half-way leaves the planning thread to be stopped
// by the destructor, with batches queued and the generating thread gone.
TEST(PlanningBesideGeneration, FailedGenerationStopsThePlanningThread) {
    const Small small;
    for (int tasks : {0, 3, 50000}) {
        EXPECT_THROW(
            {
                sim::PlanningBesideGeneration planning(small.platform, sim::ProgressStrategy::manual,
                                                       sched::RankKind::thread, 0);
                sched::Schedule schedule = small.start();
                const sched::ScheduleWatch watch(&planning);
                add_input_and_output(schedule, 0, 64);
                for (int id = 0; id < tasks; ++id) schedule.add_task(copy(0, 0, 1, 64), {});
                throw std::runtime_error("generation failed");
            },
            std::runtime_error)
            << tasks << " tasks";
    }
}

// overlap::compose: the collective unchanged, one application chain per
// rank (issue, compute grains with tests between them, wait), and every
// composed schedule proven by the symbolic checker on many shapes.
#include "overlap/compose.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/error.hpp"
#include "schedule/schedule_io.hpp"
#include "schedule/symbolic_checker.hpp"
#include "schedule/validate_schedule.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

constexpr double flops_per_ns = 4;

// The application tasks of `rank`, in id order.
std::vector<int> application_of(const sched::Schedule& schedule, int rank) {
    std::vector<int> ids;
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).application && schedule.task(id).thread == rank) ids.push_back(id);
    return ids;
}

}  // namespace

TEST(Compose, KeepsTheCollectiveAndAddsOneChainPerRank) {
    const sched::Schedule collective = test::tree_allreduce("westmere", 4096);
    overlap::ComputeSpec compute;
    compute.compute_ns = 10000;
    compute.test_every_ns = 3000;  // grains of 3000, 3000, 3000, 1000
    const sched::Schedule composed = overlap::compose(collective, compute, flops_per_ns);
    ASSERT_EQ(composed.task_count(), collective.task_count() + collective.rank_count() * (2 + 4 + 3));
    for (int id = 0; id < collective.task_count(); ++id) {
        EXPECT_EQ(composed.task(id), collective.task(id));
        EXPECT_EQ(composed.predecessors(id), collective.predecessors(id));
    }
    EXPECT_EQ(composed.spec.options.at("compute_ns"), "10000");
    EXPECT_EQ(composed.spec.options.at("test_every_ns"), "3000");
    for (int rank = 0; rank < collective.rank_count(); ++rank) {
        const auto chain = application_of(composed, rank);
        ASSERT_EQ(chain.size(), 9u);
        const std::vector<sched::TaskKind> kinds = {sched::TaskKind::wait,    sched::TaskKind::compute, sched::TaskKind::wait,
                                                    sched::TaskKind::compute, sched::TaskKind::wait,    sched::TaskKind::compute,
                                                    sched::TaskKind::wait,    sched::TaskKind::compute, sched::TaskKind::wait};
        double flops = 0;
        for (std::size_t k = 0; k < chain.size(); ++k) {
            EXPECT_EQ(composed.task(chain[k]).kind, kinds[k]);
            if (k > 0) {
                const auto deps = composed.predecessors(chain[k]);
                EXPECT_NE(std::find(deps.begin(), deps.end(), chain[k - 1]), deps.end());
            }
            flops += composed.task(chain[k]).flops;
        }
        EXPECT_DOUBLE_EQ(flops, 10000 * flops_per_ns);
        EXPECT_DOUBLE_EQ(composed.task(chain[7]).flops, 1000 * flops_per_ns);
        EXPECT_TRUE(composed.predecessors(chain[0]).empty());  // issued at once
        // The final wait also waits for the rank's own share of the collective.
        const auto deps = composed.predecessors(chain.back());
        int last_own = -1;
        for (int id = 0; id < collective.task_count(); ++id)
            if (collective.task(id).thread == rank) last_own = id;
        EXPECT_NE(std::find(deps.begin(), deps.end(), last_own), deps.end()) << "rank " << rank;
    }
    EXPECT_NO_THROW(sched::validate_schedule(composed));
}

TEST(Compose, WithoutTestsTheComputationIsOneGrainOrGrainsBackToBack) {
    const sched::Schedule collective = test::tree_allreduce("westmere", 64, 4);
    overlap::ComputeSpec compute;
    compute.compute_ns = 5000;
    const sched::Schedule one = overlap::compose(collective, compute, flops_per_ns);
    EXPECT_EQ(application_of(one, 0).size(), 3u);  // issue, compute, wait
    EXPECT_EQ(one.spec.options.at("test_every_ns"), "never");
    compute.grain_ns = 1000;
    const sched::Schedule grains = overlap::compose(collective, compute, flops_per_ns);
    const auto chain = application_of(grains, 0);
    ASSERT_EQ(chain.size(), 7u);  // issue, five grains, wait: no test between them
    for (std::size_t k = 1; k + 1 < chain.size(); ++k) EXPECT_EQ(grains.task(chain[k]).kind, sched::TaskKind::compute);
    // No computation: the collective issued and waited for, as OSU times "pure communication".
    const sched::Schedule pure = overlap::compose(collective, {}, flops_per_ns);
    EXPECT_EQ(application_of(pure, 0).size(), 2u);
}

TEST(Compose, EveryComposedScheduleIsProven) {
    struct Shape {
        std::string topology;
        sched::Collective collective;
        std::string algorithm;
        std::uint64_t bytes;
        int ranks, nodes;
    };
    const std::vector<Shape> shapes = {
        {"westmere", sched::Collective::allreduce, "tree", 4096, 0, 1},
        {"westmere", sched::Collective::allreduce, "tiled", 1 << 20, 0, 1},
        {"westmere", sched::Collective::allreduce, "tree", 64 << 10, 1, 2},   // 2 processes, one per node
        {"westmere", sched::Collective::allreduce, "tiled", 64 << 10, 1, 2},
        {"magnycours", sched::Collective::allreduce, "tiled", 8192, 5, 3},   // odd ranks and nodes
        {"magnycours", sched::Collective::allreduce, "dissemination", 1000, 7, 1},
        {"westmere", sched::Collective::bcast, "tree", 100000, 3, 2},
        {"westmere", sched::Collective::reduce, "binomial", 4096, 6, 1},
        {"westmere", sched::Collective::bcast, "binomial", 70000, 5, 2},
    };
    overlap::ComputeSpec compute;
    compute.compute_ns = 2500;
    compute.test_every_ns = 1000;
    for (const Shape& shape : shapes) {
        SCOPED_TRACE(shape.algorithm + " on " + shape.topology);
        const sched::Schedule collective =
            test::schedule(shape.topology, shape.collective, shape.algorithm, shape.bytes, shape.ranks, shape.nodes, 0);
        for (const auto& spec : {overlap::ComputeSpec{}, compute}) {
            const sched::Schedule composed = overlap::compose(collective, spec, flops_per_ns);
            const sched::CheckReport report = sched::check_schedule(composed);
            EXPECT_TRUE(report.holds) << (report.problems.empty() ? "" : report.problems.front());
        }
    }
}

TEST(Compose, TheApplicationFlagSurvivesBothFormats) {
    overlap::ComputeSpec compute;
    compute.compute_ns = 2000;
    compute.test_every_ns = 1000;
    const sched::Schedule composed = overlap::compose(test::tree_allreduce("westmere", 256, 3), compute, flops_per_ns);
    for (const sched::Schedule& back :
         {sched::schedule_from_text(sched::to_text(composed)), sched::schedule_from_json(sched::to_json(composed))}) {
        ASSERT_EQ(back.task_count(), composed.task_count());
        for (int id = 0; id < composed.task_count(); ++id) EXPECT_EQ(back.task(id), composed.task(id)) << id;
    }
}

TEST(Compose, RefusesWhatCannotBeBuilt) {
    const sched::Schedule collective = test::tree_allreduce("westmere", 64, 2);
    overlap::ComputeSpec compute;
    compute.compute_ns = -1;
    EXPECT_THROW(overlap::compose(collective, compute, flops_per_ns), UsageError);
    compute.compute_ns = 1e9;
    compute.test_every_ns = 1;  // a billion grains
    EXPECT_THROW(overlap::compose(collective, compute, flops_per_ns), UsageError);
    compute.test_every_ns = 0;
    EXPECT_THROW(overlap::compose(collective, compute, flops_per_ns), UsageError);
    compute.test_every_ns.reset();
    EXPECT_THROW(overlap::compose(collective, compute, 0), UsageError);  // no rate for the flops
    compute.compute_ns = 1000;
    const sched::Schedule composed = overlap::compose(collective, compute, flops_per_ns);
    EXPECT_THROW(overlap::compose(composed, compute, flops_per_ns), InputError);  // composed twice
}

TEST(Compose, ValidationRefusesApplicationTasksThatMoveData) {
    sched::Schedule composed = overlap::compose(test::tree_allreduce("westmere", 64, 2), {}, flops_per_ns);
    sched::Schedule bad = test::rebuild(composed, [](int, sched::Task& task, std::vector<int>&) {
        if (task.kind == sched::TaskKind::copy) task.application = true;
        return true;
    });
    EXPECT_THROW(sched::validate_schedule(bad), CheckError);
}

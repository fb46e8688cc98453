// Generation is bounded: an estimate made before generating refuses a
// schedule that must exceed the task budget at once, and the budget stops a
// generator that goes past it; both say how large, and how to raise it. The
// checks before generating can be made alone, for every point of a sweep.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

namespace {

algo::Layout westmere_layout() {
    static const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    return algo::make_layout(machine, {});
}

sched::CollectiveSpec spec(sched::Collective collective, const std::string& algorithm, std::uint64_t bytes,
                           std::map<std::string, std::string> options = {}) {
    sched::CollectiveSpec result;
    result.collective = collective;
    result.algorithm = algorithm;
    result.bytes = bytes;
    result.options = std::move(options);
    return result;
}

std::string refusal(const sched::CollectiveSpec& what) {
    try {
        algo::generate_schedule(what, westmere_layout());
    } catch (const UsageError& error) {
        return error.what();
    }
    return "";
}

std::string check_refusal(const sched::CollectiveSpec& what, const algo::Layout& layout) {
    try {
        algo::check_schedule_request(what, layout);
    } catch (const UsageError& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST(TaskBudget, AnEstimateBeyondTheBudgetIsRefusedBeforeGenerating) {
    // 12 ranks x 2^20 one-byte segments: 12.6 million tasks at least.
    const std::string why = refusal(spec(sched::Collective::bcast, "binomial", 1 << 20, {{"segment", "1"}}));
    EXPECT_NE(why.find("would have about 12582912 tasks"), std::string::npos) << why;
    EXPECT_NE(why.find("NUMACOLL_MAX_TASKS"), std::string::npos) << why;
}

TEST(TaskBudget, AGeneratorThatGoesPastTheBudgetIsStopped) {
    ::setenv("NUMACOLL_MAX_TASKS", "20", 1);
    const std::string why = refusal(spec(sched::Collective::allreduce, "tree", 64));
    ::unsetenv("NUMACOLL_MAX_TASKS");
    EXPECT_NE(why.find("would have more than 20 tasks"), std::string::npos) << why;
    // Within the default budget the same schedule is made, and later ones too.
    EXPECT_GT(algo::generate_schedule(spec(sched::Collective::allreduce, "tree", 64), westmere_layout()).task_count(), 20);
}

TEST(TaskBudget, TheBoundMustBeACount) {
    ::setenv("NUMACOLL_MAX_TASKS", "many", 1);
    EXPECT_NE(refusal(spec(sched::Collective::allreduce, "tree", 64)).find("NUMACOLL_MAX_TASKS must be"),
              std::string::npos);
    ::unsetenv("NUMACOLL_MAX_TASKS");
}

TEST(TaskBudget, ARequestIsCheckedAsGenerationWouldWithoutGenerating) {
    const algo::Layout layout = westmere_layout();
    // What generation refuses before it generates, the check refuses with the same words.
    for (const auto& bad : {spec(sched::Collective::bcast, "binomial", 1 << 20, {{"segment", "1"}}),
                            spec(sched::Collective::allreduce, "tree", 12), spec(sched::Collective::allreduce, "spiral", 64),
                            spec(sched::Collective::allreduce, "tree", 64, {{"colour", "blue"}})}) {
        const std::string why = check_refusal(bad, layout);
        EXPECT_FALSE(why.empty()) << bad.algorithm << " " << bad.bytes;
        EXPECT_EQ(why, refusal(bad));
    }
    sched::CollectiveSpec far_root = spec(sched::Collective::bcast, "binomial", 64);
    far_root.root = 12;
    EXPECT_NE(check_refusal(far_root, layout).find("root 12 does not exist"), std::string::npos);
    // The check does not generate: a budget that only the generator would
    // overrun passes it, and the estimate is a lower bound.
    ::setenv("NUMACOLL_MAX_TASKS", "20", 1);
    EXPECT_EQ(check_refusal(spec(sched::Collective::allreduce, "tree", 64), layout), "");
    EXPECT_NE(refusal(spec(sched::Collective::allreduce, "tree", 64)).find("more than 20 tasks"), std::string::npos);
    ::unsetenv("NUMACOLL_MAX_TASKS");
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    algo::LayoutOptions sixteen_nodes;
    sixteen_nodes.nodes = 16;
    for (const algo::Layout& where : {layout, algo::make_layout(machine, sixteen_nodes)})
        for (const auto& good : {spec(sched::Collective::allreduce, "tree", 64), spec(sched::Collective::allreduce, "tree", 1 << 20),
                                 spec(sched::Collective::bcast, "binomial", 4096, {{"segment", "512"}})}) {
            const std::size_t estimate = algo::check_schedule_request(good, where);
            EXPECT_GE(estimate, static_cast<std::size_t>(where.size()));
            EXPECT_LE(estimate, static_cast<std::size_t>(algo::generate_schedule(good, where).task_count()))
                << good.algorithm << " " << good.bytes << " on " << where.nodes << " node(s)";
        }
}

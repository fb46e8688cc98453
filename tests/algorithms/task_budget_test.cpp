// Generation is bounded: an estimate made before generating refuses a
// schedule that must exceed the task budget at once, and the budget stops a
// generator that goes past it; both say how large, and how to raise it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

namespace {

algo::Layout westmere() {
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
        algo::generate_schedule(what, westmere());
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
    EXPECT_GT(algo::generate_schedule(spec(sched::Collective::allreduce, "tree", 64), westmere()).task_count(), 20);
}

TEST(TaskBudget, TheBoundMustBeACount) {
    ::setenv("NUMACOLL_MAX_TASKS", "many", 1);
    EXPECT_NE(refusal(spec(sched::Collective::allreduce, "tree", 64)).find("NUMACOLL_MAX_TASKS must be"),
              std::string::npos);
    ::unsetenv("NUMACOLL_MAX_TASKS");
}

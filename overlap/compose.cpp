#include "overlap/compose.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "common/error.hpp"

namespace numacoll::overlap {

namespace {

// An hour of computation per rank is already far past any collective.
constexpr double max_compute_ns = 3600e9;

void check_duration(double value_ns, const char* what) {
    if (!std::isfinite(value_ns) || value_ns < 0 || value_ns > max_compute_ns)
        throw UsageError(fmt::format("{} must be from 0 to 1 hour (got {} ns)", what, value_ns));
}

}  // namespace

std::vector<double> grains_of(const ComputeSpec& compute) {
    check_duration(compute.compute_ns, "the computation");
    check_duration(compute.grain_ns, "the grain of computation");
    if (compute.test_every_ns) {
        check_duration(*compute.test_every_ns, "the interval between tests");
        if (*compute.test_every_ns <= 0) throw UsageError("the interval between tests must be above 0");
    }
    std::vector<double> grains;
    if (compute.compute_ns <= 0) return grains;
    const double grain = compute.test_every_ns ? *compute.test_every_ns
                         : compute.grain_ns > 0 ? compute.grain_ns
                                                : compute.compute_ns;
    const double count = std::ceil(compute.compute_ns / grain - 1e-9);
    if (count > static_cast<double>(max_grains_per_rank))
        throw UsageError(fmt::format("{:.0f} ns of computation in grains of {:.0f} ns would be {:.0f} grains per rank "
                                     "(at most {}): test less often",
                                     compute.compute_ns, grain, count, max_grains_per_rank));
    double left = compute.compute_ns;
    while (left > 1e-9) {
        grains.push_back(std::min(grain, left));
        left -= grains.back();
    }
    return grains;
}

sched::Schedule compose(const sched::Schedule& collective, const ComputeSpec& compute, double flops_per_ns) {
    const std::vector<double> grains = grains_of(compute);
    if (!grains.empty() && !(flops_per_ns > 0 && std::isfinite(flops_per_ns)))
        throw UsageError(fmt::format("a compute rate above 0 is needed to turn {} ns into flops", compute.compute_ns));
    for (int id = 0; id < collective.task_count(); ++id)
        if (collective.task(id).application)
            throw InputError("the schedule already has computation around its collective (task " + std::to_string(id) +
                             "): compose the collective alone");
    const int ranks = collective.rank_count();
    const bool tests = compute.test_every_ns.has_value();
    const std::size_t per_rank = 2 + grains.size() + (tests && !grains.empty() ? grains.size() - 1 : 0);
    const std::size_t total = static_cast<std::size_t>(collective.task_count()) + per_rank * static_cast<std::size_t>(ranks);
    const std::string what = fmt::format("{} {} with computation", to_string(collective.spec.collective),
                                         collective.spec.algorithm);
    sched::TaskBudget::check(total, what, false);

    sched::Schedule result = collective;
    result.spec.options["compute_ns"] = fmt::format("{:.0f}", compute.compute_ns);
    result.spec.options["test_every_ns"] = tests ? fmt::format("{:.0f}", *compute.test_every_ns) : "never";

    // Each rank's share of the collective that none of its own later tasks waits for.
    std::vector<std::vector<int>> ends_of_rank(static_cast<std::size_t>(ranks));
    for (int id = 0; id < collective.task_count(); ++id) {
        const int thread = collective.task(id).thread;
        bool followed = false;
        for (int next : collective.successors(id)) followed = followed || collective.task(next).thread == thread;
        if (!followed) ends_of_rank[static_cast<std::size_t>(thread)].push_back(id);
    }
    auto application_task = [](sched::TaskKind kind, int thread, double flops, const std::string& label) {
        sched::Task task;
        task.kind = kind;
        task.thread = thread;
        task.flops = flops;
        task.application = true;
        task.label = label;
        return task;
    };
    for (int rank = 0; rank < ranks; ++rank) {
        int last = result.add_task(application_task(sched::TaskKind::wait, rank, 0, "overlap:issue"), {});
        for (std::size_t g = 0; g < grains.size(); ++g) {
            if (g > 0 && tests)
                last = result.add_task(application_task(sched::TaskKind::wait, rank, 0, fmt::format("overlap:test:{}", g)),
                                       {last});
            last = result.add_task(
                application_task(sched::TaskKind::compute, rank, grains[g] * flops_per_ns, fmt::format("overlap:compute:{}", g)),
                {last});
        }
        std::vector<int> deps = ends_of_rank[static_cast<std::size_t>(rank)];
        deps.insert(deps.begin(), last);
        result.add_task(application_task(sched::TaskKind::wait, rank, 0, "overlap:wait"), deps);
    }
    return result;
}

}  // namespace numacoll::overlap

// Simulator throughput: tree allreduce on a synthetic 1024-core node
// (16 packages x 64 cores), at sizes that give about 10k, 100k and 1M tasks
// (strip mining into 64-byte chunks multiplies the tasks).
//
// For each size it runs, interleaved, the tree simulation and a baseline of
// the same number of SimGrid activities in a chain (one at a time, so the
// cost of SimGrid's own event loop without any sharing to solve), and prints
// the median and spread of each, tasks per second, peak memory, and the
// ratio of the two.
//
// With `lockstep`, instead: chains of one-line transfers on every node of a
// westmere cluster at once (64 per node; 512 to 8,192 nodes, or NODES): the
// cost per task of SimGrid's event loop and the engine as the cluster grows,
// with the same work per node and nothing shared between nodes.
// Usage: numacoll_bench_sim [repetitions=3] [lockstep [NODES]]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"
#include "common/statistics.hpp"
#include "sim/engine.hpp"

using namespace numacoll;

namespace {

struct Figures {
    std::vector<double> wall_seconds;
    long peak_memory_bytes = 0;
};

std::string spread(const std::vector<double>& values) {
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return fmt::format("{:.3f}-{:.3f}", *low, *high);
}

// `count` one-step tasks in a chain between two cores of one socket.
sim::Simulation chain_baseline(const sim::PlatformModel& platform, std::size_t count) {
    sim::TaskPlans plans;
    sim::Successors successors;
    const sim::Step line{sim::Step::Kind::transfer, {sim::EndpointKind::cache, 0, 0}, {sim::EndpointKind::core, 0, 1}, 64};
    for (std::size_t i = 0; i < count; ++i) {
        plans.add({&line, 1});
        successors.first.push_back(successors.ids.size());
        if (i + 1 < count) successors.ids.push_back(static_cast<int>(i + 1));
    }
    successors.first.push_back(successors.ids.size());
    return sim::simulate_plans(platform, plans, successors);
}

// On every one of `nodes` westmere nodes at once, a chain of
// `per_node` one-step tasks (a 64-byte line from core 0's cache to core 1):
// identical nodes in lockstep, as a collective's nodes run, with nothing
// shared between nodes. Per task, what SimGrid and the engine cost as the
// cluster grows, without any algorithm's own growth.
sim::Simulation lockstep_chains(const sim::PlatformModel& platform, int nodes, int per_node) {
    sim::TaskPlans plans;
    sim::Successors successors;
    std::vector<sim::Step> lines;
    lines.reserve(static_cast<std::size_t>(nodes));
    for (int node = 0; node < nodes; ++node)
        lines.emplace_back(sim::Step::Kind::transfer, sim::Endpoint{sim::EndpointKind::cache, node, 0},
                           sim::Endpoint{sim::EndpointKind::core, node, 1}, 64);
    for (int node = 0; node < nodes; ++node)
        for (int i = 0; i < per_node; ++i) {
            const int id = node * per_node + i;
            plans.add({&lines[static_cast<std::size_t>(node)], 1});
            successors.first.push_back(successors.ids.size());
            if (i + 1 < per_node) successors.ids.push_back(id + 1);
        }
    successors.first.push_back(successors.ids.size());
    return sim::simulate_plans(platform, plans, successors);
}

}  // namespace

int main(int argc, char** argv) {
    const int repetitions = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
    if (argc > 2 && std::string(argv[2]) == "lockstep") {
        const auto westmere = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
        const int per_node = 64;
        std::vector<int> sizes = {512, 1024, 2048, 4096, 8192};
        if (argc > 3) sizes = {std::atoi(argv[3])};
        if (sizes.front() < 1 || sizes.front() > 65536) {
            fmt::print(stderr, "numacoll_bench_sim: NODES must be 1 to 65536 (got '{}')\n", argv[3]);
            return 2;
        }
        fmt::print("lockstep chains: {} one-line transfers on each westmere node, all nodes at once, {} repetitions\n",
                   per_node, repetitions);
        fmt::print("{:>7} {:>9} {:>9} {:>13} {:>11} {:>9} {:>21}\n", "nodes", "tasks", "s (med)", "spread", "ns/task", "peak MB",
                   "per task x first row");
        double first_per_task = 0;
        for (int nodes : sizes) {
            const sim::PlatformModel cluster(westmere, costs::load_params("westmere"), nodes);
            Figures figures;
            for (int r = 0; r < repetitions; ++r) {
                const auto run = lockstep_chains(cluster, nodes, per_node);
                figures.wall_seconds.push_back(run.stats.wall_seconds);
                figures.peak_memory_bytes = std::max(figures.peak_memory_bytes, run.stats.peak_memory_bytes);
            }
            const double seconds = median(figures.wall_seconds);
            const double tasks = static_cast<double>(nodes) * per_node;
            const double per_task = seconds / tasks;
            if (first_per_task == 0) first_per_task = per_task;
            fmt::print("{:>7} {:>9.0f} {:>9.3f} {:>13} {:>11.0f} {:>9.1f} {:>21.2f}\n", nodes, tasks, seconds,
                       spread(figures.wall_seconds), per_task * 1e9, figures.peak_memory_bytes / 1e6, per_task / first_per_task);
            std::fflush(stdout);
        }
        return 0;
    }
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("synthetic:Package:16 L3Cache:1 Core:64"));
    const sim::PlatformModel platform(machine, costs::load_params("generic"), 1);
    const algo::Layout layout = algo::make_layout(machine, {});

    fmt::print("tree allreduce, {} ranks on {} (generic params), strip=64 B, {} repetitions, interleaved with a chain "
               "baseline of as many SimGrid activities\n",
               layout.size(), "synthetic:Package:16 L3Cache:1 Core:64", repetitions);
    fmt::print("{:>9} {:>9} {:>11} {:>9} {:>12} {:>13} {:>9} {:>12} {:>11} {:>7}\n", "bytes", "tasks", "activities",
               "timers", "tree s (med)", "tree spread", "tasks/s", "peak MB", "chain s", "ratio");
    double previous_per_task = 0;
    for (std::uint64_t bytes : {192u, 1792u, 17792u}) {
        sched::CollectiveSpec spec;
        spec.algorithm = "tree";
        spec.bytes = bytes;
        spec.options["strip"] = "64";
        const sched::Schedule schedule = algo::generate_schedule(spec, layout);
        Figures tree, chain;  // the chain baseline's memory is not reported: it holds no schedule
        std::size_t activities = 0, timers = 0;
        for (int r = 0; r < repetitions; ++r) {
            const auto run = sim::simulate(schedule, platform);
            tree.wall_seconds.push_back(run.stats.wall_seconds);
            tree.peak_memory_bytes = std::max(tree.peak_memory_bytes, run.stats.peak_memory_bytes);
            activities = run.stats.activities;
            timers = run.stats.timers;
            const auto base = chain_baseline(platform, activities);
            chain.wall_seconds.push_back(base.stats.wall_seconds);
        }
        const double tree_s = median(tree.wall_seconds);
        const double chain_s = median(chain.wall_seconds);
        const double per_task = tree_s / schedule.task_count();
        fmt::print("{:>9} {:>9} {:>11} {:>9} {:>12.3f} {:>13} {:>9.0f} {:>12.1f} {:>11.3f} {:>7.2f}\n", bytes,
                   schedule.task_count(), activities, timers, tree_s, spread(tree.wall_seconds), schedule.task_count() / tree_s,
                   tree.peak_memory_bytes / 1e6, chain_s, tree_s / chain_s);
        if (previous_per_task > 0)
            fmt::print("{:>9} time per task grew x{:.2f} from the previous size\n", "", per_task / previous_per_task);
        previous_per_task = per_task;
        std::fflush(stdout);
    }
    return 0;
}

// Shared by the algorithm tests: machines loaded once, schedules by spec.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "algorithms/registry.hpp"

namespace numacoll::test {

inline std::shared_ptr<const topo::Machine> machine(const std::string& spec) {
    static std::map<std::string, std::shared_ptr<const topo::Machine>> cache;
    auto& entry = cache[spec];
    if (!entry) entry = std::make_shared<const topo::Machine>(topo::load_machine(spec));
    return entry;
}

// This machine, as hwloc sees it.
inline std::shared_ptr<const topo::Machine> live() { return machine("live"); }

inline sched::Schedule tree_allreduce(const std::string& topology, std::uint64_t bytes, int ranks = 0, int nodes = 1,
                                     std::map<std::string, std::string> options = {}) {
    algo::LayoutOptions layout_options;
    layout_options.ranks_per_node = ranks;
    layout_options.nodes = nodes;
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::allreduce;
    spec.algorithm = "tree";
    spec.bytes = bytes;
    spec.options = std::move(options);
    return algo::generate_schedule(spec, algo::make_layout(machine(topology), layout_options));
}

inline sched::Schedule schedule(const std::string& topology, sched::Collective collective, const std::string& algorithm,
                               std::uint64_t bytes, int ranks, int nodes, int root,
                               std::map<std::string, std::string> options = {}) {
    algo::LayoutOptions layout_options;
    layout_options.ranks_per_node = ranks;
    layout_options.nodes = nodes;
    sched::CollectiveSpec spec;
    spec.collective = collective;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.root = root;
    spec.options = std::move(options);
    return algo::generate_schedule(spec, algo::make_layout(machine(topology), layout_options));
}

// `threads` ranks on each of `nodes` nodes of this machine, oversubscribed
// when there are more threads than PUs: the executors' tests run these.
inline sched::Schedule on_live_machine(const sched::CollectiveSpec& spec, int threads, int nodes = 1) {
    algo::LayoutOptions layout_options;
    layout_options.nodes = nodes;
    layout_options.ranks_per_node = threads;
    layout_options.oversubscribe = threads > machine("live")->pu_count();
    return algo::generate_schedule(spec, algo::make_layout(machine("live"), layout_options));
}

// Rebuilds a schedule task by task, letting `edit` change each task and its
// dependencies (return false to drop the task; later ids shift down).
template <typename Edit>
sched::Schedule rebuild(const sched::Schedule& original, Edit edit) {
    sched::Schedule copy;
    copy.spec = original.spec;
    copy.nodes = original.nodes;
    copy.rank_kind = original.rank_kind;
    copy.ranks = original.ranks;
    copy.provenance = original.provenance;
    for (const auto& buffer : original.buffers()) copy.add_buffer(buffer);
    std::vector<int> new_id(original.task_count(), -1);
    for (int id = 0; id < original.task_count(); ++id) {
        sched::Task task = original.task(id);
        std::vector<int> deps = original.predecessors(id);
        if (!edit(id, task, deps)) continue;
        std::vector<int> mapped;
        for (int dep : deps)
            if (new_id[dep] >= 0) mapped.push_back(new_id[dep]);
        new_id[id] = copy.add_task(task, mapped);
    }
    return copy;
}

// Appends real work to a schedule: `flops` on the thread of its last task,
// after that task. Returns the new task's id.
inline int add_compute_after_last(sched::Schedule& schedule, double flops) {
    const int last = schedule.task_count() - 1;
    sched::Task work;
    work.kind = sched::TaskKind::compute;
    work.thread = schedule.task(last).thread;
    work.flops = flops;
    work.label = "work";
    return schedule.add_task(work, {last});
}

}  // namespace numacoll::test

#include "reproduce/experiment.hpp"

#include <fmt/format.h>

#include <iostream>

#include "algorithms/registry.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/shell_word.hpp"
#include "costs/params.hpp"
#include "sim/engine.hpp"

namespace numacoll::reproduce {

namespace {

std::string join_ints(const std::vector<int>& values) {
    std::string text;
    for (int value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
    return text;
}

}  // namespace

std::string setting_key(const Setting& s) {
    std::string key = fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", s.topology, s.params, s.nodes, s.ranks_per_node,
                                  join_ints(s.pus), sched::to_string(s.collective), s.algorithm, s.bytes, s.root);
    for (const auto& [name, value] : s.options) key += "|" + name + "=" + value;
    return key;
}

std::string sim_command(const Setting& setting, const std::vector<std::uint64_t>& sizes,
                        const std::vector<std::string>& algorithms) {
    std::string command = "numacoll sim -t " + shell_word(setting.topology);
    if (!setting.params.empty()) command += " --params " + shell_word(setting.params);
    if (setting.nodes != 1) command += fmt::format(" -N {}", setting.nodes);
    if (setting.ranks_per_node != 0) command += fmt::format(" -p {}", setting.ranks_per_node);
    if (!setting.pus.empty()) command += " --placement list --pus " + join_ints(setting.pus);
    command += fmt::format(" -c {}", sched::to_string(setting.collective));
    std::string names = setting.algorithm;
    if (!algorithms.empty()) {
        names.clear();
        for (const auto& name : algorithms) names += (names.empty() ? "" : ",") + name;
    }
    command += " -a " + names;
    if (setting.root != 0) command += fmt::format(" --root {}", setting.root);
    for (const auto& [name, value] : setting.options) command += fmt::format(" --option {}={}", name, value);
    std::string bytes;
    for (std::uint64_t size : sizes.empty() ? std::vector<std::uint64_t>{setting.bytes} : sizes)
        bytes += (bytes.empty() ? "" : ",") + format_bytes(size);
    return command + " --bytes " + bytes;
}

void check_substitute(const std::string& name, const std::string& path, const topo::Machine& substitute) {
    const topo::Machine bundled = topo::load_machine(name);
    const auto refuse = [&](const std::string& what, std::size_t has, std::size_t needs) {
        return UsageError(fmt::format("--machine {}={}: it has {} {}, and {}'s findings need {} (a node of the same "
                                      "kind: packages, NUMA nodes, a NIC)",
                                      name, path, has, what, name, needs));
    };
    if (substitute.packages.size() < bundled.packages.size())
        throw refuse("package(s)", substitute.packages.size(), bundled.packages.size());
    if (substitute.numa_nodes.size() < bundled.numa_nodes.size())
        throw refuse("NUMA node(s)", substitute.numa_nodes.size(), bundled.numa_nodes.size());
    // The NUIOA findings place processes near opteron8218's NIC and two hops
    // from it; elsewhere a missing NIC is a virtual one (sim/platform_model.hpp).
    if (name == "opteron8218" && substitute.nics().size() < bundled.nics().size())
        throw refuse("NIC(s)", substitute.nics().size(), bundled.nics().size());
}

std::shared_ptr<const topo::Machine> Experiment::machine(const std::string& topology) {
    auto& machine = machines_[topology];
    if (!machine) machine = std::make_shared<const topo::Machine>(topo::load_machine(topology));
    return machine;
}

const sim::PlatformModel& Experiment::platform(const Setting& setting) {
    const auto loaded = machine(setting.topology);
    const std::string key = fmt::format("{}|{}|{}", setting.topology, setting.params, setting.nodes);
    auto& platform = platforms_[key];
    if (!platform)
        platform = std::make_unique<sim::PlatformModel>(loaded, costs::params_for(*loaded, setting.params), setting.nodes);
    return *platform;
}

Setting Experiment::resolved(Setting setting) const {
    if (auto found = substitutes_.find(setting.topology); found != substitutes_.end()) {
        if (setting.params.empty()) setting.params = setting.topology;
        setting.topology = found->second;
    }
    return setting;
}

double Experiment::time_ns(const Setting& requested) {
    const Setting setting = resolved(requested);
    const std::string key = setting_key(setting);
    if (auto found = times_.find(key); found != times_.end()) return found->second;
    if (auto found = known_.find(key); found != known_.end()) {
        ++simulations_;
        times_.emplace(key, found->second);
        return found->second;
    }
    algo::LayoutOptions layout;
    layout.nodes = setting.nodes;
    layout.ranks_per_node = setting.ranks_per_node;
    if (!setting.pus.empty()) {
        layout.placement = algo::Placement::list;
        layout.pu_list = setting.pus;
    }
    sched::CollectiveSpec spec;
    spec.collective = setting.collective;
    spec.algorithm = setting.algorithm;
    spec.bytes = setting.bytes;
    spec.root = setting.root;
    spec.options = setting.options;
    const algo::Layout made = algo::make_layout(machine(setting.topology), layout);
    const double tasks = static_cast<double>(algo::check_schedule_request(spec, made));
    ++simulations_;
    if (check_only_) {
        checked_.emplace_back(setting, tasks);
        times_.emplace(key, tasks);
        return tasks;
    }
    const sched::Schedule schedule = algo::generate_schedule(spec, made);
    const double time = sim::simulate(schedule, platform(setting)).timeline.makespan_ns;
    if (!quiet_ && simulations_ % 25 == 0) std::cerr << "  " << simulations_ << " simulations\n";
    times_.emplace(key, time);
    return time;
}

}  // namespace numacoll::reproduce

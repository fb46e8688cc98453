#include "algorithms/registry.hpp"

#include <fmt/format.h>

#include "algorithms/allgather/allgather.hpp"
#include "algorithms/allreduce/dissemination.hpp"
#include "algorithms/allreduce/tiled.hpp"
#include "algorithms/allreduce/tree.hpp"
#include "algorithms/barrier/tree.hpp"
#include "algorithms/bcast/flat.hpp"
#include "algorithms/bcast/tree.hpp"
#include "algorithms/gather/gather.hpp"
#include "algorithms/reduce/flat.hpp"
#include "algorithms/scatter/tree.hpp"
#include "algorithms/reduce/tree.hpp"
#include "common/byte_size.hpp"
#include "numacoll/version.hpp"
#include "common/error.hpp"

namespace numacoll::algo {

const std::vector<AlgorithmInfo>& algorithm_registry() {
    static const std::vector<AlgorithmInfo> registry = [] {
        std::vector<AlgorithmInfo> all = {
            allreduce_tree_info(),
            allreduce_dissemination_info(),
            allreduce_tiled_info(),
            allreduce_tiled_naive_info(),
            allreduce_tiled_cyclic_info(),
            reduce_tree_info(),
        };
        for (auto& info : reduce_flat_infos()) all.push_back(std::move(info));
        all.push_back(bcast_tree_info());
        for (auto& info : bcast_flat_infos()) all.push_back(std::move(info));
        all.push_back(barrier_tree_info());
        all.push_back(barrier_dissemination_info());
        all.push_back(scatter_tree_info());
        for (auto& info : gather_infos()) all.push_back(std::move(info));
        for (auto& info : allgather_infos()) all.push_back(std::move(info));
        return all;
    }();
    return registry;
}

const AlgorithmInfo& find_algorithm(Collective collective, const std::string& name) {
    std::string known;
    for (const auto& info : algorithm_registry()) {
        if (info.collective != collective) continue;
        if (info.name == name) return info;
        known += (known.empty() ? "" : ", ") + info.name;
    }
    throw UsageError(
        fmt::format("unknown algorithm '{}' for {}: expected one of {}", name, to_string(collective), known));
}

Schedule generate_schedule(CollectiveSpec spec, const Layout& layout) {
    const AlgorithmInfo& info = find_algorithm(spec.collective, spec.algorithm);
    for (const auto& [key, value] : spec.options) {
        bool known = false;
        for (const auto& option : info.options) known = known || option.name == key;
        if (!known) {
            std::string names;
            for (const auto& option : info.options) names += (names.empty() ? "" : ", ") + option.name;
            throw UsageError(fmt::format("algorithm '{}' has no option '{}' (its options: {})", info.name, key,
                                         names.empty() ? "none" : names));
        }
    }
    for (const auto& option : info.options) spec.options.emplace(option.name, option.default_value);
    if (is_reduction(spec.collective) && spec.bytes % element_bytes != 0)
        throw UsageError(fmt::format("{} works on {}-byte elements: {} bytes is not a multiple of {}",
                                     to_string(spec.collective), element_bytes, spec.bytes, element_bytes));
    if (spec.collective == Collective::barrier && spec.bytes != 0)
        throw UsageError(fmt::format("a barrier moves no data: its size must be 0 bytes (got {})", spec.bytes));
    if (spec.root < 0 || spec.root >= layout.size())
        throw UsageError(fmt::format("root {} does not exist: ranks are 0..{}", spec.root, layout.size() - 1));

    Schedule schedule = info.generate(spec, layout);
    schedule.provenance["numacoll"] = fmt::format("{} ({})", numacoll::version, numacoll::git_revision);
    schedule.provenance["topology"] = layout.machine->source.empty() ? layout.machine->name : layout.machine->source;
    return schedule;
}

std::string OptionReader::text(const std::string& name) const {
    if (auto it = spec_.options.find(name); it != spec_.options.end()) return it->second;
    for (const auto& option : info_.options)
        if (option.name == name) return option.default_value;
    return "";
}

int OptionReader::integer(const std::string& name, int min_value) const {
    const std::string value = text(name);
    try {
        std::size_t used = 0;
        int parsed = std::stoi(value, &used);
        if (used == value.size() && parsed >= min_value) return parsed;
    } catch (const std::exception&) {
    }
    throw UsageError(fmt::format("option {} of algorithm '{}' must be an integer >= {} (got '{}')", name,
                                 info_.name, min_value, value));
}

std::uint64_t OptionReader::bytes(const std::string& name) const {
    return parse_byte_size(text(name), fmt::format("option {} of algorithm '{}'", name, info_.name));
}

std::string OptionReader::choice(const std::string& name, const std::vector<std::string>& allowed) const {
    const std::string value = text(name);
    std::string list;
    for (const auto& candidate : allowed) {
        if (candidate == value) return value;
        list += (list.empty() ? "" : ", ") + candidate;
    }
    throw UsageError(
        fmt::format("option {} of algorithm '{}' must be one of {} (got '{}')", name, info_.name, list, value));
}

}  // namespace numacoll::algo

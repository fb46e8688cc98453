// Text and JSON views of a Machine (what `numacoll topo` and `--json` print).
#include <algorithm>
#include <map>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

std::string format_bytes(std::uint64_t bytes) {
    constexpr std::uint64_t kib = 1024;
    if (bytes == 0) return "0 B";
    for (auto [unit, size] : {std::pair{"GiB", kib * kib * kib}, std::pair{"MiB", kib * kib}, std::pair{"KiB", kib}}) {
        if (bytes >= size && bytes % size == 0) return fmt::format("{} {}", bytes / size, unit);
    }
    if (bytes >= kib * kib) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / static_cast<double>(kib * kib));
    return fmt::format("{} B", bytes);
}

// "0-5,12-17" for a sorted list of indexes.
std::string format_ranges(const std::vector<int>& values) {
    if (values.empty()) return "none";
    std::string text;
    std::size_t start = 0;
    while (start < values.size()) {
        std::size_t end = start;
        while (end + 1 < values.size() && values[end + 1] == values[end] + 1) ++end;
        if (!text.empty()) text += ',';
        text += end == start ? fmt::format("{}", values[start]) : fmt::format("{}-{}", values[start], values[end]);
        start = end + 1;
    }
    return text;
}

std::string plural(std::size_t count, const char* singular, const char* plural_form) {
    return fmt::format("{} {}", count, count == 1 ? singular : plural_form);
}

std::string cache_name(const Object& cache) {
    const char* suffix = cache.cache_type == "data" ? "d" : cache.cache_type == "instruction" ? "i" : "";
    return fmt::format("L{}{}", cache.cache_level, suffix);
}

// One line per cache kind (L1d, L1i, L2, L3...): count, size, cores sharing one.
void describe_caches(const Machine& machine, std::string& out) {
    std::map<std::pair<int, std::string>, std::vector<const Object*>> kinds;
    for (const Object& object : machine.objects) {
        if (object.kind == ObjectKind::cache) kinds[{object.cache_level, object.cache_type}].push_back(&object);
    }
    if (kinds.empty()) {
        out += "caches: none reported\n";
        return;
    }
    out += "caches:\n";
    for (const auto& [key, caches] : kinds) {
        const Object& first = *caches.front();
        const bool same_size = std::all_of(caches.begin(), caches.end(), [&first](const Object* cache) {
            return cache->cache_bytes == first.cache_bytes;
        });
        const bool same_sharing = std::all_of(caches.begin(), caches.end(), [&first](const Object* cache) {
            return cache->cores.size() == first.cores.size();
        });
        out += fmt::format("  {:<4} {} x {}, {}{}, {} B lines\n", cache_name(first), caches.size(),
                           same_size ? format_bytes(first.cache_bytes) : "mixed sizes",
                           same_sharing ? "shared by " : "shared by up to ",
                           plural(first.cores.size(), "core", "cores"), first.cache_line_bytes);
    }
}

void describe_numa(const Machine& machine, std::string& out) {
    out += "NUMA nodes:\n";
    for (int node = 0; node < static_cast<int>(machine.numa_nodes.size()); ++node) {
        const Object& object = machine.objects[machine.numa_nodes[node]];
        out += fmt::format("  node L#{} (P#{}): {}, cores {}\n", node, object.os_index,
                           format_bytes(object.memory_bytes), format_ranges(object.cores));
    }
    if (!machine.distances) return;
    const Distances& distances = *machine.distances;
    out += fmt::format("NUMA distances ({}), by logical node:\n     ", distances.name.empty() ? "unnamed" : distances.name);
    for (int to = 0; to < distances.count; ++to) out += fmt::format(" {:>4}", to);
    out += '\n';
    for (int from = 0; from < distances.count; ++from) {
        out += fmt::format("  {:>3}", from);
        for (int to = 0; to < distances.count; ++to) out += fmt::format(" {:>4}", distances.at(from, to));
        out += '\n';
    }
}

std::string locality(int index) { return index < 0 ? "unknown" : fmt::format("{}", index); }

void describe_io(const Machine& machine, std::string& out) {
    if (machine.io_devices.empty()) {
        out += "I/O devices: none reported\n";
        return;
    }
    out += "I/O devices:\n";
    for (const IoDevice& device : machine.io_devices) {
        out += fmt::format("  {} ({}{}{}): NUMA node {}, package {}, cores {}\n", device.name, to_string(device.kind),
                           device.subtype.empty() ? "" : " " + device.subtype,
                           device.pci_busid.empty() ? "" : ", PCI " + device.pci_busid, locality(device.numa_node),
                           locality(device.package), format_ranges(device.local_cores));
    }
}

nlohmann::json object_json(const Object& object, int index) {
    nlohmann::json json = {
        {"index", index},
        {"kind", to_string(object.kind)},
        {"logical_index", object.logical_index},
        {"os_index", object.os_index},
        {"parent", object.parent},
        {"children", object.children},
        {"cores", object.cores},
        {"pus", object.pus},
    };
    if (!object.subtype.empty()) json["subtype"] = object.subtype;
    if (object.kind == ObjectKind::cache) {
        json["cache_level"] = object.cache_level;
        json["cache_type"] = object.cache_type;
        json["cache_bytes"] = object.cache_bytes;
        json["cache_line_bytes"] = object.cache_line_bytes;
    }
    if (object.kind == ObjectKind::numa_node) json["memory_bytes"] = object.memory_bytes;
    return json;
}

}  // namespace

std::string describe(const Machine& machine) {
    std::string out;
    out += fmt::format("machine {} (from {})\n", machine.name, machine.source);
    if (!machine.cpu_model.empty()) out += fmt::format("cpu model: {}\n", machine.cpu_model);
    const int pus_per_core = machine.core_count() > 0 ? machine.pu_count() / machine.core_count() : 0;
    std::string counts = plural(machine.packages.size(), "package", "packages");
    if (!machine.groups.empty()) counts += ", " + plural(machine.groups.size(), "group", "groups");
    if (!machine.dies.empty()) counts += ", " + plural(machine.dies.size(), "die", "dies");
    counts += ", " + plural(machine.numa_nodes.size(), "NUMA node", "NUMA nodes");
    counts += ", " + plural(machine.cores.size(), "core", "cores");
    counts += ", " + plural(machine.pus.size(), "PU", "PUs");
    if (pus_per_core > 1) counts += fmt::format(" ({} per core)", pus_per_core);
    out += counts + "\n";
    for (int package = 0; package < static_cast<int>(machine.packages.size()); ++package) {
        const Object& object = machine.objects[machine.packages[package]];
        out += fmt::format("  package L#{} (P#{}): cores {}, PUs {}\n", package, object.os_index,
                           format_ranges(object.cores), format_ranges(object.pus));
    }
    describe_caches(machine, out);
    describe_numa(machine, out);
    describe_io(machine, out);
    return out;
}

std::string to_json(const Machine& machine) {
    nlohmann::json caches_per_level = nlohmann::json::object();
    for (int level : machine.cache_levels) {
        caches_per_level[fmt::format("L{}", level)] = machine.caches_at_level(level).size();
    }
    nlohmann::json objects = nlohmann::json::array();
    for (int index = 0; index < static_cast<int>(machine.objects.size()); ++index) {
        objects.push_back(object_json(machine.objects[index], index));
    }
    nlohmann::json devices = nlohmann::json::array();
    for (const IoDevice& device : machine.io_devices) {
        devices.push_back({
            {"kind", to_string(device.kind)},
            {"name", device.name},
            {"subtype", device.subtype},
            {"pci_busid", device.pci_busid},
            {"numa_node", device.numa_node},
            {"package", device.package},
            {"local_cores", device.local_cores},
        });
    }
    nlohmann::json distances = nullptr;
    if (machine.distances) {
        distances = {{"name", machine.distances->name},
                     {"count", machine.distances->count},
                     {"values", machine.distances->values}};
    }
    const nlohmann::json json = {
        {"name", machine.name},
        {"source", machine.source},
        {"cpu_model", machine.cpu_model},
        {"counts",
         {
             {"packages", machine.packages.size()},
             {"groups", machine.groups.size()},
             {"numa_nodes", machine.numa_nodes.size()},
             {"dies", machine.dies.size()},
             {"cores", machine.cores.size()},
             {"pus", machine.pus.size()},
             {"caches", caches_per_level},
             {"io_devices", machine.io_devices.size()},
         }},
        {"cache_levels", machine.cache_levels},
        {"packages", machine.packages},
        {"groups", machine.groups},
        {"numa_nodes", machine.numa_nodes},
        {"dies", machine.dies},
        {"cores", machine.cores},
        {"pus", machine.pus},
        {"objects", objects},
        {"io_devices", devices},
        {"distances", distances},
    };
    // Names come from the XML as hwloc read them, in any encoding: JSON
    // shows bytes that are not UTF-8 as U+FFFD instead of failing.
    return json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace numacoll::topo

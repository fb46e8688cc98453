#include "tune/whatif.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/error.hpp"

namespace numacoll::tune {

namespace {

const std::vector<std::string>& machine_keys() {
    static const std::vector<std::string> keys = {"packages", "numa_per_package", "llc_per_package", "cores_per_llc",
                                                  "nic_numa", "nodes"};
    return keys;
}

int whole(const std::string& key, const std::string& value, int low, int high) {
    std::size_t used = 0;
    long number = 0;
    try {
        number = std::stol(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != value.size() || value.empty() || number < low || number > high)
        throw UsageError(fmt::format("--vary {}: '{}' is not a whole number from {} to {}", key, value, low, high));
    return static_cast<int>(number);
}

}  // namespace

bool VaryKey::machine_key() const {
    return std::find(machine_keys().begin(), machine_keys().end(), key) != machine_keys().end();
}

NodeShape shape_of(const topo::Machine& machine) {
    NodeShape shape;
    const int cores = machine.core_count();
    shape.packages = std::max<int>(1, static_cast<int>(machine.packages.size()));
    const int numas = std::max<int>(1, static_cast<int>(machine.numa_nodes.size()));
    const int level = machine.last_level_cache();
    const int llcs = level > 0 ? std::max<int>(1, static_cast<int>(machine.caches_at_level(level).size())) : shape.packages;
    if (numas % shape.packages != 0 || llcs % shape.packages != 0 || cores % llcs != 0)
        throw UsageError(fmt::format("{} is not a machine whose shape can be varied ({} packages, {} NUMA nodes, {} "
                                     "last-level caches, {} cores): every package needs its own NUMA nodes and caches, "
                                     "as in synthetic:Package:P NUMANode:N L3Cache:L Core:C",
                                     machine.label(), shape.packages, numas, llcs,
                                     cores));
    shape.numa_per_package = numas / shape.packages;
    shape.llc_per_package = llcs / shape.packages;
    shape.cores_per_llc = cores / llcs;
    if (shape.llc_per_package % shape.numa_per_package != 0)
        throw UsageError(fmt::format("{} has {} NUMA nodes per package and {} last-level caches: a NUMA node there "
                                     "does not hold whole caches, which a synthetic description cannot say",
                                     machine.label(), shape.numa_per_package,
                                     shape.llc_per_package));
    const auto nics = machine.nics();
    shape.nic_numa = nics.empty() ? 0 : std::max(0, nics.front()->numa_node);
    return shape;
}

std::string synthetic_description(const NodeShape& shape) {
    return fmt::format("Package:{} NUMANode:{} L3Cache:{} Core:{}", shape.packages, shape.numa_per_package,
                       shape.llc_per_package / shape.numa_per_package, shape.cores_per_llc);
}

topo::Machine machine_of(const NodeShape& shape) {
    if (shape.llc_per_package % shape.numa_per_package != 0)
        throw UsageError(fmt::format("llc_per_package ({}) must be a multiple of numa_per_package ({}): each NUMA node "
                                     "holds whole last-level caches",
                                     shape.llc_per_package, shape.numa_per_package));
    topo::Machine machine = topo::load_machine("synthetic:" + synthetic_description(shape));
    const int numas = static_cast<int>(machine.numa_nodes.size());
    if (shape.nic_numa < 0 || shape.nic_numa >= numas)
        throw UsageError(fmt::format("nic_numa {} does not exist: the machine has NUMA nodes 0..{}", shape.nic_numa,
                                     numas - 1));
    // The NIC, where the shape puts it (a synthetic description has no I/O devices).
    topo::IoDevice nic;
    nic.kind = topo::IoKind::network;
    nic.name = "nic0";
    nic.subtype = "placed by numacoll whatif";
    nic.numa_node = shape.nic_numa;
    const topo::Object& numa = machine.objects[machine.numa_nodes[shape.nic_numa]];
    nic.local_cores = numa.cores;
    nic.package = numa.cores.empty() ? -1 : machine.package_of_core(numa.cores.front());
    machine.io_devices = {nic};
    return machine;
}

VaryKey parse_vary(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == text.size())
        throw UsageError(fmt::format("--vary '{}': expected KEY=VALUE,VALUE,... (a machine key: {}; or a params path "
                                     "such as levels.other_socket.bandwidth_bytes_per_ns)",
                                     text, fmt::join(machine_keys(), ", ")));
    VaryKey vary;
    vary.key = text.substr(0, equals);
    std::istringstream items(text.substr(equals + 1));
    for (std::string item; std::getline(items, item, ',');) {
        if (item.empty()) throw UsageError(fmt::format("--vary {}: an empty value", vary.key));
        if (std::find(vary.values.begin(), vary.values.end(), item) == vary.values.end()) vary.values.push_back(item);
    }
    if (vary.values.size() > 64) throw UsageError(fmt::format("--vary {}: at most 64 values", vary.key));
    if (!vary.machine_key() && vary.key.find('.') == std::string::npos)
        throw UsageError(fmt::format("--vary: '{}' is neither a machine key ({}) nor a params path (with dots)",
                                     vary.key, fmt::join(machine_keys(), ", ")));
    // Values are checked now, so that a bad one fails before any simulation.
    for (const std::string& value : vary.values) {
        if (vary.machine_key())
            (void)with_key(NodeShape{}, vary.key, value);
        else if (double number = 0; !(std::istringstream(value) >> number) || !std::isfinite(number) || number <= 0)
            throw UsageError(fmt::format("--vary {}: '{}' is not a positive number", vary.key, value));
    }
    return vary;
}

NodeShape with_key(NodeShape shape, const std::string& key, const std::string& value) {
    if (key == "packages") shape.packages = whole(key, value, 1, 64);
    else if (key == "numa_per_package") shape.numa_per_package = whole(key, value, 1, 64);
    else if (key == "llc_per_package") shape.llc_per_package = whole(key, value, 1, 256);
    else if (key == "cores_per_llc") shape.cores_per_llc = whole(key, value, 1, 1024);
    else if (key == "nic_numa") shape.nic_numa = whole(key, value, 0, 4095);
    else if (key == "nodes") shape.nodes = whole(key, value, 1, 1 << 20);
    else throw UsageError(fmt::format("--vary: '{}' is not a machine key", key));
    return shape;
}

costs::Params with_figure(const costs::Params& params, const std::string& path, const std::string& value) {
    double number = 0;
    std::istringstream parse(value);
    if (!(parse >> number) || !parse.eof() || !std::isfinite(number) || number <= 0)
        throw UsageError(fmt::format("--vary {}: '{}' is not a positive number", path, value));
    nlohmann::json root = nlohmann::json::parse(costs::params_to_json(params));
    nlohmann::json* at = &root;
    std::istringstream parts(path);
    for (std::string part; std::getline(parts, part, '.');) {
        if (!at->is_object() || !at->contains(part))
            throw UsageError(fmt::format("--vary {}: the params file has no '{}' there (see docs/params.md)", path, part));
        at = &(*at)[part];
    }
    if (at->is_object() && at->contains("value") && (*at)["value"].is_number()) {
        (*at)["value"] = number;
        (*at)["source"] = fmt::format("numacoll whatif: set to {}", value);
    } else if (at->is_number()) {
        *at = number;
    } else {
        throw UsageError(fmt::format("--vary {}: that is not a figure of the params file", path));
    }
    costs::Params varied = costs::parse_params(root.dump(), fmt::format("params with {}={}", path, value));
    varied.origin = fmt::format("{}, {}={}", params.origin, path, value);
    return varied;
}

std::optional<std::size_t> first_crossover(const std::vector<std::string>& best) {
    for (std::size_t i = 1; i < best.size(); ++i)
        if (!best[i].empty() && !best.front().empty() && best[i] != best.front()) return i;
    return std::nullopt;
}

}  // namespace numacoll::tune

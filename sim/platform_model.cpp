#include "sim/platform_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>
#include <deque>
#include <set>

#include "common/error.hpp"

namespace numacoll::sim {

PlatformModel::PlatformModel(std::shared_ptr<const topo::Machine> machine, Params params, int nodes)
    : machine_(std::move(machine)), params_(std::move(params)), nodes_(nodes) {
    if (nodes_ < 1) throw UsageError(fmt::format("a platform needs at least one node (got {})", nodes_));
    build_domains();
    build_links();
}

int PlatformModel::numa_count() const { return std::max<int>(1, static_cast<int>(machine_->numa_nodes.size())); }

int PlatformModel::domain_of_numa(int numa) const {
    for (int domain = 0; domain < domain_count(); ++domain)
        if (domain_numa_[domain] == numa) return domain;
    // A memory-only NUMA node (no local cores): attach it to the first domain.
    return 0;
}

int PlatformModel::hops(int from_domain, int to_domain) const { return hops_[from_domain][to_domain]; }

void PlatformModel::build_domains() {
    const topo::Machine& machine = *machine_;
    const int llc_level = machine.last_level_cache();
    std::map<int, int> domain_of_object;  // LLC (or package) object index -> domain
    for (int core = 0; core < machine.core_count(); ++core) {
        int object = llc_level > 0 ? machine.cache_of_core(core, llc_level) : -1;
        if (object < 0 && machine.package_of_core(core) >= 0) object = machine.packages[machine.package_of_core(core)];
        if (object < 0) object = 0;
        auto [it, inserted] = domain_of_object.emplace(object, static_cast<int>(domain_of_object.size()));
        if (inserted) domain_numa_.push_back(machine.numa_of_core(core));
        core_domain_.push_back(it->second);
        const auto& cache = machine.objects[object];
        core_cache_bytes_.push_back(cache.kind == topo::ObjectKind::cache ? cache.cache_bytes : 0);
        // The smallest cache this core shares with another core, below the LLC.
        int shared = -1;
        for (int level : machine.cache_levels) {
            if (level >= llc_level) break;
            const int candidate = machine.cache_of_core(core, level);
            if (candidate >= 0 && machine.objects[candidate].cores.size() > 1) {
                shared = candidate;
                break;
            }
        }
        core_shared_cache_.push_back(shared);
    }

    // Hops from NUMA distances: the smallest remote distance is one hop, the next two...
    const int domains = domain_count();
    std::set<double> remote;
    const auto& distances = machine.distances;
    auto distance = [&](int a, int b) -> double {
        const int na = domain_numa_[a], nb = domain_numa_[b];
        if (!distances || na < 0 || nb < 0 || na >= distances->count || nb >= distances->count || na == nb) return -1;
        return distances->at(na, nb);
    };
    for (int a = 0; a < domains; ++a)
        for (int b = 0; b < domains; ++b)
            if (a != b && distance(a, b) > 0) remote.insert(distance(a, b));
    hops_.assign(domains, std::vector<int>(domains, 0));
    for (int a = 0; a < domains; ++a)
        for (int b = 0; b < domains; ++b) {
            if (a == b) continue;
            const double d = distance(a, b);
            hops_[a][b] = d > 0 ? 1 + static_cast<int>(std::distance(remote.begin(), remote.find(d))) : 1;
        }
    // Links are full duplex: an asymmetric matrix takes the nearer direction.
    for (int a = 0; a < domains; ++a)
        for (int b = a + 1; b < domains; ++b) {
            hops_[a][b] = hops_[b][a] = std::min(hops_[a][b], hops_[b][a]);
        }

    // Shortest paths over the one-hop pairs (breadth first from each domain).
    next_hop_.assign(domains, std::vector<int>(domains, -1));
    for (int source = 0; source < domains; ++source) {
        std::vector<int> first_step(domains, -1);
        std::deque<int> queue{source};
        std::vector<bool> seen(domains, false);
        seen[source] = true;
        while (!queue.empty()) {
            const int at = queue.front();
            queue.pop_front();
            for (int next = 0; next < domains; ++next) {
                if (seen[next] || hops_[at][next] != 1) continue;
                seen[next] = true;
                first_step[next] = at == source ? next : first_step[at];
                queue.push_back(next);
            }
        }
        for (int target = 0; target < domains; ++target)
            next_hop_[source][target] = first_step[target] >= 0 ? first_step[target] : target;  // direct if unreachable
    }

    if (const auto nics = machine.nics(); !nics.empty())  // one NIC per node carries the traffic: the first
        nic_numa_.push_back(std::max(0, nics.front()->numa_node));
    if (nic_numa_.empty()) {
        nic_numa_.push_back(0);
        virtual_nic_ = true;
    }
}

std::string PlatformModel::node_link(int node, const std::string& name) const { return fmt::format("n{}.{}", node, name); }

std::string PlatformModel::add_link(LinkSpec spec) {
    std::string name = spec.name;
    links_.emplace(name, std::move(spec));
    return name;
}

void PlatformModel::build_links() {
    const topo::Machine& machine = *machine_;
    auto bandwidth = [&](Level level) { return params_.at(level).bandwidth_bytes_per_ns.value; };
    auto aggregate = [&](Level level) { return params_.at(level).aggregate_bandwidth_bytes_per_ns.value; };
    auto latency = [&](Level level) { return params_.at(level).latency_ns.value; };

    for (int node = 0; node < nodes_; ++node) {
        for (int core = 0; core < machine.core_count(); ++core)
            for (Level level : {Level::local_cache, Level::same_cache, Level::same_socket, Level::other_socket, Level::dram})
                add_link({node_link(node, fmt::format("c{}.{}", core, to_string(level))), bandwidth(level),
                          level == Level::other_socket ? 0 : latency(level), false,
                          fmt::format("core {} stream ({})", core, to_string(level)), 1.0});
        for (int object : std::set<int>(core_shared_cache_.begin(), core_shared_cache_.end()))
            if (object >= 0)
                add_link({node_link(node, fmt::format("L{}#{}", machine.objects[object].cache_level,
                                                      machine.objects[object].logical_index)),
                          aggregate(Level::same_cache), 0, false, "shared cache"});
        for (int domain = 0; domain < domain_count(); ++domain)
            add_link({node_link(node, fmt::format("llc{}", domain)), aggregate(Level::same_socket), 0, false,
                      fmt::format("last-level cache of socket {}", domain)});
        for (int a = 0; a < domain_count(); ++a)
            for (int b = a + 1; b < domain_count(); ++b)
                if (hops_[a][b] == 1 || next_hop_[a][b] == b)
                    add_link({node_link(node, fmt::format("link{}-{}", a, b)), aggregate(Level::other_socket),
                              latency(Level::other_socket), true,
                              fmt::format("inter-socket link between sockets {} and {}", a, b)});
        for (int numa = 0; numa < numa_count(); ++numa)
            add_link({node_link(node, fmt::format("mc{}", numa)), aggregate(Level::dram), 0, false,
                      fmt::format("memory controller of NUMA node {}", numa)});
        for (int nic = 0; nic < nic_count(); ++nic)
            add_link({node_link(node, fmt::format("pcie{}", nic)),
                      std::min(bandwidth(Level::nic), aggregate(Level::nic)), latency(Level::nic), false,
                      virtual_nic_ ? "PCIe of a virtual NIC (hwloc reports none)" : "PCIe of the NIC", 0.5});
        // A route crosses two wires (up from one node, down into the other): half the latency each.
        add_link({node_link(node, "wire"), std::min(bandwidth(Level::network), aggregate(Level::network)),
                  latency(Level::network) / 2, true,
                  "network link between the node's NIC and the switch"});
    }
}

double PlatformModel::uncontended_ns(const RouteSpec& route, double bytes) const {
    double slowest = 0;
    for (const auto& use : route.links) {
        const double bandwidth = link(use.link).bandwidth_bytes_per_ns;
        if (slowest == 0 || bandwidth < slowest) slowest = bandwidth;
    }
    return route.latency_ns + (slowest > 0 ? bytes / slowest : 0);
}

const LinkSpec& PlatformModel::link(const std::string& name) const {
    auto it = links_.find(name);
    if (it == links_.end()) throw Error(fmt::format("platform has no link '{}'", name));
    return it->second;
}

std::vector<LinkUse> PlatformModel::domain_path(int node, int from_domain, int to_domain) const {
    std::vector<LinkUse> path;
    int at = from_domain;
    for (int guard = 0; at != to_domain && guard <= domain_count(); ++guard) {
        const int next = next_hop_[at][to_domain];
        const int low = std::min(at, next), high = std::max(at, next);
        path.push_back({node_link(node, fmt::format("link{}-{}", low, high)), at < next});
        at = next;
    }
    return path;
}

std::string PlatformModel::host_name(const Endpoint& endpoint) {
    switch (endpoint.kind) {
        case EndpointKind::core: return fmt::format("n{}.core{}", endpoint.node, endpoint.index);
        case EndpointKind::cache: return fmt::format("n{}.cache{}", endpoint.node, endpoint.index);
        case EndpointKind::memory: return fmt::format("n{}.mem{}", endpoint.node, endpoint.index);
        case EndpointKind::nic: return fmt::format("n{}.nic{}", endpoint.node, endpoint.index);
    }
    return "?";
}

namespace {

// A non-negative int written in full, or -1.
int parse_index(std::string_view text) {
    int value = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    return error == std::errc{} && end == text.data() + text.size() && value >= 0 ? value : -1;
}

}  // namespace

Endpoint PlatformModel::parse_endpoint(const std::string& text) const {
    Endpoint endpoint;
    std::string rest = text;
    if (rest.size() > 1 && rest[0] == 'n' && std::isdigit(static_cast<unsigned char>(rest[1]))) {
        const auto dot = rest.find('.');
        if (dot == std::string::npos) throw UsageError(fmt::format("endpoint '{}': expected e.g. n0.core3", text));
        endpoint.node = parse_index(std::string_view(rest).substr(1, dot - 1));
        if (endpoint.node < 0 || endpoint.node >= nodes_)
            throw UsageError(fmt::format("endpoint '{}': no such node on this platform", text));
        rest = rest.substr(dot + 1);
    }
    const std::pair<const char*, EndpointKind> kinds[] = {
        {"core", EndpointKind::core}, {"cache", EndpointKind::cache}, {"mem", EndpointKind::memory}, {"nic", EndpointKind::nic}};
    for (const auto& [prefix, kind] : kinds) {
        const std::string p = prefix;
        if (rest.rfind(p, 0) != 0 || rest.size() == p.size()) continue;
        endpoint.kind = kind;
        endpoint.index = parse_index(std::string_view(rest).substr(p.size()));
        const int limit = kind == EndpointKind::memory ? numa_count()
                          : kind == EndpointKind::nic  ? nic_count()
                                                       : machine_->core_count();
        if (endpoint.index < 0 || endpoint.index >= limit)
            throw UsageError(fmt::format("endpoint '{}' does not exist on this platform", text));
        return endpoint;
    }
    throw UsageError(fmt::format("endpoint '{}': expected coreN, cacheN, memN or nicN, optionally after nK.", text));
}

RouteSpec PlatformModel::route(const Endpoint& from, const Endpoint& to) const {
    if (from.node != to.node) throw Error("PlatformModel::route joins endpoints of one node; use describe_route");
    const int node = from.node;
    RouteSpec route;
    auto stream = [&](int core, Level level) { return LinkUse{node_link(node, fmt::format("c{}.{}", core, to_string(level))), true}; };
    auto finish = [&](Level level, int hops, std::vector<LinkUse> links) {
        route.level = level;
        route.hops = hops;
        route.links = std::move(links);
        for (const auto& use : route.links) route.latency_ns += link(use.link).latency_ns;
        return route;
    };
    auto memory_domain = [&](int numa) { return domain_of_numa(numa); };
    auto nic_domain = [&](int nic) { return domain_of_numa(nic_numa_[nic]); };

    using K = EndpointKind;
    if (from.kind == K::cache && to.kind == K::core) {
        const int owner = from.index, reader = to.index;
        if (owner == reader) return finish(Level::local_cache, 0, {stream(reader, Level::local_cache)});
        const int shared = core_shared_cache_[reader];
        if (shared >= 0 && shared == core_shared_cache_[owner]) {
            const auto& cache = machine_->objects[shared];
            return finish(Level::same_cache, 0,
                          {stream(reader, Level::same_cache),
                           {node_link(node, fmt::format("L{}#{}", cache.cache_level, cache.logical_index)), true}});
        }
        const int a = core_domain_[owner], b = core_domain_[reader];
        if (a == b)
            return finish(Level::same_socket, 0, {stream(reader, Level::same_socket), {node_link(node, fmt::format("llc{}", a)), true}});
        std::vector<LinkUse> links{stream(reader, Level::other_socket)};
        for (const auto& use : domain_path(node, a, b)) links.push_back(use);
        return finish(Level::other_socket, hops_[a][b], links);
    }
    if (from.kind == K::core && to.kind == K::cache && from.index == to.index)
        return finish(Level::local_cache, 0, {stream(from.index, Level::local_cache)});
    if ((from.kind == K::memory && to.kind == K::core) || (from.kind == K::core && to.kind == K::memory)) {
        const int numa = from.kind == K::memory ? from.index : to.index;
        const int core = from.kind == K::core ? from.index : to.index;
        const int md = memory_domain(numa), cd = core_domain_[core];
        std::vector<LinkUse> links{stream(core, Level::dram), {node_link(node, fmt::format("mc{}", numa)), true}};
        for (const auto& use : from.kind == K::memory ? domain_path(node, md, cd) : domain_path(node, cd, md)) links.push_back(use);
        return finish(Level::dram, md == cd ? 0 : hops_[md][cd], links);
    }
    if ((from.kind == K::memory && to.kind == K::nic) || (from.kind == K::nic && to.kind == K::memory)) {
        const int numa = from.kind == K::memory ? from.index : to.index;
        const int nic = from.kind == K::nic ? from.index : to.index;
        const int md = memory_domain(numa), nd = nic_domain(nic);
        const LinkUse controller{node_link(node, fmt::format("mc{}", numa)), true};
        const LinkUse pcie{node_link(node, fmt::format("pcie{}", nic)), true};
        std::vector<LinkUse> links;
        if (from.kind == K::memory) {
            links.push_back(controller);
            for (const auto& use : domain_path(node, md, nd)) links.push_back(use);
            links.push_back(pcie);
        } else {
            links.push_back(pcie);
            for (const auto& use : domain_path(node, nd, md)) links.push_back(use);
            links.push_back(controller);
        }
        return finish(Level::nic, md == nd ? 0 : hops_[md][nd], links);
    }
    if ((from.kind == K::core && to.kind == K::nic) || (from.kind == K::nic && to.kind == K::core)) {
        // A core talking to the NIC directly (doorbells, programmed I/O).
        const int core = from.kind == K::core ? from.index : to.index;
        const int nic = from.kind == K::nic ? from.index : to.index;
        const int cd = core_domain_[core], nd = nic_domain(nic);
        const LinkUse pcie{node_link(node, fmt::format("pcie{}", nic)), true};
        std::vector<LinkUse> links;
        if (from.kind == K::core) {
            links = domain_path(node, cd, nd);
            links.push_back(pcie);
        } else {
            links.push_back(pcie);
            for (const auto& use : domain_path(node, nd, cd)) links.push_back(use);
        }
        return finish(Level::nic, cd == nd ? 0 : hops_[cd][nd], links);
    }
    throw UsageError(fmt::format("the platform has no route from {} to {} (routes join a core or memory with a "
                                 "cache, core, memory or NIC)",
                                 host_name(from), host_name(to)));
}

RouteSpec PlatformModel::network_route(int from_node, int to_node) const {
    RouteSpec route;
    route.level = Level::network;
    route.links = {{node_link(from_node, "wire"), true}, {node_link(to_node, "wire"), false}};
    for (const auto& use : route.links) route.latency_ns += link(use.link).latency_ns;
    return route;
}

std::vector<RouteSpec> PlatformModel::describe_route(const Endpoint& from, const Endpoint& to) const {
    if (from.node == to.node) return {route(from, to)};
    if (from.kind != EndpointKind::memory || to.kind != EndpointKind::memory)
        throw UsageError("across nodes, routes go from memory to memory (e.g. n0.mem0 to n1.mem1)");
    const Endpoint nic_from{EndpointKind::nic, from.node, primary_nic()};
    const Endpoint nic_to{EndpointKind::nic, to.node, primary_nic()};
    return {route(from, nic_from), network_route(from.node, to.node), route(nic_to, to)};
}

}  // namespace numacoll::sim

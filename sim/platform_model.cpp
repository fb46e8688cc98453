#include "sim/platform_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <string_view>
#include <set>

#include "common/error.hpp"

using numacoll::costs::Level;

namespace numacoll::sim {

PlatformModel::PlatformModel(std::shared_ptr<const topo::Machine> machine, costs::Params params, int nodes)
    : machine_(std::move(machine)), params_(std::move(params)), nodes_(nodes), levels_(*machine_) {
    if (nodes_ < 1) throw UsageError(fmt::format("a platform needs at least one node (got {})", nodes_));
    if (params_.private_cache_bytes) private_cache_bytes_ = params_.private_cache_bytes->value;
    find_nics();
    build_links();
}

int PlatformModel::numa_count() const { return std::max<int>(1, static_cast<int>(machine_->numa_nodes.size())); }

void PlatformModel::find_nics() {
    const topo::Machine& machine = *machine_;
    // hwloc reports a card once per OS device (ib0 and mlx4_0): one NIC per PCI device.
    std::set<std::string> devices;
    for (const topo::IoDevice* device : machine.nics())
        if (devices.insert(device->pci_busid.empty() ? device->name : device->pci_busid).second)
            nic_numa_.push_back(std::clamp(device->numa_node, 0, numa_count() - 1));
    if (nic_numa_.empty()) {
        nic_numa_.push_back(0);
        virtual_nic_ = true;
    }
    const auto& distances = machine.distances;
    auto distance = [&](int a, int b) {
        if (a == b) return 0.0;
        if (distances && a < distances->count && b < distances->count) return distances->at(a, b);
        return 1.0;
    };
    for (int numa = 0; numa < numa_count(); ++numa) {
        int best = 0;
        for (int nic = 1; nic < nic_count(); ++nic)
            if (distance(numa, nic_numa_[nic]) < distance(numa, nic_numa_[best])) best = nic;
        nearest_nic_.push_back(best);
    }
}

double PlatformModel::dma_round_trip_ns(int numa, int nic, bool read) const {
    return costs::dma_round_trip_ns(params_, levels_.hops(levels_.domain_of_numa(numa), levels_.domain_of_numa(nic_numa_[nic])),
                                    read);
}

LinkUse PlatformModel::node_link(int node, const std::string& name, bool up) const {
    const auto found = link_index_.find(name);
    if (found == link_index_.end()) throw Error(fmt::format("platform has no link '{}'", name));
    return {node, found->second, up};
}

std::string PlatformModel::link_name(const LinkUse& use) const {
    return fmt::format("n{}.{}", use.node, node_links_[static_cast<std::size_t>(use.link)].name);
}

void PlatformModel::add_link(LinkSpec spec) {
    link_index_.emplace(spec.name, static_cast<int>(node_links_.size()));
    node_links_.push_back(std::move(spec));
}

void PlatformModel::build_links() {
    const topo::Machine& machine = *machine_;
    auto bandwidth = [&](Level level) { return params_.at(level).bandwidth_bytes_per_ns.value; };
    auto aggregate = [&](Level level) { return params_.at(level).aggregate_bandwidth_bytes_per_ns.value; };
    auto latency = [&](Level level) { return params_.at(level).latency_ns.value; };

    // One node's links, named without the node: every node has the same.
    // The caches some cores share below the last level.
    std::set<int> shared_caches;
    for (int core = 0; core < machine.core_count(); ++core) shared_caches.insert(levels_.shared_cache_of_core(core));
    for (int core = 0; core < machine.core_count(); ++core)
        for (Level level : {Level::local_cache, Level::same_cache, Level::same_socket, Level::other_socket, Level::dram})
            add_link({fmt::format("c{}.{}", core, to_string(level)), bandwidth(level),
                      level == Level::other_socket ? 0 : latency(level), false,
                      fmt::format("core {} stream ({})", core, to_string(level)), 1.0});
    for (int object : shared_caches)
        if (object >= 0)
            add_link({fmt::format("L{}#{}", machine.objects[object].cache_level, machine.objects[object].logical_index),
                      aggregate(Level::same_cache), 0, false, "shared cache"});
    for (int domain = 0; domain < domain_count(); ++domain)
        add_link({fmt::format("llc{}", domain), aggregate(Level::same_socket), 0, false,
                  fmt::format("last-level cache of LLC domain {}", domain)});
    for (int a = 0; a < domain_count(); ++a)
        for (int b = a + 1; b < domain_count(); ++b)
            if (levels_.hops(a, b) == 1 || levels_.next_hop(a, b) == b)
                add_link({fmt::format("link{}-{}", a, b), aggregate(Level::other_socket),
                          latency(Level::other_socket), true,
                          fmt::format("link between LLC domains {} and {} (QPI, HyperTransport)", a, b)});
    for (int numa = 0; numa < numa_count(); ++numa)
        add_link({fmt::format("mc{}", numa), aggregate(Level::dram), 0, false,
                  fmt::format("memory controller of NUMA node {}", numa)});
    for (int nic = 0; nic < nic_count(); ++nic)
        add_link({fmt::format("pcie{}", nic),
                  std::min(bandwidth(Level::nic), aggregate(Level::nic)), latency(Level::nic), true,
                  virtual_nic_ ? "PCIe of a virtual NIC (hwloc reports none)" : fmt::format("PCIe of NIC {}", nic),
                  0.5});
    if (params_.nic_dma)
        for (int numa = 0; numa < numa_count(); ++numa)
            for (int nic = 0; nic < nic_count(); ++nic) {
                const double read_trip_ns = dma_round_trip_ns(numa, nic, true);
                const double write_trip_ns = dma_round_trip_ns(numa, nic, false);
                add_link({fmt::format("dmaread{}-{}", numa, nic),
                          params_.nic_dma->read_window_bytes.value / read_trip_ns, 0, false,
                          fmt::format("DMA reads of NUMA node {} by NIC {}: window / {:.1f} ns round trip", numa,
                                      nic, read_trip_ns)});
                add_link({fmt::format("dmawrite{}-{}", numa, nic),
                          params_.nic_dma->write_window_bytes.value / write_trip_ns, 0, false,
                          fmt::format("DMA writes into NUMA node {} by NIC {}: window / {:.1f} ns round trip",
                                      numa, nic, write_trip_ns)});
            }
    // A route crosses two wires (up from one node, down into the other): half the latency each.
    add_link({"wire", std::min(bandwidth(Level::network), aggregate(Level::network)),
              latency(Level::network) / 2, true,
              "the node's port into the network (shared by its NICs), to the switch"});
}

NodeRoutes::Known& NodeRoutes::known(const Endpoint& from, const Endpoint& to) {
    auto packed = [](const Endpoint& end) {
        return static_cast<std::uint64_t>(end.kind) << 32 | static_cast<std::uint32_t>(end.index);
    };
    const Key key{packed(from), packed(to)};
    auto found = routes_.find(key);
    if (found == routes_.end()) {
        RouteSpec route = platform_.route({from.kind, 0, from.index}, {to.kind, 0, to.index});
        const double slowest = platform_.slowest_bytes_per_ns(route);
        found = routes_.emplace(key, Known{std::move(route), slowest}).first;
    }
    return found->second;
}

const RouteSpec& NodeRoutes::on_node0(const Endpoint& from, const Endpoint& to) { return known(from, to).route; }

double NodeRoutes::uncontended_ns(const Endpoint& from, const Endpoint& to, double bytes) {
    // A core and its own cache or LLC: which of the four routes, else -1.
    int own = -1;
    if (from.index == to.index && from.index >= 0) {
        if (from.kind == EndpointKind::core && to.kind == EndpointKind::cache) own = 0;
        if (from.kind == EndpointKind::cache && to.kind == EndpointKind::core) own = 1;
        if (from.kind == EndpointKind::core && to.kind == EndpointKind::llc) own = 2;
        if (from.kind == EndpointKind::llc && to.kind == EndpointKind::core) own = 3;
    }
    if (own < 0) {
        const Known& entry = known(from, to);
        return PlatformModel::uncontended_ns(entry.route.latency_ns, entry.slowest_bytes_per_ns, bytes);
    }
    const auto core = static_cast<std::size_t>(from.index);
    if (core >= own_.size()) own_.resize(core + 1);
    Uncontended& entry = own_[core][static_cast<std::size_t>(own)];
    if (entry.slowest_bytes_per_ns == 0) {
        const Known& found = known(from, to);
        entry = {found.route.latency_ns, found.slowest_bytes_per_ns};  // a route of no link: asked again, the same
    }
    return PlatformModel::uncontended_ns(entry.latency_ns, entry.slowest_bytes_per_ns, bytes);
}

RouteSpec NodeRoutes::route(const Endpoint& from, const Endpoint& to) {
    if (from.node != to.node) throw Error("NodeRoutes::route joins endpoints of one node");
    RouteSpec route = on_node0(from, to);
    for (LinkUse& use : route.links) use.node = from.node;
    return route;
}

double PlatformModel::slowest_bytes_per_ns(const RouteSpec& route) const {
    double slowest = 0;
    for (const auto& use : route.links) {
        const double bandwidth = link(use).bandwidth_bytes_per_ns;
        if (slowest == 0 || bandwidth < slowest) slowest = bandwidth;
    }
    return slowest;
}

double PlatformModel::uncontended_ns(const RouteSpec& route, double bytes) const {
    return uncontended_ns(route.latency_ns, slowest_bytes_per_ns(route), bytes);
}

const LinkSpec& PlatformModel::link(const std::string& name) const {
    const auto dot = name.find('.');
    int node = -1;
    if (name.size() > 1 && name[0] == 'n' && dot != std::string::npos) {
        const auto [end, error] = std::from_chars(name.data() + 1, name.data() + dot, node);
        if (error != std::errc{} || end != name.data() + dot) node = -1;
    }
    const auto found = node >= 0 && node < nodes_ ? link_index_.find(name.substr(dot + 1)) : link_index_.end();
    if (found == link_index_.end()) throw Error(fmt::format("platform has no link '{}'", name));
    return node_links_[static_cast<std::size_t>(found->second)];
}

std::vector<LinkUse> PlatformModel::domain_path(int node, int from_domain, int to_domain) const {
    std::vector<LinkUse> path;
    int at = from_domain;
    for (int guard = 0; at != to_domain && guard <= domain_count(); ++guard) {
        const int next = levels_.next_hop(at, to_domain);
        const int low = std::min(at, next), high = std::max(at, next);
        path.push_back(node_link(node, fmt::format("link{}-{}", low, high), at < next));
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
        case EndpointKind::dma: return fmt::format("n{}.dma{}", endpoint.node, endpoint.index);
        case EndpointKind::llc: return fmt::format("n{}.llc{}", endpoint.node, endpoint.index);
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
    auto stream = [&](int core, Level level) { return node_link(node, fmt::format("c{}.{}", core, to_string(level))); };
    auto finish = [&](Level level, int hops, std::vector<LinkUse> links) {
        route.level = level;
        route.hops = hops;
        route.links = std::move(links);
        for (const auto& use : route.links) route.latency_ns += link(use).latency_ns;
        return route;
    };
    auto memory_domain = [&](int numa) { return levels_.domain_of_numa(numa); };
    auto nic_domain = [&](int nic) { return levels_.domain_of_numa(nic_numa_[nic]); };

    using K = EndpointKind;
    if (from.kind == K::cache && to.kind == K::core) {
        const int owner = from.index, reader = to.index;
        const costs::LevelJoin join = levels_.between(owner, reader);
        switch (join.level) {
            case Level::local_cache: return finish(Level::local_cache, 0, {stream(reader, Level::local_cache)});
            case Level::same_cache: {
                const auto& cache = machine_->objects[levels_.shared_cache_of_core(reader)];
                return finish(Level::same_cache, 0,
                              {stream(reader, Level::same_cache),
                               node_link(node, fmt::format("L{}#{}", cache.cache_level, cache.logical_index))});
            }
            case Level::same_socket:
                return finish(Level::same_socket, 0,
                              {stream(reader, Level::same_socket),
                               node_link(node, fmt::format("llc{}", levels_.domain_of_core(reader)))});
            default: {
                std::vector<LinkUse> links{stream(reader, Level::other_socket)};
                for (const auto& use : domain_path(node, levels_.domain_of_core(owner), levels_.domain_of_core(reader)))
                    links.push_back(use);
                return finish(Level::other_socket, join.hops, links);
            }
        }
    }
    if (from.kind == K::core && to.kind == K::cache && from.index == to.index)
        return finish(Level::local_cache, 0, {stream(from.index, Level::local_cache)});
    if (((from.kind == K::llc && to.kind == K::core) || (from.kind == K::core && to.kind == K::llc)) &&
        from.index == to.index)
        return finish(Level::same_socket, 0,
                      {stream(from.index, Level::same_socket),
                       node_link(node, fmt::format("llc{}", levels_.domain_of_core(from.index)))});
    if ((from.kind == K::memory && to.kind == K::core) || (from.kind == K::core && to.kind == K::memory)) {
        const int numa = from.kind == K::memory ? from.index : to.index;
        const int core = from.kind == K::core ? from.index : to.index;
        const int md = memory_domain(numa), cd = levels_.domain_of_core(core);
        std::vector<LinkUse> links{stream(core, Level::dram), node_link(node, fmt::format("mc{}", numa))};
        for (const auto& use : from.kind == K::memory ? domain_path(node, md, cd) : domain_path(node, cd, md)) links.push_back(use);
        return finish(Level::dram, md == cd ? 0 : levels_.hops(md, cd), links);
    }
    if ((from.kind == K::memory && to.kind == K::nic) || (from.kind == K::nic && to.kind == K::memory)) {
        const int numa = from.kind == K::memory ? from.index : to.index;
        const int nic = from.kind == K::nic ? from.index : to.index;
        const int md = memory_domain(numa), nd = nic_domain(nic);
        const LinkUse controller = node_link(node, fmt::format("mc{}", numa));
        const LinkUse pcie = node_link(node, fmt::format("pcie{}", nic), from.kind == K::memory);  // up: towards the NIC
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
        return finish(Level::nic, md == nd ? 0 : levels_.hops(md, nd), links);
    }
    if ((from.kind == K::core && to.kind == K::nic) || (from.kind == K::nic && to.kind == K::core)) {
        // A core talking to the NIC directly (doorbells, programmed I/O).
        const int core = from.kind == K::core ? from.index : to.index;
        const int nic = from.kind == K::nic ? from.index : to.index;
        const int cd = levels_.domain_of_core(core), nd = nic_domain(nic);
        const LinkUse pcie = node_link(node, fmt::format("pcie{}", nic), from.kind == K::core);  // up: towards the NIC
        std::vector<LinkUse> links;
        if (from.kind == K::core) {
            links = domain_path(node, cd, nd);
            links.push_back(pcie);
        } else {
            links.push_back(pcie);
            for (const auto& use : domain_path(node, nd, cd)) links.push_back(use);
        }
        return finish(Level::nic, cd == nd ? 0 : levels_.hops(cd, nd), links);
    }
    throw UsageError(fmt::format("the platform has no route from {} to {} (routes join a core or memory with a "
                                 "cache, core, memory or NIC)",
                                 host_name(from), host_name(to)));
}

RouteSpec PlatformModel::dma_route(const Endpoint& dma, bool outgoing) const {
    const int node = dma.node, numa = numa_of_dma(dma), nic = nic_of_dma(dma);
    const int md = levels_.domain_of_numa(numa), nd = levels_.domain_of_numa(nic_numa_[nic]);
    const LinkUse controller = node_link(node, fmt::format("mc{}", numa));
    // PCIe is full duplex: a NIC reads memory (up) while it writes (down).
    const LinkUse pcie = node_link(node, fmt::format("pcie{}", nic), outgoing);
    std::vector<LinkUse> links;
    // In the order the data flows: memory first going out, PCIe first coming in.
    links.push_back(outgoing ? controller : pcie);
    if (!outgoing && params_.nic_dma) links.push_back(node_link(node, fmt::format("dmawrite{}-{}", numa, nic)));
    for (const auto& use : outgoing ? domain_path(node, md, nd) : domain_path(node, nd, md)) links.push_back(use);
    if (outgoing && params_.nic_dma) links.push_back(node_link(node, fmt::format("dmaread{}-{}", numa, nic)));
    links.push_back(outgoing ? pcie : controller);
    RouteSpec route;
    route.level = Level::nic;
    route.hops = md == nd ? 0 : levels_.hops(md, nd);
    route.links = std::move(links);
    for (const auto& use : route.links) route.latency_ns += link(use).latency_ns;
    return route;
}

RouteSpec PlatformModel::network_route(int from_node, int to_node) const {
    RouteSpec route = port_route(from_node, true);
    const RouteSpec in = port_route(to_node, false);
    route.links.insert(route.links.end(), in.links.begin(), in.links.end());
    route.latency_ns += in.latency_ns;
    return route;
}

RouteSpec PlatformModel::port_route(int node, bool outgoing) const {
    RouteSpec route;
    route.level = Level::network;
    route.links = {node_link(node, "wire", outgoing)};
    route.latency_ns = link(route.links.front()).latency_ns;
    return route;
}

std::vector<RouteSpec> PlatformModel::describe_route(const Endpoint& from, const Endpoint& to) const {
    if (from.node == to.node) return {route(from, to)};
    if (from.kind != EndpointKind::memory || to.kind != EndpointKind::memory)
        throw UsageError("across nodes, routes go from memory to memory (e.g. n0.mem0 to n1.mem1)");
    return {dma_route(dma(from.node, from.index, nearest_nic(from.index)), true), network_route(from.node, to.node),
            dma_route(dma(to.node, to.index, nearest_nic(to.index)), false)};
}

}  // namespace numacoll::sim

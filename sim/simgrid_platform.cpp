#include "sim/simgrid_platform.hpp"

#include <fmt/format.h>
#include <xbt/base.h>  // SG_BEGIN_DECL, XBT_PUBLIC: version.h needs them first
#include <simgrid/version.h>

#if SIMGRID_VERSION < 33300
#include <simgrid/kernel/resource/NetworkModelIntf.hpp>
#endif

#include <algorithm>
#include <unordered_set>

#include "common/error.hpp"
#include "common/progress.hpp"
#include "sim/platform_lookups.hpp"
#include "sim/route_table_zone.hpp"

namespace numacoll::sim {

namespace sg = simgrid::s4u;

namespace {

// SimGrid 4.0 made the platform API: zones are added to a parent (the
// engine's root exists from the start), and create_* became add_*.
#if SIMGRID_VERSION >= 40000
sg::NetZone* new_star_root(const std::string& name) {
    return sg::Engine::get_instance()->get_netzone_root()->add_netzone_star(name);
}
sg::Host* new_host(sg::NetZone* zone, const std::string& name, double speed) { return zone->add_host(name, speed); }
sg::Link* new_link(sg::NetZone* zone, const std::string& name, double bandwidth) {
    return zone->add_link(name, bandwidth);
}
sg::SplitDuplexLink* new_split_duplex_link(sg::NetZone* zone, const std::string& name, double bandwidth) {
    return zone->add_split_duplex_link(name, bandwidth);
}
simgrid::kernel::routing::NetPoint* new_router(sg::NetZone* zone, const std::string& name) {
    return zone->add_router(name);
}
#else
sg::NetZone* new_star_root(const std::string& name) { return sg::create_star_zone(name); }
sg::Host* new_host(sg::NetZone* zone, const std::string& name, double speed) { return zone->create_host(name, speed); }
sg::Link* new_link(sg::NetZone* zone, const std::string& name, double bandwidth) {
    return zone->create_link(name, bandwidth);
}
sg::SplitDuplexLink* new_split_duplex_link(sg::NetZone* zone, const std::string& name, double bandwidth) {
    return zone->create_split_duplex_link(name, bandwidth);
}
simgrid::kernel::routing::NetPoint* new_router(sg::NetZone* zone, const std::string& name) {
    return zone->create_router(name);
}
#endif

// One direction only. SimGrid 3.35 deprecated this form (routes with
// gateways given per route) in favour of zone gateways; 4.1 still has it
// (until 4.2).
void add_route(sg::NetZone* zone, simgrid::kernel::routing::NetPoint* from, simgrid::kernel::routing::NetPoint* to,
               simgrid::kernel::routing::NetPoint* gateway_from, simgrid::kernel::routing::NetPoint* gateway_to,
               const std::vector<sg::LinkInRoute>& links) {
#if SIMGRID_VERSION >= 33500
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
    zone->add_route(from, to, gateway_from, gateway_to, links, false);
#if SIMGRID_VERSION >= 33500
#pragma GCC diagnostic pop
#endif
}

using LatencyFactor = std::function<double(double, const sg::Host*, const sg::Host*, const std::vector<sg::Link*>&,
                                           const std::unordered_set<sg::NetZone*>&)>;

// From 3.33 a zone sets the network model's latency factor itself.
void set_latency_factor(sg::NetZone* zone, const LatencyFactor& factor) {
#if SIMGRID_VERSION >= 33300
    zone->set_latency_factor_cb(factor);
#else
    zone->get_network_model()->set_lat_factor_cb(factor);
#endif
}

// No TCP window: the cost model's links alone bound a flow. From 3.34,
// TCP-gamma 0 says so. Before, CM02 bounds every flow by gamma / (2 x its
// latency) whatever gamma is, so 0 gave each flow a bound of 0, which 3.32
// does not handle as no bound (where exactly was not traced): of two
// transfers crossing two nodes in opposite directions at once, one ran
// past its wires' bandwidth. A gamma whose bound never binds gives the
// rates that 3.34 and later give with 0 (held by the closed-form test
// OppositeTransfersAtOnceEachGetTheirOwnWires).
#if SIMGRID_VERSION >= 33400
constexpr const char* no_tcp_window = "network/TCP-gamma:0";
#else
constexpr const char* no_tcp_window = "network/TCP-gamma:1e200";
#endif

// SimGrid's timing precision is absolute, in its unit of time, and its
// default (1e-9) assumes seconds. numacoll's unit is the nanosecond, and
// past about 1e7 ns a double cannot resolve 1e-9 any more (its spacing at
// 2.5e7 is 3.7e-9): scattering 4 MiB blocks from one westmere node to two
// others, SimGrid stopped at 25.6 ms with both 48 MiB transfers unfinished.
// 1e-4 ns stays above that spacing up to 4.5e11 ns (7.5 minutes) of
// simulated time, and below anything the cost model resolves: reproduce's
// figures are the same to the last printed digit (1e-3 moved one by 3 ps).
// Renamed from surf/precision in 3.34.
#if SIMGRID_VERSION >= 33400
constexpr const char* timing_precision = "precision/timing:1e-4";
#else
constexpr const char* timing_precision = "surf/precision:1e-4";
#endif

}  // namespace

void SimgridPlatform::configure_engine() {
    // Every key set here is in relied_on_simgrid_keys() (engine.cpp): a user's --cfg may not move it.
    sg::Engine::set_config("network/model:CM02");
    sg::Engine::set_config("network/crosstraffic:0");
    sg::Engine::set_config(no_tcp_window);
    sg::Engine::set_config(timing_precision);
}

SimgridPlatform::SimgridPlatform(const PlatformModel& model, const std::set<Pair>& routes,
                                 const std::set<Endpoint>& activity_hosts,
                                 const std::function<void()>& every_while_building)
    : model_(model) {
    PlatformIndex index;
    index_ = &index;
    root_ = new_star_root("numacoll");
    links_.assign(model.link_count(), nullptr);
    const double core_speed = model.params().reduce_bytes_per_ns.value;
    // Only the hosts a route or an activity uses: at 16,384 westmere nodes
    // the others would be two thirds of the platform's memory.
    hosts_.assign(slot({EndpointKind::core, model.nodes(), 0}), nullptr);
    std::vector<char> needed(hosts_.size(), 0);
    for (const auto& [from, to] : routes) needed[slot(from)] = needed[slot(to)] = 1;
    for (const Endpoint& endpoint : activity_hosts) needed[slot(endpoint)] = 1;
    const auto add_if_needed = [&](const Endpoint& endpoint, double speed) {
        if (needed[slot(endpoint)]) add_host(endpoint, speed);
    };
    ProgressReport progress("building the SimGrid platform", "nodes", static_cast<std::size_t>(model.nodes()));
    for (int node = 0; node < model.nodes(); ++node) {
        progress.advance(static_cast<std::size_t>(node));
        // Not SimGrid's FullZone: its table has a slot per pair of netpoints (sim/route_table_zone.hpp).
        auto* zone = RouteTableZone::create(root_, fmt::format("node{}", node));
        index.add_node_zone(zone);
        node_zones_.push_back(zone);
        for (int core = 0; core < model.machine().core_count(); ++core) {
            add_if_needed({EndpointKind::core, node, core}, core_speed);
            add_if_needed({EndpointKind::cache, node, core}, 1);
        }
        for (int numa = 0; numa < model.numa_count(); ++numa) add_if_needed({EndpointKind::memory, node, numa}, 1);
        for (int nic = 0; nic < model.nic_count(); ++nic) add_if_needed({EndpointKind::nic, node, nic}, 1);
        for (int numa = 0; numa < model.numa_count(); ++numa)
            for (int nic = 0; nic < model.nic_count(); ++nic) add_if_needed(model.dma(node, numa, nic), 1);
        if (model.spills_to_llc())
            for (int core = 0; core < model.machine().core_count(); ++core)
                add_if_needed({EndpointKind::llc, node, core}, 1);
        ports_.push_back(new_router(zone, fmt::format("n{}.port", node)));
        if (every_while_building) every_while_building();
    }

    std::set<Pair> local;
    std::set<Endpoint> sending, receiving;  // DMA endpoints
    std::set<std::pair<int, int>> between_nodes;
    for (const auto& [from, to] : routes) {
        if (from.node == to.node) {
            local.insert({from, to});
            continue;
        }
        if (from.kind != EndpointKind::dma || to.kind != EndpointKind::dma)
            throw Error(fmt::format("a transfer between nodes joins two DMA endpoints, not {} and {}",
                                    PlatformModel::host_name(from), PlatformModel::host_name(to)));
        sending.insert(from);
        receiving.insert(to);
        between_nodes.insert({from.node, to.node});
    }
    NodeRoutes node_routes(model);  // each in-node route computed once, for every node
    std::size_t routes_added = 0;
    for (const auto& [from, to] : local) {
        auto* zone = node_zones_[from.node];
        add_route(zone, host(from)->get_netpoint(), host(to)->get_netpoint(), nullptr, nullptr,
                  links_of(node_routes.route(from, to), zone));
        if (every_while_building && ++routes_added % 256 == 0) every_while_building();
    }
    for (const Endpoint& dma : sending) {
        auto* zone = node_zones_[dma.node];
        add_route(zone, host(dma)->get_netpoint(), ports_[dma.node], nullptr, nullptr,
                  links_of(model.dma_route(dma, true), zone));
    }
    for (const Endpoint& dma : receiving) {
        auto* zone = node_zones_[dma.node];
        add_route(zone, ports_[dma.node], host(dma)->get_netpoint(), nullptr, nullptr,
                  links_of(model.dma_route(dma, false), zone));
    }
    for (auto* zone : node_zones_) zone->seal();
    // Between nodes, the root is a star: a route is the sender's wire up and
    // the receiver's wire down (PlatformModel::network_route), so each node
    // needs one route up and one down, not one per pair of nodes.
    std::set<int> senders, receivers;
    for (const auto& [from_node, to_node] : between_nodes) {
        senders.insert(from_node);
        receivers.insert(to_node);
    }
    for (int node : senders)
        add_route(root_, node_zones_[node]->get_netpoint(), nullptr, ports_[node], nullptr,
                  links_of(model.port_route(node, true), root_));
    for (int node : receivers)
        add_route(root_, nullptr, node_zones_[node]->get_netpoint(), nullptr, ports_[node],
                  links_of(model.port_route(node, false), root_));
    root_->seal();
    index_ = nullptr;

    set_latency_factor(root_, [this](double, const sg::Host*, const sg::Host*, const std::vector<sg::Link*>& links,
                                     const std::unordered_set<sg::NetZone*>&) {
        double real = 0;
        for (const sg::Link* used : links) {
            const double* latency_ns = used->get_data<const double>();
            if (latency_ns == nullptr)
                throw Error(fmt::format("SimGrid routed a comm over link {}, not numacoll's", used->get_cname()));
            real += *latency_ns;
        }
        const double credit_ns = latency_credit_ns_;
        latency_credit_ns_ = 0;
        return std::max(0.0, real - credit_ns) / raw_route_latency_ns;
    });
}

// Hosts of a node, in order: cores, their caches, memories, NICs, DMA
// endpoints, the LLC as each core sees it (only when the params spill).
std::size_t SimgridPlatform::slot(const Endpoint& endpoint) const {
    const std::size_t cores = static_cast<std::size_t>(model_.machine().core_count());
    const std::size_t numas = static_cast<std::size_t>(model_.numa_count());
    const std::size_t nics = static_cast<std::size_t>(model_.nic_count());
    const std::size_t per_node = 3 * cores + numas + nics + numas * nics;
    std::size_t index = static_cast<std::size_t>(endpoint.index);
    switch (endpoint.kind) {
        case EndpointKind::core: break;
        case EndpointKind::cache: index += cores; break;
        case EndpointKind::memory: index += 2 * cores; break;
        case EndpointKind::nic: index += 2 * cores + numas; break;
        case EndpointKind::dma: index += 2 * cores + numas + nics; break;
        case EndpointKind::llc: index += 2 * cores + numas + nics + numas * nics; break;
    }
    return static_cast<std::size_t>(endpoint.node) * per_node + index;
}

void SimgridPlatform::add_host(const Endpoint& endpoint, double speed) {
    auto* zone = node_zones_[endpoint.node];
    const std::size_t at = slot(endpoint);
    hosts_[at] = new_host(zone, PlatformModel::host_name(endpoint), speed)->seal();
    index_->add_host(hosts_[at]);
}

sg::Host* SimgridPlatform::host(const Endpoint& endpoint) const {
    const std::size_t at = slot(endpoint);
    if (at >= hosts_.size() || hosts_[at] == nullptr)
        throw Error(fmt::format("the platform has no host {}", PlatformModel::host_name(endpoint)));
    return hosts_[at];
}

sg::Link* SimgridPlatform::link(const LinkUse& use, sg::NetZone* zone) {
    sg::Link*& slot = links_[static_cast<std::size_t>(use.node) * static_cast<std::size_t>(model_.links_per_node()) +
                             static_cast<std::size_t>(use.link)];
    if (slot != nullptr) return slot;
    const LinkSpec& spec = model_.link(use);
    const std::string name = model_.link_name(use);
    // The link's data points at its real latency (the latency-factor callback reads it per comm).
    real_latency_ns_.push_back(spec.latency_ns);
    sg::Link* created = nullptr;
    const double raw_latency = spec.raw_latency_share * raw_route_latency_ns;
    if (spec.split_duplex) {
        auto* duplex = new_split_duplex_link(zone, name, spec.bandwidth_bytes_per_ns);
        duplex->set_latency(raw_latency);
        duplex->seal();
        created = duplex;
        index_->add_link(duplex->get_link_up());
        index_->add_link(duplex->get_link_down());
        // The callback sees the directional halves.
        duplex->get_link_up()->set_data(&real_latency_ns_.back());
        duplex->get_link_down()->set_data(&real_latency_ns_.back());
    } else {
        created = new_link(zone, name, spec.bandwidth_bytes_per_ns);
        created->set_latency(raw_latency);
        created->seal();
        index_->add_link(created);
    }
    created->set_data(&real_latency_ns_.back());
    slot = created;
    return created;
}

std::vector<sg::LinkInRoute> SimgridPlatform::links_of(const RouteSpec& route, sg::NetZone* zone) {
    std::vector<sg::LinkInRoute> result;
    for (const LinkUse& use : route.links) {
        sg::Link* found = link(use, zone);
        if (model_.link(use).split_duplex)
            result.emplace_back(found, use.up ? sg::LinkInRoute::Direction::UP : sg::LinkInRoute::Direction::DOWN);
        else
            result.emplace_back(found);
    }
    return result;
}

}  // namespace numacoll::sim

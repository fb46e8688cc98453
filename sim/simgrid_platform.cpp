#include "sim/simgrid_platform.hpp"

#include <fmt/format.h>

#include <simgrid/kernel/resource/NetworkModelIntf.hpp>

#include <unordered_set>

#include "common/error.hpp"

namespace numacoll::sim {

namespace sg = simgrid::s4u;

void SimgridPlatform::configure_engine() {
    // Every key set here is in relied_on_simgrid_keys() (engine.cpp): a user's --cfg may not move it.
    sg::Engine::set_config("network/model:CM02");
    sg::Engine::set_config("network/crosstraffic:0");
    sg::Engine::set_config("network/TCP-gamma:0");
}

SimgridPlatform::SimgridPlatform(const PlatformModel& model, const std::set<Pair>& routes) : model_(model) {
    root_ = sg::create_full_zone("numacoll");
    const double core_speed = model.params().reduce_bytes_per_ns.value;
    for (int node = 0; node < model.nodes(); ++node) {
        auto* zone = sg::create_full_zone(fmt::format("node{}", node));
        zone->set_parent(root_);
        node_zones_.push_back(zone);
        for (int core = 0; core < model.machine().core_count(); ++core) {
            add_host({EndpointKind::core, node, core}, core_speed);
            add_host({EndpointKind::cache, node, core}, 1);
        }
        for (int numa = 0; numa < model.numa_count(); ++numa) add_host({EndpointKind::memory, node, numa}, 1);
        for (int nic = 0; nic < model.nic_count(); ++nic) add_host({EndpointKind::nic, node, nic}, 1);
        for (int numa = 0; numa < model.numa_count(); ++numa)
            for (int nic = 0; nic < model.nic_count(); ++nic) add_host(model.dma(node, numa, nic), 1);
        if (model.spills_to_llc())
            for (int core = 0; core < model.machine().core_count(); ++core) add_host({EndpointKind::llc, node, core}, 1);
        ports_.push_back(zone->create_router(fmt::format("n{}.port", node)));
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
    for (const auto& [from, to] : local) {
        auto* zone = node_zones_[from.node];
        zone->add_route(host(from)->get_netpoint(), host(to)->get_netpoint(), nullptr, nullptr,
                        links_of(model.route(from, to), zone), false);
    }
    for (const Endpoint& dma : sending) {
        auto* zone = node_zones_[dma.node];
        zone->add_route(host(dma)->get_netpoint(), ports_[dma.node], nullptr, nullptr,
                        links_of(model.dma_route(dma, true), zone), false);
    }
    for (const Endpoint& dma : receiving) {
        auto* zone = node_zones_[dma.node];
        zone->add_route(ports_[dma.node], host(dma)->get_netpoint(), nullptr, nullptr,
                        links_of(model.dma_route(dma, false), zone), false);
    }
    for (auto* zone : node_zones_) zone->seal();
    for (const auto& [from_node, to_node] : between_nodes)
        root_->add_route(node_zones_[from_node]->get_netpoint(), node_zones_[to_node]->get_netpoint(),
                         ports_[from_node], ports_[to_node], links_of(model.network_route(from_node, to_node), root_),
                         false);
    root_->seal();

    root_->get_network_model()->set_lat_factor_cb(
        [this](double, const sg::Host*, const sg::Host*, const std::vector<sg::Link*>& links,
               const std::unordered_set<sg::NetZone*>&) {
            double real = 0;
            for (const sg::Link* used : links) real += real_latency_ns_.at(used);
            return real / raw_route_latency_ns;
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
    if (hosts_.size() <= at) hosts_.resize(at + 1, nullptr);
    hosts_[at] = zone->create_host(PlatformModel::host_name(endpoint), speed)->seal();
}

sg::Host* SimgridPlatform::host(const Endpoint& endpoint) const {
    const std::size_t at = slot(endpoint);
    if (at >= hosts_.size() || hosts_[at] == nullptr)
        throw Error(fmt::format("the platform has no host {}", PlatformModel::host_name(endpoint)));
    return hosts_[at];
}

sg::Link* SimgridPlatform::link(const std::string& name, sg::NetZone* zone) {
    if (auto it = links_.find(name); it != links_.end()) return it->second;
    const LinkSpec& spec = model_.link(name);
    sg::Link* created = nullptr;
    const double raw_latency = spec.raw_latency_share * raw_route_latency_ns;
    if (spec.split_duplex) {
        auto* duplex = zone->create_split_duplex_link(name, spec.bandwidth_bytes_per_ns);
        duplex->set_latency(raw_latency);
        duplex->seal();
        created = duplex;
        // The callback sees the directional halves.
        real_latency_ns_[duplex->get_link_up()] = spec.latency_ns;
        real_latency_ns_[duplex->get_link_down()] = spec.latency_ns;
    } else {
        created = zone->create_link(name, spec.bandwidth_bytes_per_ns);
        created->set_latency(raw_latency);
        created->seal();
    }
    real_latency_ns_[created] = spec.latency_ns;
    links_[name] = created;
    return created;
}

std::vector<sg::LinkInRoute> SimgridPlatform::links_of(const RouteSpec& route, sg::NetZone* zone) {
    std::vector<sg::LinkInRoute> result;
    for (const LinkUse& use : route.links) {
        sg::Link* found = link(use.link, zone);
        if (model_.link(use.link).split_duplex)
            result.emplace_back(found, use.up ? sg::LinkInRoute::Direction::UP : sg::LinkInRoute::Direction::DOWN);
        else
            result.emplace_back(found);
    }
    return result;
}

}  // namespace numacoll::sim

// Turns a PlatformModel into SimGrid zones, hosts, links and routes (SimGrid
// 3.32 to 4.1: the calls that changed are chosen by SIMGRID_VERSION).
//
// Layout: a star root zone; a zone per node whose gateway is a router, the
// node's port into the network, holding only the routes added to it
// (sim/route_table_zone.hpp: SimGrid's full zone keeps a slot per pair of
// netpoints, 8.6 GB for a 16,384-core node). Only the routes a simulation
// needs are added: routes inside a node for every (source, destination) pair its
// steps use, DMA endpoint <-> port routes (through the endpoint's NIC) for
// traffic between nodes, and in the root each node's wire up and down (a
// star: no table of node pairs, which at 4,096 nodes would hold 16.8 million
// entries). On SimGrid 3.32, SimGrid's own name and zone lookups are
// answered from an index while the platform is built (sim/platform_lookups.hpp),
// which makes building it linear in the nodes.
//
// Latencies: SimGrid's CM02 network model shares a link's bandwidth in
// proportion to 1/latency of each flow's route, not max-min fairly. So every
// route shows SimGrid the same raw latency (1 ns: one core stream link, or
// two PCIe halves between nodes), and the real latency of a route, the sum of
// the model's link latencies, comes back through the network model's latency
// factor callback. With network/crosstraffic:0 and no TCP window this
// gives exact max-min sharing and a + m·max(b, B·d), with CM02's lazy updates
// (ptask_L07 gives the same times but re-solves every flow at every event).
//
// Must be created after the s4u::Engine and its configuration, once per
// process (SimGrid allows one engine per process; sim/engine.cpp forks).
#pragma once

#include <simgrid/s4u.hpp>

#include <deque>
#include <functional>
#include <set>
#include <string>

#include "sim/platform_model.hpp"

namespace numacoll::sim {

class PlatformIndex;

class SimgridPlatform {
public:
    using Pair = std::pair<Endpoint, Endpoint>;
    // `routes`: the (from, to) pairs that transfers will use; pairs on two
    // nodes join two DMA endpoints, each routed through its own NIC.
    // `activity_hosts`: hosts that run activities other than transfers (the
    // cores of shared work). The platform has these hosts and no others.
    // `every_while_building` runs regularly as the platform is built (after
    // each node's hosts, every 256 routes): the engine keeps the heap's huge
    // pages up with the platform's growth.
    SimgridPlatform(const PlatformModel& model, const std::set<Pair>& routes,
                    const std::set<Endpoint>& activity_hosts = {},
                    const std::function<void()>& every_while_building = {});

    simgrid::s4u::Host* host(const Endpoint& endpoint) const;
    // A dense index of the endpoints of every node, host or not: [0, slot_count()).
    std::size_t slot(const Endpoint& endpoint) const;
    std::size_t slot_count() const { return hosts_.size(); }

    static constexpr double raw_route_latency_ns = 1.0;
    // The next comm created waits `ns` less of its route's latency (never
    // below 0): a message that waited behind another of its queue had its
    // bytes follow the earlier ones on the wire, so the part of its latency
    // that passed while it waited is behind it (sim/engine.cpp). Read and
    // cleared by the latency-factor callback, which SimGrid runs as the comm
    // starts. Not a property of the platform: the engine's hand-over.
    void credit_latency_of_next_comm(double ns) const { latency_credit_ns_ = ns; }
    // The engine configuration the platform relies on; call right after
    // creating the s4u::Engine, before any zone exists.
    static void configure_engine();

private:
    simgrid::s4u::Link* link(const LinkUse& use, simgrid::s4u::NetZone* zone);
    std::vector<simgrid::s4u::LinkInRoute> links_of(const RouteSpec& route, simgrid::s4u::NetZone* zone);
    void add_host(const Endpoint& endpoint, double speed);

    const PlatformModel& model_;
    PlatformIndex* index_ = nullptr;  // while the constructor runs
    simgrid::s4u::NetZone* root_ = nullptr;
    std::vector<simgrid::s4u::NetZone*> node_zones_;
    std::vector<simgrid::kernel::routing::NetPoint*> ports_;  // per node: its gateway
    std::vector<simgrid::s4u::Host*> hosts_;  // by slot(): looked up for every activity
    std::vector<simgrid::s4u::Link*> links_;  // by node and link, created on first use
    std::deque<double> real_latency_ns_;  // per link created; a deque keeps each value where the link points
    mutable double latency_credit_ns_ = 0;  // credit_latency_of_next_comm
};

}  // namespace numacoll::sim

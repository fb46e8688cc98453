// Turns a PlatformModel into SimGrid 3.32 zones, hosts, links and routes.
//
// Layout: a full root zone; a full zone per node whose gateway is its primary
// NIC. Only the routes a simulation needs are added (a full zone's table is
// n x n, and a 1024-core node has thousands of hosts): routes inside a node
// for every (source, destination) pair its steps use, memory <-> NIC routes
// for traffic between nodes, and NIC <-> NIC routes in the root zone.
//
// Must be created after the s4u::Engine and its configuration, once per
// process (SimGrid allows one engine per process; sim/engine.cpp forks).
#pragma once

#include <simgrid/s4u.hpp>

#include <map>
#include <set>
#include <string>

#include "sim/platform_model.hpp"

namespace numacoll::sim {

class SimgridPlatform {
public:
    using Pair = std::pair<Endpoint, Endpoint>;
    // `routes`: the (from, to) pairs that transfers will use; pairs on two
    // nodes are routed through both nodes' NICs.
    SimgridPlatform(const PlatformModel& model, const std::set<Pair>& routes);

    simgrid::s4u::Host* host(const Endpoint& endpoint) const;

private:
    simgrid::s4u::Link* link(const std::string& name, simgrid::s4u::NetZone* zone);
    std::vector<simgrid::s4u::LinkInRoute> links_of(const RouteSpec& route, simgrid::s4u::NetZone* zone);
    void add_host(const Endpoint& endpoint, double speed);

    const PlatformModel& model_;
    simgrid::s4u::NetZone* root_ = nullptr;
    std::vector<simgrid::s4u::NetZone*> node_zones_;
    std::map<Endpoint, simgrid::s4u::Host*> hosts_;
    std::map<std::string, simgrid::s4u::Link*> links_;
};

}  // namespace numacoll::sim

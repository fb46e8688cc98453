// sim::RouteTableZone: a SimGrid network zone that holds the routes added to
// it, and only those, for the zones of numacoll's nodes.
//
// SimGrid's FullZone, which these zones were, keeps a slot for every ordered
// pair of its netpoints: 8 bytes x N^2 (3.32 to 4.1). A node's netpoints are
// two hosts per rank (its core and its cache) and a few more, so a node of
// 16,384 ranks took 8.6 GB before its first route, though its allreduce used
// about 50,000 routes. This zone keeps, per source netpoint, its routes
// sorted by destination: memory grows with the routes, a lookup is an index
// and a binary search.
//
// Invariants: a route is what FullZone would give for the same add_route
// calls (the same links in the same order, the latency summed link by link
// in the same order, so that simulated times are bit-identical:
// tests/golden); a route is added once per direction (numacoll adds routes
// one way, never symmetrical ones); no gateways (a node's zone is a leaf:
// its routes join its hosts and its port). FullZone answers a host's route
// to itself with the network model's loopback, which SimGrid's installed
// headers do not reach: numacoll adds every route it uses, and a route
// asked for that was not added is an Error.
#pragma once

#include <simgrid/kernel/routing/NetZoneImpl.hpp>
#include <simgrid/s4u/NetZone.hpp>

#include <string>
#include <utility>
#include <vector>

namespace numacoll::sim {

class RouteTableZone : public simgrid::kernel::routing::NetZoneImpl {
public:
    // A new zone named `name`, below `parent`.
    static simgrid::s4u::NetZone* create(simgrid::s4u::NetZone* parent, const std::string& name);

    void get_local_route(const simgrid::kernel::routing::NetPoint* src, const simgrid::kernel::routing::NetPoint* dst,
                         simgrid::kernel::routing::Route* into, double* latency) override;
    void add_route(simgrid::kernel::routing::NetPoint* src, simgrid::kernel::routing::NetPoint* dst,
                   simgrid::kernel::routing::NetPoint* gw_src, simgrid::kernel::routing::NetPoint* gw_dst,
                   const std::vector<simgrid::s4u::LinkInRoute>& link_list, bool symmetrical) override;

    // The routes held (for tests and the platform's statistics).
    std::size_t route_count() const { return routes_; }

private:
    explicit RouteTableZone(const std::string& name);

    struct Entry {
        unsigned long destination = 0;
        std::vector<simgrid::kernel::resource::StandardLinkImpl*> links;
        std::vector<double> latencies_ns;  // each link's, in order
    };
    std::vector<std::vector<Entry>> by_source_;  // by source netpoint id, sorted by destination id
    std::size_t routes_ = 0;
};

}  // namespace numacoll::sim

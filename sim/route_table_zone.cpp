#include "sim/route_table_zone.hpp"

#include <fmt/format.h>
#include <simgrid/kernel/routing/NetPoint.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>

#include "common/error.hpp"

namespace numacoll::sim {

namespace sg = simgrid::s4u;
namespace routing = simgrid::kernel::routing;

RouteTableZone::RouteTableZone(const std::string& name) : NetZoneImpl(name) {}

sg::NetZone* RouteTableZone::create(sg::NetZone* parent, const std::string& name) {
    auto* zone = new RouteTableZone(name);
    zone->set_parent(parent->get_impl());
    return zone->get_iface();
}

void RouteTableZone::add_route(routing::NetPoint* src, routing::NetPoint* dst, routing::NetPoint* gw_src,
                               routing::NetPoint* gw_dst, const std::vector<sg::LinkInRoute>& link_list,
                               bool symmetrical) {
    if (src == nullptr || dst == nullptr || gw_src != nullptr || gw_dst != nullptr || symmetrical || link_list.empty())
        throw Error(fmt::format("zone {} takes routes one way between two of its netpoints, over links",
                                get_name()));
    Entry entry;
    entry.destination = dst->id();
    entry.links = get_link_list_impl(link_list, false);
    // The latency of each link the route takes: a split-duplex link's half in the route's direction.
    for (const sg::LinkInRoute& use : link_list) {
        const sg::Link* link = use.get_link();
        if (use.get_direction() != sg::LinkInRoute::Direction::NONE)
            if (const auto* duplex = dynamic_cast<const sg::SplitDuplexLink*>(link))
                link = use.get_direction() == sg::LinkInRoute::Direction::UP ? duplex->get_link_up()
                                                                            : duplex->get_link_down();
        entry.latencies_ns.push_back(link->get_latency());
    }
    if (by_source_.size() <= src->id()) by_source_.resize(src->id() + 1);
    auto& routes = by_source_[src->id()];
    const auto at = std::lower_bound(routes.begin(), routes.end(), entry.destination,
                                     [](const Entry& e, unsigned long id) { return e.destination < id; });
    if (at != routes.end() && at->destination == entry.destination)
        throw Error(fmt::format("the route between {} and {} already exists", src->get_name(), dst->get_name()));
    routes.insert(at, std::move(entry));
    ++routes_;
}

void RouteTableZone::get_local_route(const routing::NetPoint* src, const routing::NetPoint* dst, routing::Route* into,
                                     double* latency) {
    const Entry* found = nullptr;
    if (src->id() < by_source_.size()) {
        const auto& routes = by_source_[src->id()];
        const auto at = std::lower_bound(routes.begin(), routes.end(), dst->id(),
                                         [](const Entry& e, unsigned long id) { return e.destination < id; });
        if (at != routes.end() && at->destination == dst->id()) found = &*at;
    }
    if (found == nullptr)
        throw Error(fmt::format("no route between {} and {}: numacoll adds every route it uses", src->get_name(),
                                dst->get_name()));
    for (std::size_t i = 0; i < found->links.size(); ++i) {
        into->link_list_.push_back(found->links[i]);
        if (latency != nullptr) *latency += found->latencies_ns[i];
    }
}

}  // namespace numacoll::sim

// Constant-time name and zone lookups while numacoll builds a SimGrid platform.
//
// Why: building a platform in SimGrid costs O(zones × hosts), in 3.32 as in
// 4.1. Creating a host or a link checks that its name is new by searching
// every zone's map from the root (Engine::host_by_name_or_null,
// Link::by_name_or_null, in the HostImpl and StandardLinkImpl constructors),
// sealing a zone collects its hosts by walking every host of every zone and
// sorting them (NetZoneImpl::get_all_hosts), and adding a route between
// zones finds each zone by walking its parent's children
// (NetZoneImpl::get_netzone_recursive). With one zone per node that is
// quadratic in the node count: at 1,024 westmere nodes × 8 B, perf puts 81%
// of the simulating process in those walks on 3.32; 4,096 nodes took 173 s,
// of which under 2 s simulate. On 4.1 the same walks: 0.23 / 0.78 / 2.48 s
// for the whole command at 256 / 512 / 1,024 nodes.
//
// How: the four are exported NetZoneImpl member functions that libsimgrid
// calls through its PLT (like CommImpl::detach, sim/comm_attachment.hpp), so
// definitions in the numacoll binary take precedence; their mangled names
// are the same from 3.32 to 4.1. While a PlatformIndex lives, they answer
// from it: the names of every host and link numacoll created (asked from the
// engine's root), each zone's hosts, and the nodes' zones (asked from the
// zone above them). The index is complete because nothing but
// SimgridPlatform creates hosts and links while it lives, and a name not in
// it does not exist. Outside that window, and for lookups from other zones,
// SimGrid's own definitions answer (found with dlsym(RTLD_NEXT); where one
// is missing, none is substituted). Its names cost memory (about 100 bytes
// per host and link) only while the platform is built.
//
// Built with NUMACOLL_SIMGRID_ATTACHED_COMMS (one CMake option for every
// SimGrid substitute) on every SimGrid version; without it a PlatformIndex
// records nothing and SimGrid walks.
#pragma once

#include <cstddef>

namespace simgrid::s4u {
class Host;
class Link;
class NetZone;
}  // namespace simgrid::s4u

namespace numacoll::sim {

class PlatformIndex {
public:
    PlatformIndex();  // makes this the index SimGrid's lookups answer from
    ~PlatformIndex();
    PlatformIndex(const PlatformIndex&) = delete;
    PlatformIndex& operator=(const PlatformIndex&) = delete;

    static bool built();  // whether this build substitutes the lookups
    // Lookups this process answered from an index (the simulating child counts its own).
    static std::size_t answered_count();
    // Whether platforms built from now on use an index (default: built(),
    // unless simgrid_substitutes_requested() says no); tests compare both ways.
    static bool enabled();
    static void set_enabled(bool enabled);
    void add_host(simgrid::s4u::Host* host);
    void add_link(simgrid::s4u::Link* link);
    // A node's zone; every node's zone has the same parent (the star between nodes).
    void add_node_zone(simgrid::s4u::NetZone* zone);
};

}  // namespace numacoll::sim

// Constant-time name and zone lookups while numacoll builds a SimGrid 3.32 platform.
//
// Why: building a platform in SimGrid 3.32 costs O(zones × hosts). Creating a
// host or a link checks that its name is new by searching every zone's map
// from the root (Engine::host_by_name_or_null, Link::by_name_or_null, in the
// HostImpl and StandardLinkImpl constructors), sealing a zone collects its
// hosts by walking every host of every zone and sorting them
// (NetZoneImpl::get_all_hosts), and adding a route between zones finds each
// zone by walking the root's children (NetZoneImpl::get_netzone_recursive).
// With one zone per node that is quadratic in the node count: at 1,024
// westmere nodes × 8 B, perf puts 81% of the simulating process in those
// walks; 4,096 nodes took 173 s, of which under 2 s simulate.
//
// How: the four are exported NetZoneImpl member functions that libsimgrid
// calls through its PLT (like CommImpl::detach, sim/comm_attachment.hpp), so
// definitions in the numacoll binary take precedence. While a PlatformIndex
// lives, they answer from it: the names of every host and link numacoll
// created, and each zone's hosts. The index is complete because nothing but
// SimgridPlatform creates hosts and links while it lives, and a name not in
// it does not exist. Outside that window, and for lookups not made from the
// root zone, SimGrid's own definitions answer. Its names cost memory (about
// 100 bytes per host and link) only while the platform is built.
//
// Built with NUMACOLL_SIMGRID_ATTACHED_COMMS (one CMake option for both) on
// SimGrid < 3.34; elsewhere a PlatformIndex records nothing and SimGrid walks.
#pragma once

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
    // Whether platforms built from now on use an index (default: built(),
    // unless simgrid_substitutes_requested() says no); tests compare both ways.
    static bool enabled();
    static void set_enabled(bool enabled);
    void add_host(simgrid::s4u::Host* host);
    void add_link(simgrid::s4u::Link* link);
    void add_root_child(simgrid::s4u::NetZone* zone);  // a zone whose parent is the root
};

}  // namespace numacoll::sim

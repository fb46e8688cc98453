#include "sim/platform_lookups.hpp"

#include <xbt/base.h>  // SG_BEGIN_DECL, XBT_PUBLIC: version.h needs them first
#include <simgrid/version.h>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "sim/comm_attachment.hpp"

// Every SimGrid from 3.32 to 4.1 builds platforms with these walks, under
// the same four exported names.
#if defined(NUMACOLL_SIMGRID_ATTACHED_COMMS)
#include <dlfcn.h>
#define NUMACOLL_INTERPOSE_LOOKUPS 1
#endif

namespace numacoll::sim {

namespace sg = simgrid::s4u;

#ifdef NUMACOLL_INTERPOSE_LOOKUPS

namespace {

struct Index {
    std::unordered_map<std::string, void*> hosts;  // name -> HostImpl*
    std::unordered_map<std::string, void*> links;  // name -> StandardLinkImpl*
    std::unordered_map<const void*, std::vector<sg::Host*>> zone_hosts;  // NetZoneImpl* -> its hosts
    // The zone every node's zone hangs from (the root up to 3.32, a child of
    // the engine's root from 4.0), and those zones by their netpoints.
    const void* nodes_parent = nullptr;                                  // NetZoneImpl*
    std::unordered_map<const void*, const void*> node_zones;             // NetPoint* -> NetZoneImpl*
};

Index* active = nullptr;
std::size_t answered = 0;  // lookups this process answered from an index

// The mangled names of the NetZoneImpl members (`this` first; get_all_hosts
// returns a vector through the hidden result pointer, first of all).
constexpr const char* all_hosts_symbol = "_ZNK7simgrid6kernel7routing11NetZoneImpl13get_all_hostsEv";
constexpr const char* host_by_name_symbol =
    "_ZNK7simgrid6kernel7routing11NetZoneImpl24get_host_by_name_or_nullERKNSt7__cxx1112basic_stringIcSt11char_"
    "traitsIcESaIcEEE";
constexpr const char* link_by_name_symbol =
    "_ZNK7simgrid6kernel7routing11NetZoneImpl24get_link_by_name_or_nullERKNSt7__cxx1112basic_stringIcSt11char_"
    "traitsIcESaIcEEE";

constexpr const char* zone_of_netpoint_symbol =
    "_ZNK7simgrid6kernel7routing11NetZoneImpl21get_netzone_recursiveEPKNS1_8NetPointE";

using AllHosts = std::vector<sg::Host*> (*)(const void*);
using ZoneOf = const void* (*)(const void*, const void*);
using ByName = void* (*)(const void*, const std::string&);

template <class Function>
Function simgrid_definition(const char* symbol) {
    return reinterpret_cast<Function>(::dlsym(RTLD_NEXT, symbol));
}

const AllHosts simgrid_all_hosts = simgrid_definition<AllHosts>(all_hosts_symbol);
const ByName simgrid_host_by_name = simgrid_definition<ByName>(host_by_name_symbol);
const ByName simgrid_link_by_name = simgrid_definition<ByName>(link_by_name_symbol);
const ZoneOf simgrid_zone_of_netpoint = simgrid_definition<ZoneOf>(zone_of_netpoint_symbol);
const bool lookups_available = simgrid_all_hosts && simgrid_host_by_name && simgrid_link_by_name && simgrid_zone_of_netpoint;
bool enabled_now = lookups_available && simgrid_substitutes_requested();

bool from_root(const void* zone) {
    const auto* root = sg::Engine::get_instance()->get_netzone_root();
    return root != nullptr && root->get_impl() == zone;
}

void* find(const std::unordered_map<std::string, void*>& names, const std::string& name) {
    const auto it = names.find(name);
    return it == names.end() ? nullptr : it->second;
}

}  // namespace

}  // namespace numacoll::sim

// Not extern "C": it returns a C++ object; the label alone names the symbol.
std::vector<simgrid::s4u::Host*> numacoll_zone_all_hosts(const void* zone) __asm__(
    "_ZNK7simgrid6kernel7routing11NetZoneImpl13get_all_hostsEv");
extern "C" void* numacoll_zone_host_by_name(const void* zone, const std::string& name) __asm__(
    "_ZNK7simgrid6kernel7routing11NetZoneImpl24get_host_by_name_or_nullERKNSt7__cxx1112basic_stringIcSt11char_"
    "traitsIcESaIcEEE");
extern "C" void* numacoll_zone_link_by_name(const void* zone, const std::string& name) __asm__(
    "_ZNK7simgrid6kernel7routing11NetZoneImpl24get_link_by_name_or_nullERKNSt7__cxx1112basic_stringIcSt11char_"
    "traitsIcESaIcEEE");

extern "C" const void* numacoll_zone_of_netpoint(const void* zone, const void* netpoint) __asm__(
    "_ZNK7simgrid6kernel7routing11NetZoneImpl21get_netzone_recursiveEPKNS1_8NetPointE");

// The zone under `zone` whose netpoint this is: the nodes' zones come from
// the index (a route added in the star above them asks for each of them).
const void* numacoll_zone_of_netpoint(const void* zone, const void* netpoint) {
    using namespace numacoll::sim;
    if (active != nullptr && zone == active->nodes_parent) {
        const auto it = active->node_zones.find(netpoint);
        if (it != active->node_zones.end()) {
            ++answered;
            return it->second;
        }
    }
    return simgrid_zone_of_netpoint(zone, netpoint);
}

std::vector<simgrid::s4u::Host*> numacoll_zone_all_hosts(const void* zone) {
    using namespace numacoll::sim;
    if (active == nullptr) return simgrid_all_hosts(zone);
    ++answered;
    auto it = active->zone_hosts.find(zone);
    if (it == active->zone_hosts.end()) return {};
    std::vector<simgrid::s4u::Host*> hosts = it->second;
    // SimGrid returns them in the order of their names.
    std::sort(hosts.begin(), hosts.end(), [](const auto* a, const auto* b) { return a->get_name() < b->get_name(); });
    return hosts;
}

void* numacoll_zone_host_by_name(const void* zone, const std::string& name) {
    using namespace numacoll::sim;
    if (active == nullptr || !from_root(zone)) return simgrid_host_by_name(zone, name);
    ++answered;
    return find(active->hosts, name);
}

void* numacoll_zone_link_by_name(const void* zone, const std::string& name) {
    using namespace numacoll::sim;
    if (active == nullptr || !from_root(zone)) return simgrid_link_by_name(zone, name);
    ++answered;
    return find(active->links, name);
}

namespace numacoll::sim {

PlatformIndex::PlatformIndex() {
    if (enabled_now) active = new Index;
}

PlatformIndex::~PlatformIndex() {
    delete active;
    active = nullptr;
}

bool PlatformIndex::built() { return lookups_available; }
std::size_t PlatformIndex::answered_count() { return answered; }
bool PlatformIndex::enabled() { return enabled_now; }
void PlatformIndex::set_enabled(bool enabled) { enabled_now = enabled && lookups_available; }

void PlatformIndex::add_host(sg::Host* host) {
    if (active == nullptr) return;
    active->hosts.emplace(host->get_name(), host->get_impl());
    active->zone_hosts[host->get_englobing_zone()->get_impl()].push_back(host);
}

void PlatformIndex::add_link(sg::Link* link) {
    if (active == nullptr) return;
    active->links.emplace(link->get_name(), link->get_impl());
}

void PlatformIndex::add_node_zone(sg::NetZone* zone) {
    if (active == nullptr) return;
    active->nodes_parent = zone->get_parent()->get_impl();
    active->node_zones.emplace(zone->get_netpoint(), zone->get_impl());
}

#else

PlatformIndex::PlatformIndex() = default;
PlatformIndex::~PlatformIndex() = default;
bool PlatformIndex::built() { return false; }
std::size_t PlatformIndex::answered_count() { return 0; }
bool PlatformIndex::enabled() { return false; }
void PlatformIndex::set_enabled(bool) {}
void PlatformIndex::add_host(sg::Host*) {}
void PlatformIndex::add_link(sg::Link*) {}
void PlatformIndex::add_node_zone(sg::NetZone*) {}

#endif

}  // namespace numacoll::sim

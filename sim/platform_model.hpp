// sim::PlatformModel: Machine + Params -> the links and routes of a
// congestion-aware platform, as plain data (sim/simgrid_platform.hpp turns it
// into SimGrid zones, hosts, links and routes).
//
// Endpoints, per node: a host per core (it computes the reductions), a host
// per core's cache (where data that core wrote lives while it fits), with
// params that give core.private_cache_bytes a host per core for its LLC (where
// the core's own data streams once it no longer fits its private caches), a memory
// host per NUMA node, a host per NIC (one per PCI device hwloc reports a
// network or OpenFabrics device on; a virtual one on NUMA node 0 when there
// is none), and a DMA host per (NUMA node, NIC): a NUMA node's memory as one
// NIC reads and writes it, the end of every transfer between nodes.
//
// Which level joins two cores, and the hops between sockets, come from
// costs::CoreLevels. Links carry the latencies, so that a route's latency is the level's a
// (no link is shared by every route: such a link would tie all flows into
// one sharing problem and slow SimGrid down):
//   same core        [c.local]                                  a_local
//   same cache       [c.same_cache, the shared cache]           a_same_cache
//   same socket      [c.same_socket, the LLC]                   a_same_socket
//   own LLC <-> core [c.same_socket, the LLC]                   a_same_socket
//   other socket     [c.other_socket, inter-socket links...]    h * a_other_socket (a per link)
//   DRAM             [c.dram, memory controller, links...]      a_dram + h * a_other_socket
//   memory <-> NIC   [memory controller, links..., PCIe]        a_nic + h * a_other_socket
//   DMA out / in     [memory controller, links..., DMA window, PCIe] (the
//                    NIC reading / writing a NUMA node's memory; the window
//                    link carries window / round trip, NicDmaParams)
//   node <-> node    [wire of node A up, wire of node B down]   a_network (half per wire)
// Each node has one port into the network (its wire), shared by its NICs.
// PCIe links are full duplex like the wires (PCI Express Base Specification:
// each lane has a pair in each direction): a NIC that sends while it
// receives gets the link's bandwidth both ways.
// c.* are the reading (or writing) core's private stream links (bandwidth 1/b
// of the level); the others are shared (1/B). A "socket" is an LLC domain.
// Inter-socket links join the domains one hop apart; longer routes take the
// shortest path over them (costs/core_levels.hpp). They are split-duplex:
// the same bandwidth in each direction, each direction shared on its own.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "costs/core_levels.hpp"
#include "costs/params.hpp"
#include "topologies/machine.hpp"

namespace numacoll::sim {

enum class EndpointKind { core, cache, memory, nic, dma, llc };

struct Endpoint {
    EndpointKind kind = EndpointKind::core;
    int node = 0;
    // logical core (core, cache, llc), logical NUMA node (memory), NIC
    // number (nic), NUMA node x NIC count + NIC number (dma)
    int index = 0;
    auto operator<=>(const Endpoint&) const = default;
};

struct LinkSpec {
    std::string name;  // on its node, "mc1" (PlatformModel::link_name() prefixes the node)
    double bandwidth_bytes_per_ns = 0;
    double latency_ns = 0;
    bool split_duplex = false;  // inter-socket links, PCIe links and node wires
    std::string what;           // for people: "QPI between sockets 0 and 1"
    // Share of the one raw latency every route shows SimGrid (1 on the core
    // stream links, 1/2 on each PCIe link, 0 elsewhere): see simgrid_platform.hpp.
    double raw_latency_share = 0;
};

// A link of one node: every node has the same links (PlatformModel::link()
// gives the spec; link_name() the name "n<node>.<name>").
struct LinkUse {
    int node = 0;
    int link = 0;    // index among a node's links
    bool up = true;  // direction on a split-duplex link
};

struct RouteSpec {
    costs::Level level = costs::Level::local_cache;
    int hops = 0;
    double latency_ns = 0;
    std::vector<LinkUse> links;
};

class PlatformModel {
public:
    PlatformModel(std::shared_ptr<const topo::Machine> machine, costs::Params params, int nodes);

    const topo::Machine& machine() const { return *machine_; }
    const costs::Params& params() const { return params_; }
    const costs::CoreLevels& levels() const { return levels_; }
    int nodes() const { return nodes_; }

    // A route between two endpoints of one node (not NIC to NIC).
    RouteSpec route(const Endpoint& from, const Endpoint& to) const;
    // A NUMA node's memory to the node's network port through one NIC
    // (`outgoing`: the NIC reads the memory), or back (it writes the memory).
    RouteSpec dma_route(const Endpoint& dma, bool outgoing) const;
    // Between the network ports of two nodes (through the star switch): the
    // sender's port route out, then the receiver's port route in.
    RouteSpec network_route(int from_node, int to_node) const;
    // A node's wire to the switch (`outgoing`) or back.
    RouteSpec port_route(int node, bool outgoing) const;
    // End to end, possibly across nodes (memory -> NIC -> network -> NIC ->
    // memory, through the NIC nearest each memory), for people (numacoll
    // topo --platform); the engine composes zone routes instead.
    std::vector<RouteSpec> describe_route(const Endpoint& from, const Endpoint& to) const;

    // Time of one transfer alone on a route: latency + bytes / slowest link.
    double uncontended_ns(const RouteSpec& route, double bytes) const;
    // The bandwidth of the route's slowest link (0 for a route of no link).
    double slowest_bytes_per_ns(const RouteSpec& route) const;
    static double uncontended_ns(double latency_ns, double slowest_bytes_per_ns, double bytes) {
        return latency_ns + (slowest_bytes_per_ns > 0 ? bytes / slowest_bytes_per_ns : 0);
    }

    const LinkSpec& link(const LinkUse& use) const { return node_links_[static_cast<std::size_t>(use.link)]; }
    // By name, "n3.mc1", for people and tests (throws when there is none).
    const LinkSpec& link(const std::string& name) const;
    std::string link_name(const LinkUse& use) const;
    // A node's links (each node has the same), and all nodes' together.
    int links_per_node() const { return static_cast<int>(node_links_.size()); }
    std::size_t link_count() const { return node_links_.size() * static_cast<std::size_t>(nodes_); }
    static std::string host_name(const Endpoint& endpoint);
    // Parses "n0.core3", "core3", "mem1", "nic0", "cache5" (node 0 by default).
    Endpoint parse_endpoint(const std::string& text) const;

    int domain_of_core(int core) const { return levels_.domain_of_core(core); }
    int domain_of_numa(int numa) const { return levels_.domain_of_numa(numa); }
    int domain_count() const { return levels_.domain_count(); }
    int hops(int from_domain, int to_domain) const { return levels_.hops(from_domain, to_domain); }
    // Bytes that stay in a core's cache after it writes them: its LLC's size (0 without caches).
    std::uint64_t cache_capacity_bytes(int core) const { return levels_.llc_bytes_of_core(core); }
    // Whether a core's own accesses beyond core.private_cache_bytes go
    // through its LLC (the params give that capacity), and the capacity.
    bool spills_to_llc() const { return private_cache_bytes_ > 0; }
    double private_cache_bytes() const { return private_cache_bytes_; }
    int nic_count() const { return static_cast<int>(nic_numa_.size()); }
    bool virtual_nic() const { return virtual_nic_; }
    int numa_of_nic(int nic) const { return nic_numa_[nic]; }
    // The NIC nearest a NUMA node (by NUMA distance; the first of equals).
    int nearest_nic(int numa) const { return nearest_nic_[numa]; }
    // The DMA endpoint of a NUMA node's memory through one NIC, and back.
    Endpoint dma(int node, int numa, int nic) const { return {EndpointKind::dma, node, numa * nic_count() + nic}; }
    int numa_of_dma(const Endpoint& dma) const { return dma.index / nic_count(); }
    int nic_of_dma(const Endpoint& dma) const { return dma.index % nic_count(); }
    // How long a NIC's DMA request to a NUMA node's memory holds its slot:
    // a read (the send side), 2 a_nic + 2 h a_other_socket + a_dram; a
    // posted write (the receive side), 2 h a_other_socket + a_dram.
    double dma_round_trip_ns(int numa, int nic, bool read) const;
    int numa_count() const;

private:
    void find_nics();
    void build_links();
    void add_link(LinkSpec spec);
    std::vector<LinkUse> domain_path(int node, int from_domain, int to_domain) const;
    // The use of a node's link by its name on the node ("mc1").
    LinkUse node_link(int node, const std::string& name, bool up = true) const;

    std::shared_ptr<const topo::Machine> machine_;
    costs::Params params_;
    int nodes_;
    costs::CoreLevels levels_;  // which level joins two cores; sockets and their hops
    std::vector<int> nic_numa_;
    std::vector<int> nearest_nic_;  // per NUMA node
    bool virtual_nic_ = false;
    double private_cache_bytes_ = 0;  // 0: no spill
    // One node's links, named without the node ("mc1"): the same on every
    // node, so 4,096 nodes need no more than one (a map of every node's
    // links by full name made route lookups a quarter of a large simulation).
    std::vector<LinkSpec> node_links_;
    std::unordered_map<std::string, int> link_index_;  // by name on the node
};

// Routes inside a node, each computed once: every node has the same links,
// so the route on node 0 stands for the same route on every node (planning
// and building a platform of thousands of nodes ask for the same few
// hundred routes again and again).
class NodeRoutes {
public:
    explicit NodeRoutes(const PlatformModel& platform) : platform_(platform) {}
    // The route between the endpoints' kinds and indices, on node 0.
    const RouteSpec& on_node0(const Endpoint& from, const Endpoint& to);
    // PlatformModel::route(from, to): the route on node 0, moved to their node.
    RouteSpec route(const Endpoint& from, const Endpoint& to);
    // PlatformModel::uncontended_ns of that route (planning asks it for
    // every task: a hash lookup, the slowest link found once).
    double uncontended_ns(const Endpoint& from, const Endpoint& to, double bytes);

private:
    struct Known {
        RouteSpec route;
        double slowest_bytes_per_ns = 0;
    };
    // Kinds and indices of both ends, on node 0.
    struct Key {
        std::uint64_t from = 0, to = 0;
        bool operator==(const Key&) const = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& key) const { return std::hash<std::uint64_t>()(key.from * 0x9E3779B97F4A7C15ull ^ key.to); }
    };
    Known& known(const Endpoint& from, const Endpoint& to);

    const PlatformModel& platform_;
    std::unordered_map<Key, Known, KeyHash> routes_;  // nodes stay put: references to them last
    // Between a core and its own cache or LLC, both ways (what planning asks
    // for every copy and reduce): per core, one cache line of (latency,
    // slowest bandwidth) pairs, 0 bandwidth until known.
    struct Uncontended {
        double latency_ns = 0;
        double slowest_bytes_per_ns = 0;
    };
    std::vector<std::array<Uncontended, 4>> own_;  // by core index
};

}  // namespace numacoll::sim

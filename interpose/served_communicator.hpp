// interpose::ServedCommunicator: what the library keeps for one of the
// application's communicators, made at its first served collective and
// freed with it (an attribute's delete callback: interpose/library.hpp).
//
// Its node parts (the processes that share memory, MPI_Comm_split_type),
// ordered node by node into schedule ranks; each process's PU (the one its
// launcher bound it to; inside a wider binding, a PU of its own there; for
// a process bound nowhere, the PU it runs on now), so the layout of a
// schedule (algo::Layout); a communicator of its own ordered by schedule
// rank, for the schedules' messages, and one per node for their segments.
// Then one ServedCollective per distinct call (collective, bytes, datatype,
// operation, root), kept under a bound on their memory, least recently
// used first out.
//
// Served: intracommunicators of two processes or more whose nodes hold
// equal numbers of them on machines alike. A rank order that interleaves
// nodes is served by reductions, broadcasts and barriers; gathers, scatters
// and allgathers there go to the MPI library (their blocks follow the rank
// order). Every decision here depends only on what all processes see
// alike, so that all serve a call or all hand it back.
#pragma once

#include <mpi.h>

#include <list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "costs/params.hpp"
#include "exec/memory_binding.hpp"
#include "interpose/call_log.hpp"
#include "interpose/call_spec.hpp"
#include "interpose/served_collective.hpp"
#include "interpose/settings.hpp"

namespace numacoll::interpose {

class ServedCommunicator {
public:
    // Collective over `comm`.
    ServedCommunicator(MPI_Comm comm, std::shared_ptr<const topo::Machine> machine, const Settings& settings,
                       const costs::Params& params, std::string name);
    // Collective over the communicator's processes (frees MPI objects).
    ~ServedCommunicator();
    ServedCommunicator(const ServedCommunicator&) = delete;
    ServedCommunicator& operator=(const ServedCommunicator&) = delete;

    // What serves a call: a ServedCollective, or none with the reason the
    // MPI library does. Collective over the communicator when the call is
    // new (it may make a segment).
    struct Service {
        ServedCollective* served = nullptr;
        std::string algorithm;  // numacoll's, or "native"
        std::string reason;     // why the MPI library serves it
    };
    Service service(const CallKey& key);

    int rank() const { return rank_; }
    CallLog& log() { return log_; }
    // Memory of this process's for a call's staged bytes (an MPI_IN_PLACE
    // input, packed elements): area `area` (0 to 2, apart from each
    // other), at least `bytes`, valid until the next call asks for that area.
    std::byte* scratch(int area, std::size_t bytes);

    // For the report: "world" or "communicator P.N"; its ranks, nodes and
    // ranks per node (0 where not served); how its processes were placed.
    const std::string& name() const { return name_; }
    int size() const { return size_; }
    int nodes() const { return nodes_; }
    int ranks_per_node() const { return ranks_per_node_; }
    const std::string& placement() const { return placement_; }

private:
    struct Entry {
        CallKey key;
        std::string algorithm;
        std::string reason;
        std::unique_ptr<ServedCollective> served;
        std::size_t cost_bytes = 0;  // alike on every process of a node
    };
    void place_processes();
    // Whether every process may read every other's memory through the
    // kernel (single copy): each tries its neighbour's. Collective.
    bool probe_single_copy();
    Entry make_entry(const CallKey& key);
    void say(const std::string& line) const;

    const Settings& settings_;
    const costs::Params& params_;
    std::shared_ptr<const topo::Machine> machine_;
    std::string name_;
    int rank_ = 0, size_ = 0;
    std::string unserved_;  // why no call of this communicator is served
    int nodes_ = 1, ranks_per_node_ = 0;
    std::vector<int> schedule_rank_of_;  // per communicator rank
    bool rank_order_is_node_order_ = true;
    std::string placement_;
    bool single_copy_ = false;
    algo::Layout layout_;
    ProcessPlace place_;
    std::unique_ptr<exec::MemoryBinding> binding_;
    std::list<Entry> entries_;  // most recently used first
    std::map<CallKey, std::list<Entry>::iterator> by_key_;
    std::size_t cached_bytes_ = 0;
    std::vector<std::byte> scratch_[3];
    CallLog log_;
};

}  // namespace numacoll::interpose

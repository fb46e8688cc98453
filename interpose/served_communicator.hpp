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
// A trial checks the choice of the models or of a table where it counts,
// in the application itself: a distinct call's first 2(4 + N) calls (N:
// NUMACOLL_MPI_TRIAL; each side's first 4 warm its memory) alternate
// between numacoll's schedule and the MPI library's own collective, each
// process timing its calls; then the slowest process's median of each side
// decides, alike everywhere (an allreduce over the communicator), and the
// faster serves every later call. The models know neither the MPI library's own shared-memory
// transport nor this machine's cache traffic between processes, and a
// table is measured by a harness, not inside an application.
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
#include <tuple>
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
    struct Entry;  // what it keeps per distinct call

public:
    // Collective over `comm`.
    ServedCommunicator(MPI_Comm comm, std::shared_ptr<const topo::Machine> machine, const Settings& settings,
                       const costs::Params& params, std::string name);
    // Collective over the communicator's processes (frees MPI objects).
    ~ServedCommunicator();
    ServedCommunicator(const ServedCommunicator&) = delete;
    ServedCommunicator& operator=(const ServedCommunicator&) = delete;

    // What serves a call: a ServedCollective, or none (the MPI library
    // does), and the log's row its calls go to (its algorithm, or the
    // reason it is handed back). Collective over the communicator when the
    // call is new (it may make a segment).
    struct Service {
        ServedCollective* served = nullptr;
        CallLog::Row* row = nullptr;
        Entry* trial = nullptr;  // a call of a trial: its time goes to trial_call_done
    };
    Service service(const CallKey& key);
    // A trial's call is over, after `ticks` (interpose/call_clock.hpp); the
    // last decides, collectively over the communicator.
    void trial_call_done(Entry& entry, std::uint64_t ticks);
    // The log's row of a call handed back for a reason its arguments alone
    // give (`reason` lives as long as the program).
    CallLog::Row& handed_back_row(const CallKey& key, const char* reason);

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
        struct Trial {
            // Per side, before those counted: a schedule's first calls find
            // its segment's copies cold, the MPI library's its buffers.
            static constexpr int warm_up_calls = 4;
            int calls = 0;  // made so far: even ones numacoll's, odd ones the MPI library's
            std::vector<double> ours, native;  // this process's times, in ticks
            CallLog::Row* native_row = nullptr;
        };
        CallKey key;
        Service service;
        std::string algorithm;
        std::size_t cost_bytes = 0;  // alike on every process of a node
        std::unique_ptr<ServedCollective> served;
        std::unique_ptr<Trial> trial;
    };

    void place_processes();
    // Whether every process may read every other's memory through the
    // kernel (single copy): each tries its neighbour's. Collective.
    bool probe_single_copy();
    // Collective when the entry serves the call (it makes a segment, and
    // may free others to make room).
    Entry make_entry(const CallKey& key);
    // Frees the least recently used entries until `bytes` more fit.
    void make_room(std::size_t bytes);
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
    // Rows of calls handed back before a schedule is looked for, by
    // (collective, datatype, size bucket, reason).
    std::map<std::tuple<sched::Collective, sched::Datatype, std::uint64_t, const char*>, CallLog::Row*> handed_back_;
    std::vector<std::byte> scratch_[3];
    CallLog log_;
};

}  // namespace numacoll::interpose

// interpose::CallSpec: an application's collective call in numacoll's terms
// (the collective, its bytes per rank, datatype, operation and root), or
// the reason it goes to the MPI library unchanged. MPI in, spec out:
// nothing here knows an algorithm.
//
// Served: predefined operations on predefined datatypes for reductions;
// any datatype whose bytes lie contiguous (size = extent, no lower bound)
// for the collectives that only copy, as bytes. Every reason here is one
// that every process of the call sees alike (MPI requires matching type
// signatures, operations and roots), so that no process serves a call that
// another hands back.
#pragma once

#include <mpi.h>

#include <compare>
#include <cstdint>

#include "schedule/schedule.hpp"

namespace numacoll::interpose {

struct CallKey {
    sched::Collective collective = sched::Collective::barrier;
    std::uint64_t bytes = 0;  // numacoll's: per rank's vector, or per rank's block
    sched::Datatype datatype = sched::Datatype::byte;
    sched::ReduceOp op = sched::ReduceOp::sum;
    int root = 0;  // in the communicator's ranks
    auto operator<=>(const CallKey&) const = default;
};

// The spec of a call, its root given in schedule ranks (the communicator's
// rank order may not be the schedule's).
sched::CollectiveSpec spec_of(const CallKey& key, int schedule_root);

// Where a datatype's elements lie: contiguous, `bytes` each, or not. A
// predefined datatype's answer is found once per process (its handle lives
// as long as MPI); any other's is asked of MPI at each call, since a freed
// derived datatype's handle may name another one later.
struct Elements {
    bool contiguous = false;
    std::uint64_t bytes = 0;
};
Elements elements_of(MPI_Datatype datatype);

// A reduction of `count` elements (allreduce, reduce): its key, or why it
// is not served (a string that lives as long as the program), its key then
// holding what is known of its size and datatype, for the report.
struct ReductionCall {
    CallKey key;
    const char* unserved = nullptr;
};
ReductionCall reduction_call_of(sched::Collective collective, int count, MPI_Datatype datatype, MPI_Op op, int root);

}  // namespace numacoll::interpose

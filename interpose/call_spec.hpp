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
#include <string>

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

// Where a datatype's elements lie: contiguous, `bytes` each, or not.
struct Elements {
    bool contiguous = false;
    std::uint64_t bytes = 0;
};
Elements elements_of(MPI_Datatype datatype);

// Why a reduction of `datatype` by `op` is not served, or empty.
std::string unserved_reduction(MPI_Datatype datatype, MPI_Op op);

// The key of a reduction of `count` elements (allreduce, reduce), checked
// with unserved_reduction first.
CallKey reduction_key(sched::Collective collective, int count, MPI_Datatype datatype, MPI_Op op, int root);

}  // namespace numacoll::interpose

// sched::process_form: a schedule whose ranks are threads, turned into one
// whose ranks are MPI processes of a node sharing a segment of memory
// (RankKind::shared_process), the way MPICH's CH4 posix collectives and
// UCC's tl/shm run: what a rank reads or writes of another's lives in the
// node's shared segment, and a rank's own send and receive buffers are
// private. A generic transform, like overlap::compose: no algorithm knows it.
// A schedule of MPI processes (RankKind::process: Open MPI's flat
// algorithms, whose hand-overs inside a node are copies priced as messages)
// is transformed alike: its copies then run through the segment, as an MPI
// library's shared-memory transport carries a message by copy-in and
// copy-out, and are priced as such.
//
// What changes (everything else is copied unchanged, and the symbolic
// checker proves the result again):
// - A temporary buffer that a rank other than its owner touches is marked
//   shared (Buffer::shared): it is placed in the segment.
// - An input that another rank reads gets a slot in the segment ("NAME@seg",
//   on the input's NUMA node): its owner first copies the input into it
//   (copy-in, its first task), then raises a flag to each rank that reads
//   the slot, and those reads wait for it. The owner's own reads stay on
//   its private input.
// - An output that another rank touches gets a slot too, and every task's
//   access goes there; the owner's last task copies the slot into its
//   private output (copy-out), after a flag from each other rank that wrote
//   the slot, raised after that rank's last write.
// - A net task is accessed by its thread on the read side and by its peer
//   (the receiving process) on the write side.
// - A flag that its rank raises before anything else (in the thread form:
//   "my input is in place") is not waited for by a task that waits for the
//   same rank's copy-in-ready flag, which says as much; a flag nobody waits
//   for then is left out.
// With single copy (ProcessFormOptions), an input that other ranks only copy
// from gets no slot: it is exposed (Buffer::exposed), and those copies read
// the owner's private memory through the kernel (Linux's cross-memory
// attach, process_vm_readv: one copy, where copy-in and copy-out make two,
// as Open MPI's vader and xhc do for large messages). The thread form
// already has each reader wait for the owner's arrival; what is added is
// the release: each reader raises a flag to the owner after its last read,
// and the owner's last task waits for them, so that it leaves (and may
// reuse its buffer) only once nobody reads it.
// Ids: the copy-ins and their flags first, then the thread form's tasks in
// their order, then the flags and copy-outs, then the releases; the
// result's spec, nodes, ranks and provenance are the thread form's.
//
// Invariant of the result (validate_schedule checks it for every
// shared_process schedule): no task touches a buffer that is neither its
// rank's nor shared, but for a copy from an exposed one.
#pragma once

#include "schedule/schedule.hpp"

namespace numacoll::sched {

struct ProcessFormOptions {
    // Inputs that other ranks only copy from are read in one copy through
    // the kernel instead of through a slot.
    bool single_copy = false;
};

// UsageError unless `threads` is a schedule of threads or processes (not a
// process form already) without application tasks (compose the
// computation around the process form instead).
Schedule process_form(const Schedule& threads, const ProcessFormOptions& options = {});

}  // namespace numacoll::sched

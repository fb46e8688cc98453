// exec::ProcessTransport: the transport of a schedule whose ranks are MPI
// processes, one rank per process (exec/process_executor.hpp): processes
// sharing their node's memory (sched::process_form), or processes that only
// send each other messages (the flat MPI algorithms), which need no segment.
//
// Inside a node, what one rank tells another is a flag (exec/shared_flag.hpp)
// in the node's segment (exec/node_segment.hpp), in the portion of the rank
// that raises it: a flag task's rank; for a message, its sender (for the
// ranks of the sender's node) or its receiver (for the ranks of the
// receiver's node, once it has landed). plan_node_segment lays the portions
// out alike on every process of the node. A shared buffer of at most 48
// bytes that its owner fills with one copy and then flags (a copy-in and
// its copy-in-ready flag) lies in that flag's cache line, after the flag
// (exec/shared_flag.hpp): the reader that waits for the flag gets the bytes
// in the same line, where a line of their own would cross cores as well.
//
// Between nodes a net task is one MPI message from its sender's process to
// its receiver's, tag 0: MPI keeps messages with the same source, tag and
// communicator in order, senders send in task id order and receivers post in
// task id order, so the n-th message from one process to another lands in
// the n-th receive posted for it. Every receive of an iteration is posted at
// the meeting before it. Only the receiving process completes its receive;
// other ranks of its node may wait on its flag, so whenever the process
// waits (for a flag, a send, a receive) it also tests the receives it has
// still pending and raises those that landed: no rank waits on a message
// that has arrived while its receiver waits on something else.
//
// A copy from a buffer that another process of the node exposes (single
// copy) reads that process's memory with process_vm_readv, Linux's
// cross-memory attach: the kernel copies straight from the owner's pages.
//
// Waiting spins, then sleeps on the flag's futex; a process with receives
// pending sleeps at most a few microseconds at a time (it must test them),
// and yields its core between polls of MPI.
#pragma once

#include <mpi.h>
#include <sys/types.h>

#include <cstdint>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/shared_flag.hpp"
#include "exec/transport.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::exec {

// Where the node's shared buffers and flags live in its segment.
struct SegmentPlan {
    struct Place {
        int member = -1;  // whose portion (the node's ranks in rank order); -1: none on this node
        std::size_t offset = 0;
    };
    std::vector<int> members;                // the node's ranks, in rank order
    std::vector<std::size_t> portion_bytes;  // per member
    std::vector<Place> buffers;              // per buffer: the shared buffers of this node
    std::vector<Place> flags;                // per task: the flag this node's ranks wait on
};

// Where a buffer that another process exposes lies in that process.
struct ExposedBuffer {
    pid_t process = 0;            // 0: not exposed to this process
    std::uintptr_t address = 0;   // in that process's address space
};

// UsageError for a schedule whose ranks are threads, or
// for a dependency this node cannot hear of: on a task of another node that
// is not a message to this node.
SegmentPlan plan_node_segment(const sched::Schedule& schedule, int node);

class ProcessTransport final : public Transport {
public:
    // This process runs `rank`; `flags[task]` is the flag of `task` in this
    // node's segment (null where nobody here waits on it). UsageError for a
    // message over 2^31 - 1 bytes.
    ProcessTransport(const sched::Schedule& schedule, int rank, MPI_Comm comm, std::vector<SharedFlag*> flags,
                     const Buffers& buffers);

    void signal(int task, std::uint32_t iteration) override {
        if (SharedFlag* flag = flags_[task]) flag->publish(iteration);
    }
    void wake(int task) override {
        if (SharedFlag* flag = flags_[task]) flag->wake();
    }
    void wait(int task, std::uint32_t iteration) override;
    bool ready(int task, std::uint32_t iteration) override;
    void transfer(int task, std::uint32_t iteration, const Buffers& buffers) override;
    void copy_from_process(int task, const Buffers& buffers) override;
    // Per buffer: where the exposed buffers of the node's other processes lie.
    void set_exposed(std::vector<ExposedBuffer> exposed) { exposed_ = std::move(exposed); }
    // Where one exposed buffer lies for the coming call (it may move between calls).
    void expose(int buffer, ExposedBuffer where) {
        if (exposed_.size() <= static_cast<std::size_t>(buffer)) exposed_.resize(static_cast<std::size_t>(buffer) + 1);
        exposed_[static_cast<std::size_t>(buffer)] = where;
    }
    // Completes the receives of the iteration that no task of this rank waited for.
    void finish(int rank, std::uint32_t iteration) override;

    // At the meeting before `iteration`: posts its receives, then passes an
    // MPI barrier with every other process.
    void meet(std::uint32_t iteration);
    // Posts the receives of `iteration` into `buffers` (where this call's
    // data lies), without a barrier: a call that guards its own buffers.
    void post_receives(std::uint32_t iteration, const Buffers& buffers);

    int messages_out() const { return messages_out_; }

private:
    struct Incoming {
        int task = 0;
        int source = 0;
        sched::Range range;  // where it lands; none for a message without data
        std::byte* into = nullptr;
        int bytes = 0;
        MPI_Request request = MPI_REQUEST_NULL;
        bool landed = true;
    };

    // Tests every pending receive once, raising the flags of those that landed.
    void poll_receives(std::uint32_t iteration);
    void land(Incoming& message, std::uint32_t iteration);
    // Until `request` completes, testing the pending receives meanwhile.
    void complete(MPI_Request& request, std::uint32_t iteration, const char* what, int task);
    void pause(int& polls) const;

    const sched::Schedule& schedule_;
    MPI_Comm comm_;
    std::vector<SharedFlag*> flags_;  // per task
    std::vector<int> incoming_of_;    // per task: its index in incoming_, -1 if not a message to this rank
    std::vector<Incoming> incoming_;
    std::vector<ExposedBuffer> exposed_;  // per buffer
    const Buffers& buffers_;
    int pending_ = 0;  // receives of this iteration not yet landed
    int messages_out_ = 0;
};

}  // namespace numacoll::exec

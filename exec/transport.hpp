// exec::Transport: how the threads that run a schedule hear from each other
// and move data between nodes. The executor knows no algorithm, and no
// transport: a flag task signals, a thread that depends on another thread's
// task waits for it, and a net task transfers. The thread transport
// (thread_transport.hpp) does this in shared memory inside one node.
//
// Every call names the iteration: signals are generation counters, so that
// nothing is reset between iterations.
#pragma once

#include <fmt/format.h>

#include <cstdint>

#include "common/error.hpp"
#include "exec/buffers.hpp"

namespace numacoll::exec {

class Transport {
public:
    virtual ~Transport() = default;

    // Task `task` of the calling thread is done for `iteration`: make it
    // visible to the threads that wait for it. Cheap: no system call.
    virtual void signal(int task, std::uint32_t iteration) = 0;
    // Wakes the threads that went to sleep waiting for `task` (after
    // signal(); may be a system call, so timestamps can sit between).
    virtual void wake(int task) = 0;
    // Blocks until `task`, another thread's, has been signalled for `iteration`.
    virtual void wait(int task, std::uint32_t iteration) = 0;
    // Whether wait(task, iteration) would return at once: what a progress
    // call (MPI_Test) asks before it runs a task, never blocking.
    virtual bool ready(int task, std::uint32_t iteration) = 0;
    // Net task `task`, run by its sender: moves its range to the receiver's
    // node and tells the receiver when it has landed.
    virtual void transfer(int task, std::uint32_t iteration, const Buffers& buffers) = 0;
    // After the last task of `rank`'s program: whatever the transport must
    // still finish for that rank before the iteration ends (messages to it
    // that no task waited for). Timed.
    virtual void finish(int rank, std::uint32_t iteration) = 0;
    // A copy task whose source is not held here: a buffer another process
    // exposes (sched::Buffer::exposed), copied once through the kernel.
    // Only a transport between processes has such copies.
    virtual void copy_from_process(int task, const Buffers&) {
        throw Error(fmt::format("task {} copies from a buffer this process does not hold", task));
    }
};

}  // namespace numacoll::exec

// exec::Buffers: a schedule's buffers in this process's memory, each placed
// on its NUMA node (the buffer's own, else its owner's). A process that runs
// one node of a schedule holds that node's buffers only, and a process
// that runs one rank (ranks as processes) its own private buffers and its
// node's shared ones; the others stay null, and asking for them is an error.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>
#include <vector>

#include "exec/memory_binding.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::exec {

class Buffers {
public:
    Buffers(const sched::Schedule& schedule, MemoryBinding& binding, int node);
    // Memory placed by the caller, per buffer (null: not held here); a
    // pointer without an owner (a node's shared segment) is not freed here.
    explicit Buffers(std::vector<std::shared_ptr<std::byte>> memory) : memory_(std::move(memory)) {}

    // Points `buffer` at memory the caller owns (an application's own input
    // or output, different at every call); not freed here.
    void rebind(int buffer, std::byte* at) { memory_[buffer] = std::shared_ptr<std::byte>(std::shared_ptr<void>(), at); }

    bool holds(int buffer) const { return memory_[buffer] != nullptr; }
    std::byte* bytes(int buffer) const { return memory_[buffer].get(); }
    std::byte* at(const sched::Range& range) const { return bytes(range.buffer) + range.offset; }
    double* doubles(const sched::Range& range) const { return reinterpret_cast<double*>(at(range)); }

private:
    std::vector<std::shared_ptr<std::byte>> memory_;  // per buffer; null on other nodes
};

}  // namespace numacoll::exec

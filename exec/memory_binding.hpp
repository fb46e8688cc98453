// Pinning threads and placing memory on this machine, through hwloc.
//
// The executor runs a schedule generated for the live machine: ranks carry
// hwloc logical PU indexes, buffers logical NUMA node indexes. This module
// maps them to the OS, binds, and says when the system would not let it (a
// container may forbid memory binding): the run goes on unbound and reports it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "topologies/machine.hpp"

struct hwloc_topology;

namespace numacoll::exec {

class MemoryBinding {
public:
    explicit MemoryBinding(const topo::Machine& machine);
    ~MemoryBinding();
    MemoryBinding(const MemoryBinding&) = delete;
    MemoryBinding& operator=(const MemoryBinding&) = delete;

    // Binds the calling thread to one PU (logical index); false if refused.
    bool pin_current_thread(int logical_pu);
    // Bytes placed on a NUMA node (logical index, -1: anywhere), 64-byte
    // aligned, zeroed. Falls back to plain memory when binding is refused.
    std::shared_ptr<std::byte> allocate(std::size_t bytes, int logical_numa);

    bool memory_bound() const { return memory_bound_; }
    bool threads_pinned() const { return threads_pinned_; }

private:
    const topo::Machine& machine_;
    hwloc_topology* topology_ = nullptr;
    bool memory_bound_ = true;
    bool threads_pinned_ = true;
};

}  // namespace numacoll::exec

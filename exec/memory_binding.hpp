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
#include <vector>

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
    // Places memory that is already mapped (a segment shared with other
    // processes) on a NUMA node, then touches it from here, before anyone
    // else does: where binding is refused, first touch still places it.
    void place(std::byte* memory, std::size_t bytes, int logical_numa);
    // The PUs (OS indexes, "0-3,8") that this process's launcher bound it to,
    // when they leave out `logical_pu`; empty when the process may run there
    // (bound to none, or to PUs that include it).
    std::string launcher_binding_excluding(int logical_pu) const;
    // The PUs (logical indexes, in order) this process's launcher bound it
    // to; empty when it is bound to none (every PU it may use).
    std::vector<int> launcher_bound_pus() const;

    bool memory_bound() const { return memory_bound_; }
    bool threads_pinned() const { return threads_pinned_; }

private:
    const topo::Machine& machine_;
    hwloc_topology* topology_ = nullptr;
    bool memory_bound_ = true;
    bool threads_pinned_ = true;
};

// One logical PU per process, each inside the PUs it may run on
// (`bound_to`, per process; empty: any PU): the bound processes first,
// narrowest binding first, each the first of its PUs on a core no earlier
// process took, else the first PU no earlier process took, else its first
// (shared).
std::vector<int> pus_inside_bindings(std::vector<std::vector<int>> bound_to, const topo::Machine& machine);

}  // namespace numacoll::exec

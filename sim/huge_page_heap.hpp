// HugePageHeap: transparent huge pages for the simulating process's heap.
//
// At thousands of nodes SimGrid's state (hosts, links, activities, the
// solver's variables and constraints) is hundreds of MB, touched in no
// particular order: with 4 KiB pages most of those accesses miss the TLB
// too. Where the kernel gives huge pages on request
// (/sys/kernel/mm/transparent_hugepage/enabled set to madvise, Debian's
// default), this makes the heap grow in large steps and asks for huge pages
// on each step. glibc does the same with GLIBC_TUNABLES=glibc.malloc.hugetlb=1,
// but reads that only when a process starts, and the simulating process is
// forked.
//
// Invariants: only timing moves, never a simulated figure. Nothing is
// touched here: memory is used only as it is written (then in 2 MiB pages).
// What the heap held before (the parent's, shared until written) keeps its
// pages. The caller calls advise_growth() often (it costs no system call
// when the heap has not grown), so that most of each step is still untouched
// when advised. Where the kernel refuses (THP never, no THP) nothing changes.
// CHANGELOG.md ("How the simulator got its speed") has the measurements.
#pragma once

#include <cstddef>
#include <cstdint>

namespace numacoll::sim {

class HugePageHeap {
public:
    // From now on the heap grows by at least `step_bytes` at a time (malloc's top pad).
    explicit HugePageHeap(std::size_t step_bytes);
    // Asks for huge pages on what the heap has grown by since the last call.
    void advise_growth();
    // Bytes of heap given the advice so far.
    std::size_t advised_bytes() const { return advised_bytes_; }

private:
    std::uintptr_t advised_end_ = 0;
    std::size_t advised_bytes_ = 0;
};

}  // namespace numacoll::sim

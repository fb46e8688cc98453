// RecyclingHeap: the simulating process's small C++ objects, recycled by size.
//
// Why: SimGrid 3.32 allocates several small objects for every activity it
// starts (the s4u and kernel comms, the network action, the route it
// resolves) and frees them when it ends. With hundreds of comms in flight,
// a burst of completions frees more blocks of one size than glibc's
// per-thread cache keeps (7), and the rest goes through malloc's bins: perf
// puts 16% of the samples of the 1M-task command, 22% of the simulating
// process's, in glibc's malloc and free. The same command with
// GLIBC_TUNABLES=glibc.malloc.tcache_count=65535 runs about a tenth faster,
// but glibc reads its tunables when a process starts, and the simulating
// process is forked (CHANGELOG.md, "How the simulator got its speed", has the measurements).
//
// How: recycling_heap.cpp replaces the global operator new and delete (C++
// replaceable functions; libsimgrid's calls reach them too). Until
// enable_recycling_heap() they forward to malloc and free, as the default
// ones do. After it, on the thread that called it, blocks up to
// RecyclingHeap::largest_block_bytes come from one reserved region cut into
// slabs of one size class each; a freed block goes on its class's list and
// is the next one of that size handed out. Nothing goes back to the system
// before the process ends: the simulating process allocates the same
// objects over and over, and ends with _exit.
//
// Invariants: only time and memory move, never a simulated figure (no model
// reads an address; Golden.TimelinesAreBitIdenticalWithAndWithoutTheRecyclingHeap
// compares every task's start and end bit for bit with and without it). Blocks are 16-byte aligned (operator new's default
// alignment); over-aligned requests and larger blocks go to malloc. A block
// of the region freed by another thread is never reused (the simulating
// process has one thread). Not built with AddressSanitizer or
// ThreadSanitizer, whose runtimes replace these operators themselves.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace numacoll::sim {

class RecyclingHeap {
public:
    static constexpr std::size_t granule_bytes = 16;
    static constexpr std::size_t largest_block_bytes = 1024;
    static constexpr std::size_t slab_bytes = std::size_t{64} << 10;
    static constexpr std::size_t class_count = largest_block_bytes / granule_bytes;

    // Reserves `reserve_bytes` of address space (pages are used only as
    // they are written). reserved_bytes() is 0 when the system refuses.
    explicit RecyclingHeap(std::size_t reserve_bytes);
    ~RecyclingHeap();
    RecyclingHeap(const RecyclingHeap&) = delete;
    RecyclingHeap& operator=(const RecyclingHeap&) = delete;

    // A block of at least `bytes`; nullptr when larger than
    // largest_block_bytes or when the region is full (the caller uses malloc).
    void* allocate(std::size_t bytes) noexcept {
        if (bytes > largest_block_bytes) return nullptr;
        const std::size_t size_class = bytes == 0 ? 0 : (bytes - 1) / granule_bytes;
        if (FreeBlock* block = free_[size_class]) {
            free_[size_class] = block->next;
            return block;
        }
        return allocate_new(size_class);
    }
    bool owns(const void* block) const noexcept {
        return reinterpret_cast<std::uintptr_t>(block) - base_ < reserved_bytes_;
    }
    // `block` must come from allocate() on this heap.
    void release(void* block) noexcept {
        const std::size_t size_class = slab_class_[(reinterpret_cast<std::uintptr_t>(block) - base_) / slab_bytes];
        auto* freed = static_cast<FreeBlock*>(block);
        freed->next = free_[size_class];
        free_[size_class] = freed;
    }

    std::size_t reserved_bytes() const { return reserved_bytes_; }
    // Slabs handed out so far, in bytes (an upper bound on the memory used).
    std::size_t slab_bytes_used() const;

private:
    struct FreeBlock {
        FreeBlock* next;
    };
    void* allocate_new(std::size_t size_class) noexcept;

    std::uintptr_t base_ = 0;
    std::size_t reserved_bytes_ = 0;
    std::uint8_t* slab_class_ = nullptr;  // per slab of the region: its size class
    std::uintptr_t first_slab_ = 0;       // the first slab after that table
    std::uintptr_t next_slab_ = 0;        // the first slab not handed out
    std::array<FreeBlock*, class_count> free_{};
    std::array<std::uintptr_t, class_count> cursor_{};  // per class: the next new block in its slab
    std::array<std::uintptr_t, class_count> slab_end_{};
};

// Whether this build replaces the global operator new and delete.
bool recycling_heap_built();
// Whether enable_recycling_heap() will enable it (default: built, unless
// NUMACOLL_RECYCLING_HEAP=0); a test compares simulations with and without.
bool recycling_heap_requested();
void request_recycling_heap(bool requested);
// From now on, this thread's small C++ objects come from a RecyclingHeap
// that lives until the process ends. For a process that will not start
// another thread and ends with _exit (the simulating child). False, and
// nothing changes, when not built or not requested, when no address space
// could be reserved, or when this process has one already.
bool enable_recycling_heap();
// Slabs this process's RecyclingHeap has handed out, in bytes (0 when not enabled).
std::size_t recycling_heap_slab_bytes();
// Whether `block` is in this process's RecyclingHeap.
bool recycling_heap_owns(const void* block);

}  // namespace numacoll::sim

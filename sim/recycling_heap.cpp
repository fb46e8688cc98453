#include "sim/recycling_heap.hpp"

#include <sys/mman.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>

// The sanitizers' runtimes replace operator new and delete themselves.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NUMACOLL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define NUMACOLL_SANITIZED 1
#endif
#endif
#if defined(NUMACOLL_RECYCLING_HEAP) && !defined(NUMACOLL_SANITIZED)
#define NUMACOLL_REPLACE_NEW 1
#endif

namespace numacoll::sim {

RecyclingHeap::RecyclingHeap(std::size_t reserve_bytes) {
    reserve_bytes = reserve_bytes / slab_bytes * slab_bytes;
    if (reserve_bytes < 2 * slab_bytes) return;
    void* region = ::mmap(nullptr, reserve_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                          -1, 0);
    if (region == MAP_FAILED) return;
#ifdef MADV_HUGEPAGE
    // As for the rest of the simulating process's heap (sim/huge_page_heap.hpp);
    // best effort: where the kernel says no, small pages.
    ::madvise(region, reserve_bytes, MADV_HUGEPAGE);
#endif
    base_ = reinterpret_cast<std::uintptr_t>(region);
    reserved_bytes_ = reserve_bytes;
    // The region starts with its table of slab classes, one byte per slab.
    slab_class_ = static_cast<std::uint8_t*>(region);
    const std::size_t table_bytes = reserve_bytes / slab_bytes;
    first_slab_ = base_ + (table_bytes + slab_bytes - 1) / slab_bytes * slab_bytes;
    next_slab_ = first_slab_;
}

RecyclingHeap::~RecyclingHeap() {
    if (reserved_bytes_ > 0) ::munmap(reinterpret_cast<void*>(base_), reserved_bytes_);
}

void* RecyclingHeap::allocate_new(std::size_t size_class) noexcept {
    const std::size_t block_bytes = (size_class + 1) * granule_bytes;
    std::uintptr_t& cursor = cursor_[size_class];
    if (cursor + block_bytes > slab_end_[size_class]) {
        if (next_slab_ + slab_bytes > base_ + reserved_bytes_) return nullptr;
        slab_class_[(next_slab_ - base_) / slab_bytes] = static_cast<std::uint8_t>(size_class);
        cursor = next_slab_;
        slab_end_[size_class] = next_slab_ + slab_bytes;
        next_slab_ += slab_bytes;
    }
    void* block = reinterpret_cast<void*>(cursor);
    cursor += block_bytes;
    return block;
}

std::size_t RecyclingHeap::slab_bytes_used() const { return next_slab_ - first_slab_; }

namespace {

// Set once, before any block of it exists; never destroyed (the process ends with _exit).
std::atomic<RecyclingHeap*> process_heap{nullptr};
// Only the thread that enabled the heap allocates from it and recycles into it.
thread_local bool recycling_thread = false;

bool requested = [] {
    const char* setting = std::getenv("NUMACOLL_RECYCLING_HEAP");
    return recycling_heap_built() && (setting == nullptr || std::strcmp(setting, "0") != 0);
}();

}  // namespace

bool recycling_heap_built() {
#ifdef NUMACOLL_REPLACE_NEW
    return true;
#else
    return false;
#endif
}

bool recycling_heap_requested() { return requested; }

void request_recycling_heap(bool wanted) { requested = wanted && recycling_heap_built(); }

bool enable_recycling_heap() {
    if (!requested || process_heap.load(std::memory_order_relaxed) != nullptr) return false;
    // Address space only; where a limit refuses the largest, a smaller one.
    for (const std::size_t gibibytes : {64, 16, 4, 1}) {
        auto* heap = new RecyclingHeap(gibibytes << 30);
        if (heap->reserved_bytes() == 0) {
            delete heap;
            continue;
        }
        process_heap.store(heap, std::memory_order_relaxed);
        recycling_thread = true;
        return true;
    }
    return false;
}

std::size_t recycling_heap_slab_bytes() {
    const RecyclingHeap* heap = process_heap.load(std::memory_order_relaxed);
    return heap != nullptr ? heap->slab_bytes_used() : 0;
}

bool recycling_heap_owns(const void* block) {
    const RecyclingHeap* heap = process_heap.load(std::memory_order_relaxed);
    return heap != nullptr && heap->owns(block);
}

}  // namespace numacoll::sim

#ifdef NUMACOLL_REPLACE_NEW

namespace {

using numacoll::sim::process_heap;
using numacoll::sim::recycling_thread;

// What the default operator new does.
void* malloc_or_throw(std::size_t bytes) {
    if (bytes == 0) bytes = 1;
    for (;;) {
        if (void* block = std::malloc(bytes)) return block;
        const std::new_handler handler = std::get_new_handler();
        if (handler == nullptr) throw std::bad_alloc();
        handler();
    }
}

void* allocate(std::size_t bytes) {
    if (recycling_thread)
        if (void* block = process_heap.load(std::memory_order_relaxed)->allocate(bytes)) return block;
    return malloc_or_throw(bytes);
}

void release(void* block) noexcept {
    numacoll::sim::RecyclingHeap* heap = process_heap.load(std::memory_order_relaxed);
    if (heap != nullptr && heap->owns(block)) {
        if (recycling_thread) heap->release(block);
        return;
    }
    std::free(block);
}

}  // namespace

// The replaceable forms without an alignment argument; the aligned ones keep
// their default (aligned_alloc and free), and never see a block of the heap.
void* operator new(std::size_t bytes) { return allocate(bytes); }
void* operator new[](std::size_t bytes) { return allocate(bytes); }
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept {
    try {
        return allocate(bytes);
    } catch (...) {
        return nullptr;
    }
}
void* operator new[](std::size_t bytes, const std::nothrow_t&) noexcept {
    try {
        return allocate(bytes);
    } catch (...) {
        return nullptr;
    }
}
void operator delete(void* block) noexcept { release(block); }
void operator delete[](void* block) noexcept { release(block); }
void operator delete(void* block, std::size_t) noexcept { release(block); }
void operator delete[](void* block, std::size_t) noexcept { release(block); }
void operator delete(void* block, const std::nothrow_t&) noexcept { release(block); }
void operator delete[](void* block, const std::nothrow_t&) noexcept { release(block); }

#endif

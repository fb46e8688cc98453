// RecyclingHeap: blocks of every size class are aligned, disjoint and inside
// the region; a freed block is the next one of its size handed out; a full
// or refused region hands out nothing, and the caller falls back on malloc.
// The replaced operator new and delete are checked in a forked process,
// where enabling the heap cannot touch the test process.
#include "sim/recycling_heap.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace numacoll::sim {
namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

TEST(RecyclingHeap, BlocksOfEverySizeAreAlignedDisjointAndInsideTheRegion) {
    RecyclingHeap heap(64 * mib);
    ASSERT_EQ(heap.reserved_bytes(), 64 * mib);
    struct Held {
        unsigned char* block;
        std::size_t bytes;
        unsigned char fill;
    };
    std::vector<Held> held;
    for (std::size_t bytes = 0; bytes <= RecyclingHeap::largest_block_bytes; bytes += 7)
        for (int copy = 0; copy < 3; ++copy) {
            auto* block = static_cast<unsigned char*>(heap.allocate(bytes));
            ASSERT_NE(block, nullptr) << bytes;
            EXPECT_TRUE(heap.owns(block));
            EXPECT_EQ(reinterpret_cast<std::uintptr_t>(block) % RecyclingHeap::granule_bytes, 0u) << bytes;
            const auto fill = static_cast<unsigned char>(held.size() * 37 + 1);
            std::memset(block, fill, bytes);
            held.push_back({block, bytes, fill});
        }
    // No block was written over by another.
    for (const Held& h : held)
        for (std::size_t at = 0; at < h.bytes; ++at) ASSERT_EQ(h.block[at], h.fill) << h.bytes;
    EXPECT_EQ(heap.allocate(RecyclingHeap::largest_block_bytes + 1), nullptr);
    EXPECT_EQ(heap.allocate(~std::size_t{0}), nullptr);
    EXPECT_FALSE(heap.owns(&held));
    EXPECT_FALSE(heap.owns(nullptr));
    // One slab per size class in use: 64 classes.
    EXPECT_EQ(heap.slab_bytes_used(), RecyclingHeap::class_count * RecyclingHeap::slab_bytes);
}

TEST(RecyclingHeap, AFreedBlockIsTheNextOfItsSizeHandedOut) {
    RecyclingHeap heap(8 * mib);
    void* first = heap.allocate(40);
    void* second = heap.allocate(48);  // the same class: 33 to 48 bytes
    void* other = heap.allocate(200);
    heap.release(first);
    EXPECT_NE(heap.allocate(100), first);  // another class does not take it
    EXPECT_EQ(heap.allocate(33), first);
    heap.release(second);
    heap.release(other);
    EXPECT_EQ(heap.allocate(193), other);  // 193 to 208 bytes
    EXPECT_EQ(heap.allocate(48), second);
    EXPECT_NE(heap.allocate(48), second);
}

TEST(RecyclingHeap, AFullRegionHandsOutOnlyWhatIsFreed) {
    // The table of slab classes takes the first slab, three are left.
    RecyclingHeap heap(4 * RecyclingHeap::slab_bytes);
    std::vector<void*> blocks;
    while (void* block = heap.allocate(RecyclingHeap::largest_block_bytes)) blocks.push_back(block);
    EXPECT_EQ(blocks.size(), 3 * RecyclingHeap::slab_bytes / RecyclingHeap::largest_block_bytes);
    EXPECT_EQ(std::set<void*>(blocks.begin(), blocks.end()).size(), blocks.size());
    EXPECT_EQ(heap.allocate(16), nullptr);  // no slab left for another class
    heap.release(blocks[5]);
    EXPECT_EQ(heap.allocate(1009), blocks[5]);  // 1,009 to 1,024 bytes
    EXPECT_EQ(heap.allocate(1024), nullptr);
}

TEST(RecyclingHeap, ARefusedReservationHandsOutNothing) {
    RecyclingHeap tiny(RecyclingHeap::slab_bytes);  // no room beside its table
    EXPECT_EQ(tiny.reserved_bytes(), 0u);
    EXPECT_EQ(tiny.allocate(16), nullptr);
    EXPECT_FALSE(tiny.owns(&tiny));
    RecyclingHeap huge(std::size_t{1} << 62);  // more address space than x86-64 has
    EXPECT_EQ(huge.reserved_bytes(), 0u);
    EXPECT_EQ(huge.allocate(16), nullptr);
}

// Runs `body` in a forked process; its exit code (0: every check held).
int in_child(int (*body)()) {
    const pid_t child = ::fork();
    if (child == 0) ::_exit(body());
    int status = 0;
    ::waitpid(child, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

TEST(RecyclingHeap, NewAndDeleteRecycleOnTheEnablingThreadOnly) {
    if (!recycling_heap_built()) GTEST_SKIP() << "this build keeps the default operator new (sanitizer or CMake option)";
    ASSERT_TRUE(recycling_heap_requested());
    const int code = in_child([] {
        // Blocks from before stay malloc's, and are freed to it.
        auto* before = new std::string(100, 'b');
        if (!enable_recycling_heap()) return 1;
        if (enable_recycling_heap()) return 2;  // once per process
        if (recycling_heap_slab_bytes() != 0) return 3;
        auto* small = new std::array<char, 100>();
        if (!recycling_heap_owns(small) || recycling_heap_owns(before)) return 4;
        if (recycling_heap_slab_bytes() != RecyclingHeap::slab_bytes) return 5;
        delete before;
        delete small;
        if (new std::array<char, 100>() != small) return 6;  // recycled
        // Larger blocks: malloc's.
        std::vector<char> large(RecyclingHeap::largest_block_bytes + 1, 'x');
        if (recycling_heap_owns(large.data())) return 7;
        auto* array = new int[10]();
        if (!recycling_heap_owns(array)) return 8;
        delete[] array;
        // Another thread allocates from malloc; a block of the heap it frees is never handed out again.
        auto* handed = new std::array<char, 200>();
        std::array<char, 200>* from_thread = nullptr;
        std::thread([&] {
            from_thread = new std::array<char, 200>();
            delete handed;
        }).join();
        if (recycling_heap_owns(from_thread)) return 9;
        if (new std::array<char, 200>() == handed) return 10;
        delete from_thread;  // malloc's block, freed to malloc
        return 0;
    });
    EXPECT_EQ(code, 0);
}

TEST(RecyclingHeap, NotEnabledWhenNotRequested) {
    const bool was = recycling_heap_requested();
    request_recycling_heap(false);
    const int code = in_child([] {
        if (enable_recycling_heap()) return 1;
        auto* block = new std::array<char, 64>();
        const bool recycled = recycling_heap_owns(block) || recycling_heap_slab_bytes() != 0;
        delete block;
        return recycled ? 2 : 0;
    });
    request_recycling_heap(was);
    EXPECT_EQ(code, 0);
    EXPECT_EQ(recycling_heap_requested(), was);
}

}  // namespace
}  // namespace numacoll::sim

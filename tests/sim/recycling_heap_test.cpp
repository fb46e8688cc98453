// RecyclingHeap: blocks of every size class are aligned, disjoint and inside
// the region; a freed block is the next one of its size handed out; a full
// or refused region hands out nothing, and the caller falls back on malloc.
// The replaced operator new and delete are checked in a death test's forked
// process, where enabling the heap cannot touch the test process.
#include "sim/recycling_heap.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "sim_fixtures.hpp"

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

// In the forked process of the death tests below.
// Objects of two size classes.
using Object100 = std::array<char, 100>;
using Object200 = std::array<char, 200>;

[[noreturn]] void recycle_on_the_enabling_thread_only() {
    // Blocks from before stay malloc's, and are freed to it.
    auto* before = new std::string(100, 'b');
    CHILD_CHECK(enable_recycling_heap());
    CHILD_CHECK(!enable_recycling_heap());  // once per process
    CHILD_CHECK(recycling_heap_slab_bytes() == 0);
    auto* small = new Object100();
    CHILD_CHECK(recycling_heap_owns(small) && !recycling_heap_owns(before));
    CHILD_CHECK(recycling_heap_slab_bytes() == RecyclingHeap::slab_bytes);
    delete before;
    delete small;
    CHILD_CHECK(new Object100() == small);  // recycled
    // Larger blocks: malloc's.
    std::vector<char> large(RecyclingHeap::largest_block_bytes + 1, 'x');
    CHILD_CHECK(!recycling_heap_owns(large.data()));
    auto* array = new int[10]();
    CHILD_CHECK(recycling_heap_owns(array));
    delete[] array;
    // Another thread allocates from malloc; a block of the heap it frees is never handed out again.
    auto* handed = new Object200();
    Object200* from_thread = nullptr;
    std::thread([&] {
        from_thread = new Object200();
        delete handed;
    }).join();
    CHILD_CHECK(!recycling_heap_owns(from_thread));
    CHILD_CHECK(new Object200() != handed);
    delete from_thread;  // malloc's block, freed to malloc
    std::_Exit(0);
}

[[noreturn]] void stay_with_malloc() {
    CHILD_CHECK(!enable_recycling_heap());
    auto* block = new std::array<char, 64>();
    CHILD_CHECK(!recycling_heap_owns(block) && recycling_heap_slab_bytes() == 0);
    delete block;
    std::_Exit(0);
}

TEST(RecyclingHeap, NewAndDeleteRecycleOnTheEnablingThreadOnly) {
    if (!recycling_heap_built()) GTEST_SKIP() << "this build keeps the default operator new (sanitizer or CMake option)";
    ASSERT_TRUE(recycling_heap_requested());
    EXPECT_EXIT(recycle_on_the_enabling_thread_only(), ::testing::ExitedWithCode(0), "");
}

TEST(RecyclingHeap, NotEnabledWhenNotRequested) {
    const bool was = recycling_heap_requested();
    request_recycling_heap(false);
    EXPECT_EXIT(stay_with_malloc(), ::testing::ExitedWithCode(0), "");
    request_recycling_heap(was);
    EXPECT_EQ(recycling_heap_requested(), was);
}

}  // namespace
}  // namespace numacoll::sim

// HugePageHeap: once it exists the heap grows in large steps, each advised
// for huge pages when advise_growth() sees it, and what the heap held before
// is left as it was. Each case runs in a forked process, so that malloc's
// settings in the test process stay as they were. A step is at least half
// the asked size: glibc counts the free space already at the heap's top in it.
#include "sim/huge_page_heap.hpp"

#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim_fixtures.hpp"

namespace numacoll::sim {
namespace {

constexpr std::size_t mebibyte = std::size_t{1} << 20;

// Whether the kernel gives huge pages on request (THP "madvise" or "always").
bool kernel_offers_huge_pages() {
    std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string setting;
    std::getline(file, setting);
    return setting.find("[madvise]") != std::string::npos || setting.find("[always]") != std::string::npos;
}

bool glibc_malloc() {
#if defined(__SANITIZE_ADDRESS__)
    return false;  // the sanitizer's allocator does not use the program break
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
    return false;
#endif
#endif
    return true;
}

// The VmFlags line of the mapping that holds `address`, from /proc/self/smaps.
std::string flags_of_mapping_at(const void* address) {
    const auto target = reinterpret_cast<std::uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    bool inside = false;
    for (std::string line; std::getline(smaps, line);) {
        unsigned long from = 0, to = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &from, &to) == 2 && line.find(' ') > line.find('-')) {
            inside = target >= from && target < to;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0) return line;
    }
    return "";
}

bool advised_huge(const void* address) {
    std::istringstream flags(flags_of_mapping_at(address));
    for (std::string flag; flags >> flag;)
        if (flag == "hg") return true;
    return false;
}

class HugePageHeapTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!glibc_malloc()) GTEST_SKIP() << "built with a sanitizer's allocator";
        if (!kernel_offers_huge_pages()) GTEST_SKIP() << "this kernel gives no transparent huge pages on request";
    }
};

// Small blocks worth more than the heap has free: once its free chunks are
// used, the heap must grow.
std::vector<void*> allocate_past_free_space() {
    std::vector<void*> blocks;
    for (std::size_t done = 0, total = ::mallinfo2().fordblks + mebibyte; done < total; done += 4096)
        blocks.push_back(std::malloc(4096));
    return blocks;
}

TEST_F(HugePageHeapTest, TheHeapGrowsInStepsEachAdvisedForHugePages) {
    EXPECT_EXIT(
        {
            int* earlier = new int(1);  // on the heap before: keeps its pages
            const auto* start = static_cast<const char*>(::sbrk(0));
            HugePageHeap heap(64 * mebibyte);
            CHILD_CHECK(heap.advised_bytes() == 0);
            heap.advise_growth();  // no growth: nothing to advise
            CHILD_CHECK(heap.advised_bytes() == 0);
            std::vector<void*> blocks = allocate_past_free_space();
            const auto* grown_end = static_cast<const char*>(::sbrk(0));
            CHILD_CHECK(grown_end - start >= static_cast<std::ptrdiff_t>(32 * mebibyte));
            CHILD_CHECK(!advised_huge(grown_end - 1));
            heap.advise_growth();
            const std::size_t advised = heap.advised_bytes();
            CHILD_CHECK(advised >= 32 * mebibyte);
            CHILD_CHECK(advised_huge(grown_end - 1));
            CHILD_CHECK(!advised_huge(earlier));
            // Within the step, more blocks need no growth.
            for (int i = 0; i < 2048; ++i) blocks.push_back(std::malloc(4096));
            CHILD_CHECK(static_cast<const char*>(::sbrk(0)) == grown_end);
            CHILD_CHECK(blocks.back() >= start && blocks.back() < grown_end);
            heap.advise_growth();  // nothing new: nothing more advised
            CHILD_CHECK(heap.advised_bytes() == advised);
            for (void* block : blocks) std::free(block);
            delete earlier;
            std::_Exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST_F(HugePageHeapTest, EachLaterStepIsAdvisedToo) {
    EXPECT_EXIT(
        {
            HugePageHeap heap(4 * mebibyte);
            std::vector<void*> first = allocate_past_free_space();
            heap.advise_growth();
            const std::size_t advised = heap.advised_bytes();
            const auto* first_end = static_cast<const char*>(::sbrk(0));
            CHILD_CHECK(advised >= 2 * mebibyte);
            std::vector<void*> second = allocate_past_free_space();
            const auto* second_end = static_cast<const char*>(::sbrk(0));
            CHILD_CHECK(second_end - first_end >= static_cast<std::ptrdiff_t>(2 * mebibyte));
            heap.advise_growth();
            CHILD_CHECK(heap.advised_bytes() == advised + static_cast<std::size_t>(second_end - first_end));
            CHILD_CHECK(advised_huge(second_end - 1));
            for (void* block : first) std::free(block);
            for (void* block : second) std::free(block);
            std::_Exit(0);
        },
        ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace numacoll::sim

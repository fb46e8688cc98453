#include "sim/huge_page_heap.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <climits>

namespace numacoll::sim {

namespace {

std::uintptr_t program_break() { return reinterpret_cast<std::uintptr_t>(::sbrk(0)); }

}  // namespace

HugePageHeap::HugePageHeap(std::size_t step_bytes) {
    const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
    advised_end_ = program_break() / page * page;
    ::mallopt(M_TOP_PAD, static_cast<int>(std::min<std::size_t>(step_bytes, INT_MAX)));
}

void HugePageHeap::advise_growth() {
    const std::uintptr_t end = program_break();
    if (end <= advised_end_) return;
#ifdef MADV_HUGEPAGE
    // Best effort: where the kernel says no, the heap keeps small pages.
    if (::madvise(reinterpret_cast<void*>(advised_end_), end - advised_end_, MADV_HUGEPAGE) == 0)
        advised_bytes_ += end - advised_end_;
#endif
    advised_end_ = end;
}

}  // namespace numacoll::sim

// ByteIntervals against a byte-by-byte model: random visits, assignments and
// replacements over buffers of a few sizes, ranges that reach past the end
// included; every visit must see the model's values, in order, cut where
// they change.
#include "schedule/byte_intervals.hpp"

#include <gtest/gtest.h>

#include <memory_resource>
#include <random>
#include <vector>

using numacoll::sched::ByteIntervals;

namespace {

// What a visit of [offset, offset + bytes) should see: runs of equal values
// of the model, cut wherever the intervals are cut (a visit reports
// intervals, so two adjacent intervals may hold equal values).
struct Piece {
    std::uint64_t start, end;
    int value;
};

template <typename Intervals>
std::vector<Piece> visit(Intervals& intervals, std::uint64_t offset, std::uint64_t bytes) {
    std::vector<Piece> seen;
    intervals.for_each(offset, bytes,
                       [&](std::uint64_t start, std::uint64_t end, int& value) { seen.push_back({start, end, value}); });
    return seen;
}

// The pieces must tile [offset, min(offset + bytes, size)) and agree with the model byte for byte.
void expect_matches(const std::vector<Piece>& seen, const std::vector<int>& model, std::uint64_t offset, std::uint64_t bytes) {
    const std::uint64_t end = std::min<std::uint64_t>(offset + bytes, model.size());
    if (offset >= end) {
        EXPECT_TRUE(seen.empty());
        return;
    }
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.front().start, offset);
    EXPECT_EQ(seen.back().end, end);
    for (std::size_t i = 0; i < seen.size(); ++i) {
        if (i > 0) {
            EXPECT_EQ(seen[i].start, seen[i - 1].end);
        }
        EXPECT_LT(seen[i].start, seen[i].end);
        for (std::uint64_t byte = seen[i].start; byte < seen[i].end; ++byte)
            ASSERT_EQ(seen[i].value, model[byte]) << "byte " << byte;
    }
}

// Counts the blocks it has handed out and not yet taken back.
class CountingResource : public std::pmr::memory_resource {
public:
    std::size_t live = 0;

private:
    void* do_allocate(std::size_t bytes, std::size_t alignment) override {
        ++live;
        return std::pmr::new_delete_resource()->allocate(bytes, alignment);
    }
    void do_deallocate(void* block, std::size_t bytes, std::size_t alignment) override {
        --live;
        std::pmr::new_delete_resource()->deallocate(block, bytes, alignment);
    }
    bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

}  // namespace

TEST(ByteIntervals, TakesEveryIntervalFromItsAllocatorAndGivesItBack) {
    CountingResource counting;
    {
        ByteIntervals<int, std::pmr::polymorphic_allocator<std::pair<const std::uint64_t, int>>> intervals(100, 0,
                                                                                                             &counting);
        EXPECT_EQ(counting.live, 1u);
        intervals.assign(10, 20, 1);
        EXPECT_EQ(counting.live, 3u);  // [0, 10), [10, 30), [30, 100)
        intervals.replace(0, 100, 2, [](std::uint64_t, std::uint64_t, int&) {});
        EXPECT_EQ(counting.live, 1u);
        const auto seen = visit(intervals, 0, 100);
        ASSERT_EQ(seen.size(), 1u);
        EXPECT_EQ(seen[0].value, 2);
    }
    EXPECT_EQ(counting.live, 0u);
}

TEST(ByteIntervals, AgreesWithAByteByByteModel) {
    std::mt19937 random(7);
    for (std::uint64_t size : {1u, 2u, 7u, 64u, 1000u}) {
        ByteIntervals<int> intervals(size, -1);
        std::vector<int> model(size, -1);
        std::uniform_int_distribution<std::uint64_t> offset_of(0, size + 2);
        std::uniform_int_distribution<int> operation(0, 2);
        for (int step = 0; step < 2000; ++step) {
            const std::uint64_t offset = offset_of(random);
            const std::uint64_t bytes = std::uniform_int_distribution<std::uint64_t>(0, size / 2 + 2)(random);
            const std::uint64_t end = std::min<std::uint64_t>(offset + bytes, size);
            const int value = step;
            switch (operation(random)) {
                case 0:
                    expect_matches(visit(intervals, offset, bytes), model, offset, bytes);
                    break;
                case 1:
                    intervals.assign(offset, bytes, value);
                    for (std::uint64_t byte = offset; byte < end; ++byte) model[byte] = value;
                    break;
                default: {
                    std::vector<Piece> before;
                    intervals.replace(offset, bytes, value, [&](std::uint64_t start, std::uint64_t stop, int& old) {
                        before.push_back({start, stop, old});
                    });
                    if (bytes > 0) expect_matches(before, model, offset, bytes);
                    for (std::uint64_t byte = offset; byte < end; ++byte) model[byte] = value;
                }
            }
            if (::testing::Test::HasFatalFailure()) return;
        }
        expect_matches(visit(intervals, 0, size), model, 0, size);
    }
}

TEST(ByteIntervals, AnAssignedRangeIsOneInterval) {
    ByteIntervals<int> intervals(100, 0);
    intervals.assign(10, 20, 1);
    intervals.assign(15, 5, 2);
    intervals.assign(10, 20, 3);
    const auto seen = visit(intervals, 0, 100);
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1].start, 10u);
    EXPECT_EQ(seen[1].end, 30u);
    EXPECT_EQ(seen[1].value, 3);
}

TEST(ByteIntervals, NothingPastTheEnd) {
    ByteIntervals<int> intervals(10, 0);
    intervals.assign(10, 5, 1);
    intervals.replace(12, 5, 2, [](std::uint64_t, std::uint64_t, int&) { ADD_FAILURE() << "visited past the end"; });
    EXPECT_TRUE(visit(intervals, 10, 5).empty());
    const auto all = visit(intervals, 0, 20);
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].end, 10u);
    EXPECT_EQ(all[0].value, 0);
}

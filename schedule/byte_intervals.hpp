// sched::ByteIntervals<Value>: the bytes [0, size) of one buffer cut into
// intervals, each holding a Value (who wrote it last, where it lives...).
// An access cuts the intervals at its range's ends, so that the range is
// made of whole intervals, then visits or replaces them. Used wherever a
// pass over a schedule follows bytes through its tasks. Bytes at or past
// the buffer's size are never visited nor assigned. `Allocator` gives the
// map's nodes: a pass that cuts and merges intervals by the million can
// draw them from a pool (sim/task_plan.cpp does).
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <utility>

namespace numacoll::sched {

template <typename Value, typename Allocator = std::allocator<std::pair<const std::uint64_t, Value>>>
class ByteIntervals {
    using Map = std::map<std::uint64_t, Value, std::less<std::uint64_t>, Allocator>;

public:
    ByteIntervals(std::uint64_t size, Value initial, const Allocator& allocator = Allocator())
        : size_(size), intervals_(allocator) {
        intervals_.emplace(0, std::move(initial));
    }

    // Calls visit(start, end, value&) for each interval of [offset, offset + bytes), in order.
    template <typename Visit>
    void for_each(std::uint64_t offset, std::uint64_t bytes, Visit visit) {
        if (bytes == 0) return;
        const auto [first, last] = cut_range(offset, offset + bytes);
        for (auto it = first; it != last; ++it) visit(it->first, end_of(it), it->second);
    }

    // [offset, offset + bytes) becomes one interval holding `value`.
    void assign(std::uint64_t offset, std::uint64_t bytes, Value value) {
        replace(offset, bytes, std::move(value), [](std::uint64_t, std::uint64_t, Value&) {});
    }

    // Visits [offset, offset + bytes) as for_each, then makes it one interval
    // holding `value`: one search of the map instead of two, and the first
    // interval's node is reused (a million-task plan does this per write).
    template <typename Visit>
    void replace(std::uint64_t offset, std::uint64_t bytes, Value value, Visit visit) {
        if (bytes == 0) return;
        auto [first, last] = cut_range(offset, offset + bytes);
        if (first == intervals_.end()) return;  // past the buffer's end: nothing there
        for (auto it = first; it != last; ++it) visit(it->first, end_of(it), it->second);
        first->second = std::move(value);
        intervals_.erase(std::next(first), last);
    }

private:
    // Cuts at `at` (when inside the buffer) and returns the interval that starts there.
    auto cut(std::uint64_t at) {
        if (at >= size_) return intervals_.end();
        auto after = intervals_.upper_bound(at);
        const auto it = std::prev(after);
        if (it->first == at) return it;
        return intervals_.emplace_hint(after, at, it->second);
    }

    // The intervals that make up [offset, end), cut at both ends.
    std::pair<typename Map::iterator, typename Map::iterator>
    cut_range(std::uint64_t offset, std::uint64_t end) {
        const auto first = cut(offset);
        const auto last = cut(end);  // inserting leaves `first` valid
        return {first, last};
    }

    std::uint64_t end_of(typename Map::const_iterator it) const {
        const auto next = std::next(it);
        return next == intervals_.end() ? size_ : next->first;
    }

    std::uint64_t size_;
    Map intervals_;
};

}  // namespace numacoll::sched

// sched::ByteIntervals<Value>: the bytes [0, size) of one buffer cut into
// intervals, each holding a Value (who wrote it last, where it lives...).
// An access cuts the intervals at its range's ends, so that the range is
// made of whole intervals, then visits or replaces them. Used wherever a
// pass over a schedule follows bytes through its tasks.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <utility>

namespace numacoll::sched {

template <typename Value>
class ByteIntervals {
public:
    ByteIntervals(std::uint64_t size, Value initial) : size_(size) { intervals_.emplace(0, std::move(initial)); }

    // Calls visit(start, end, value&) for each interval of [offset, offset + bytes), in order.
    template <typename Visit>
    void for_each(std::uint64_t offset, std::uint64_t bytes, Visit visit) {
        if (bytes == 0) return;
        const std::uint64_t end = offset + bytes;
        cut(offset);
        cut(end);
        for (auto it = intervals_.find(offset); it != intervals_.end() && it->first < end; ++it) {
            const auto next = std::next(it);
            visit(it->first, next == intervals_.end() ? size_ : next->first, it->second);
        }
    }

    // [offset, offset + bytes) becomes one interval holding `value`.
    void assign(std::uint64_t offset, std::uint64_t bytes, Value value) {
        if (bytes == 0) return;
        const std::uint64_t end = offset + bytes;
        cut(offset);
        cut(end);
        intervals_.erase(intervals_.lower_bound(offset), intervals_.lower_bound(end));
        intervals_.emplace(offset, std::move(value));
    }

private:
    void cut(std::uint64_t at) {
        if (at >= size_) return;
        const auto it = std::prev(intervals_.upper_bound(at));
        if (it->first != at) intervals_.emplace(at, it->second);
    }

    std::uint64_t size_;
    std::map<std::uint64_t, Value> intervals_;
};

}  // namespace numacoll::sched

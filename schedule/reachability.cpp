#include "schedule/reachability.hpp"

namespace numacoll::sched {

Reachability::Reachability(const Schedule& schedule)
    : successors_(schedule.successor_rows()), visited_stamp_(schedule.task_count(), 0) {}

bool Reachability::reaches(int from, int to) {
    if (from == to) return true;
    if (from > to) return false;
    ++stamp_;
    stack_.assign(1, from);
    visited_stamp_[from] = stamp_;
    while (!stack_.empty()) {
        const int current = stack_.back();
        stack_.pop_back();
        for (const int* at = successors_.begin(current); at != successors_.end(current); ++at) {
            const int next = *at;
            if (next == to) return true;
            if (next > to || visited_stamp_[next] == stamp_) continue;
            visited_stamp_[next] = stamp_;
            stack_.push_back(next);
        }
    }
    return false;
}

}  // namespace numacoll::sched

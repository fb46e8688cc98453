#include "algorithms/patterns/block_readiness.hpp"

#include <algorithm>

namespace numacoll::algo {

std::vector<int> BlockReadiness::of(int rank, int first, int count) const {
    std::vector<int> tasks;
    for (int block = first; block < first + count; ++block)
        for (int task : ready_[rank][block])
            if (std::find(tasks.begin(), tasks.end(), task) == tasks.end()) tasks.push_back(task);
    return tasks;
}

void BlockReadiness::set(int rank, int first, int count, int task) {
    for (int block = first; block < first + count; ++block) ready_[rank][block] = {task};
}

void BlockReadiness::settle(ScheduleBuilder& builder, const std::string& label) const {
    for (int rank = 0; rank < static_cast<int>(ready_.size()); ++rank)
        builder.wait_for_others(rank, of(rank, 0, static_cast<int>(ready_[rank].size())), label);
}

}  // namespace numacoll::algo

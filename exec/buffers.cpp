#include "exec/buffers.hpp"

namespace numacoll::exec {

Buffers::Buffers(const sched::Schedule& schedule, MemoryBinding& binding, int node) {
    for (const sched::Buffer& buffer : schedule.buffers()) {
        const sched::RankInfo& owner = schedule.ranks[buffer.owner];
        if (owner.node != node) {
            memory_.emplace_back();
            continue;
        }
        memory_.push_back(binding.allocate(buffer.bytes, buffer.numa >= 0 ? buffer.numa : owner.numa));
    }
}

}  // namespace numacoll::exec

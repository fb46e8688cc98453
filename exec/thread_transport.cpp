#include "exec/thread_transport.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.hpp"

namespace numacoll::exec {

ThreadTransport::ThreadTransport(const sched::Schedule& schedule) : slot_(schedule.task_count(), -1) {
    int flags = 0;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::TaskKind kind = schedule.task(id).kind;
        if (kind == sched::TaskKind::net)
            throw UsageError(fmt::format("threads share one node's memory and cannot run net task {}", id));
        if (kind == sched::TaskKind::flag) slot_[id] = flags++;
    }
    flags_ = std::make_unique<Flag[]>(static_cast<std::size_t>(std::max(flags, 1)));
}

void ThreadTransport::transfer(int task, std::uint32_t, const Buffers&) {
    throw Error(fmt::format("net task {} reached the thread transport", task));
}

}  // namespace numacoll::exec

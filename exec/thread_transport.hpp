// exec::ThreadTransport: the transport of threads that share one node's
// memory. A task that others wait for (a flag) owns a padded flag with a
// generation counter (exec/flag.hpp); waiting spins, then sleeps. Net tasks
// cross nodes and have no place here: a schedule with one is refused.
#pragma once

#include <memory>
#include <vector>

#include "exec/flag.hpp"
#include "exec/transport.hpp"

namespace numacoll::exec {

class ThreadTransport final : public Transport {
public:
    // UsageError naming the first net task of the schedule.
    explicit ThreadTransport(const sched::Schedule& schedule);

    void signal(int task, std::uint32_t iteration) override { flags_[slot_[task]].publish(iteration); }
    void wake(int task) override { flags_[slot_[task]].wake(); }
    void wait(int task, std::uint32_t iteration) override { flags_[slot_[task]].wait_for(iteration); }
    bool ready(int task, std::uint32_t iteration) override { return flags_[slot_[task]].reached(iteration); }
    void transfer(int task, std::uint32_t iteration, const Buffers& buffers) override;
    void finish(int, std::uint32_t) override {}

private:
    std::vector<int> slot_;  // per task: its flag, -1 for tasks nobody waits on
    std::unique_ptr<Flag[]> flags_;
};

}  // namespace numacoll::exec

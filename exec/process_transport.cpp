#include "exec/process_transport.hpp"

#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "common/error.hpp"
#include "exec/cross_memory.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace numacoll::exec {

namespace {

// A waiting process tests its pending receives every this many spins, and
// sleeps this long at most while some are pending.
constexpr int polls_between_tests = 64;
constexpr long sleep_with_receives_pending_ns = 20000;

std::size_t cache_lines(std::uint64_t bytes) { return (std::max<std::uint64_t>(bytes, 1) + 63) / 64 * 64; }

}  // namespace

SegmentPlan plan_node_segment(const sched::Schedule& schedule, int node) {
    if (schedule.rank_kind == sched::RankKind::thread)
        throw UsageError(fmt::format("ranks as MPI processes run a schedule whose ranks are {} or {}, and this one's "
                                     "are {}: make it with --ranks-as processes",
                                     sched::to_string(sched::RankKind::shared_process),
                                     sched::to_string(sched::RankKind::process),
                                     sched::to_string(sched::RankKind::thread)));
    SegmentPlan plan;
    std::vector<int> member_of(schedule.rank_count(), -1);
    for (int rank = 0; rank < schedule.rank_count(); ++rank)
        if (schedule.ranks[rank].node == node) {
            member_of[rank] = static_cast<int>(plan.members.size());
            plan.members.push_back(rank);
        }
    plan.portion_bytes.assign(plan.members.size(), 0);
    plan.buffers.assign(schedule.buffers().size(), {});
    plan.flags.assign(static_cast<std::size_t>(schedule.task_count()), {});
    const auto take = [&](int member, std::uint64_t bytes) {
        const SegmentPlan::Place place{member, plan.portion_bytes[member]};
        plan.portion_bytes[member] += cache_lines(bytes);
        return place;
    };
    // A small shared buffer that its owner fills with one copy and then
    // flags (a copy-in and its copy-in-ready flag) goes into that flag's
    // cache line, so that the reader gets the bytes with the flag; not one
    // that wants another NUMA node than its owner's portion.
    std::vector<int> filled_flag(schedule.buffers().size(), -1);  // per buffer: the flag that says it is filled
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& flag = schedule.task(id);
        if (flag.kind != sched::TaskKind::flag) continue;
        const std::vector<int> before = schedule.predecessors(id);
        if (before.size() != 1) continue;
        const sched::Task& fill = schedule.task(before[0]);
        const int b = fill.write.buffer;
        if (fill.kind == sched::TaskKind::copy && fill.thread == flag.thread && b >= 0 && filled_flag[b] < 0 &&
            schedule.buffer(b).shared && schedule.buffer(b).owner == flag.thread &&
            schedule.buffer(b).bytes <= flag_payload_bytes &&
            (schedule.buffer(b).numa < 0 || schedule.buffer(b).numa == schedule.ranks[flag.thread].numa))
            filled_flag[b] = id;
    }
    for (std::size_t b = 0; b < schedule.buffers().size(); ++b) {
        const sched::Buffer& buffer = schedule.buffers()[b];
        if (buffer.shared && member_of[buffer.owner] >= 0 && filled_flag[b] < 0)
            plan.buffers[b] = take(member_of[buffer.owner], buffer.bytes);
    }
    const auto node_of = [&](int rank) { return schedule.ranks[rank].node; };
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (node_of(task.thread) != node) continue;
        for (int dep : schedule.predecessors(id)) {
            const sched::Task& before = schedule.task(dep);
            if (before.thread == task.thread || plan.flags[dep].member >= 0) continue;
            const bool message = before.kind == sched::TaskKind::net;
            if (message && before.peer == task.thread) continue;  // its receiver completes it itself
            int raiser = -1;
            if (node_of(before.thread) == node)
                raiser = before.thread;  // a flag, or a message this node sends
            else if (message && node_of(before.peer) == node)
                raiser = before.peer;  // a message to this node, once landed
            if (raiser < 0)
                throw UsageError(fmt::format("task {} on node {} depends on task {} of node {}, which is not a "
                                             "message to node {}: only net tasks cross nodes",
                                             id, node, dep, node_of(before.thread), node));
            plan.flags[dep] = take(member_of[raiser], sizeof(SharedFlag));
        }
    }
    for (std::size_t b = 0; b < schedule.buffers().size(); ++b) {
        const sched::Buffer& buffer = schedule.buffers()[b];
        if (filled_flag[b] < 0 || member_of[buffer.owner] < 0) continue;
        const SegmentPlan::Place flag = plan.flags[filled_flag[b]];
        plan.buffers[b] = flag.member == member_of[buffer.owner]
                              ? SegmentPlan::Place{flag.member, flag.offset + flag_payload_offset}
                              : take(member_of[buffer.owner], buffer.bytes);  // nobody here waits for the flag
    }
    return plan;
}

ProcessTransport::ProcessTransport(const sched::Schedule& schedule, int rank, MPI_Comm comm,
                                   std::vector<SharedFlag*> flags, const Buffers& buffers)
    : schedule_(schedule), comm_(comm), flags_(std::move(flags)),
      incoming_of_(schedule.task_count(), -1), buffers_(buffers) {
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.kind != sched::TaskKind::net) continue;
        if (task.write.buffer >= 0 && task.write.bytes > static_cast<std::uint64_t>(INT_MAX))
            throw UsageError(fmt::format("net task {} moves {} bytes; one MPI message carries at most {}", id,
                                         task.write.bytes, INT_MAX));
        if (task.thread == rank) ++messages_out_;
        if (task.peer != rank) continue;
        incoming_of_[id] = static_cast<int>(incoming_.size());
        Incoming message;
        message.task = id;
        message.source = task.thread;
        if (task.write.buffer >= 0) {
            message.range = task.write;
            message.bytes = static_cast<int>(task.write.bytes);
        }
        incoming_.push_back(message);
    }
}

void ProcessTransport::pause(int& polls) const {
    if (++polls < SharedFlag::spin_limit) {
#if defined(__x86_64__)
        _mm_pause();
#endif
    } else {
        sched_yield();  // another process may need this core (more processes than cores)
    }
}

void ProcessTransport::land(Incoming& message, std::uint32_t iteration) {
    message.landed = true;
    --pending_;
    if (SharedFlag* flag = flags_[message.task]) {
        flag->publish(iteration);
        flag->wake();
    }
}

void ProcessTransport::poll_receives(std::uint32_t iteration) {
    for (Incoming& message : incoming_) {
        if (message.landed) continue;
        int done = 0;
        if (const int status = MPI_Test(&message.request, &done, MPI_STATUS_IGNORE); status != MPI_SUCCESS)
            throw Error(fmt::format("the receive of net task {} failed (MPI error {})", message.task, status));
        if (done) land(message, iteration);
    }
}

void ProcessTransport::complete(MPI_Request& request, std::uint32_t iteration, const char* what, int task) {
    for (int polls = 0;; pause(polls)) {
        int done = 0;
        if (const int status = MPI_Test(&request, &done, MPI_STATUS_IGNORE); status != MPI_SUCCESS)
            throw Error(fmt::format("{} of net task {} failed (MPI error {})", what, task, status));
        if (done) return;
        if (pending_ > 0) poll_receives(iteration);
    }
}

void ProcessTransport::wait(int task, std::uint32_t iteration) {
    if (const int k = incoming_of_[task]; k >= 0) {
        Incoming& message = incoming_[static_cast<std::size_t>(k)];
        if (message.landed) return;
        complete(message.request, iteration, "the receive", task);
        if (!message.landed) land(message, iteration);  // the polls meanwhile may have landed it
        return;
    }
    SharedFlag* flag = flags_[task];
    if (flag == nullptr) throw Error(fmt::format("task {} has no flag on this node to wait on", task));
    for (int spin = 0; !flag->reached(iteration); ++spin) {
        if (pending_ > 0 && spin % polls_between_tests == 0) poll_receives(iteration);
        if (spin < SharedFlag::spin_limit) {
#if defined(__x86_64__)
            _mm_pause();
#endif
        } else {
            flag->sleep_for(iteration, pending_ > 0 ? sleep_with_receives_pending_ns : 0);
        }
    }
}

bool ProcessTransport::ready(int task, std::uint32_t iteration) {
    if (const int k = incoming_of_[task]; k >= 0) {
        Incoming& message = incoming_[static_cast<std::size_t>(k)];
        if (!message.landed) poll_receives(iteration);
        return message.landed;
    }
    return flags_[task] != nullptr && flags_[task]->reached(iteration);
}

void ProcessTransport::transfer(int task, std::uint32_t iteration, const Buffers& buffers) {
    const sched::Task& net = schedule_.task(task);
    const bool data = net.write.buffer >= 0;
    MPI_Request request = MPI_REQUEST_NULL;
    const int status = MPI_Isend(data ? buffers.at(net.reads[0]) : nullptr, data ? static_cast<int>(net.write.bytes) : 0,
                                 MPI_BYTE, net.peer, 0, comm_, &request);
    if (status != MPI_SUCCESS) throw Error(fmt::format("MPI_Isend of net task {} failed (MPI error {})", task, status));
    complete(request, iteration, "the send", task);
    signal(task, iteration);
}

void ProcessTransport::copy_from_process(int task, const Buffers& buffers) {
    const sched::Task& copy = schedule_.task(task);
    const sched::Range& read = copy.reads[0];
    const ExposedBuffer source = read.buffer < static_cast<int>(exposed_.size()) ? exposed_[read.buffer] : ExposedBuffer{};
    if (source.process == 0)
        throw Error(fmt::format("task {} copies from buffer {}, which no process of this node exposes to this one", task,
                                read.buffer));
    if (!read_process_memory(source.process, source.address + read.offset, buffers.at(copy.write), copy.write.bytes))
        throw Error(fmt::format("task {}: process_vm_readv from process {} failed: {}", task, source.process,
                                std::strerror(errno)));
}

void ProcessTransport::finish(int, std::uint32_t iteration) {
    for (Incoming& message : incoming_)
        if (!message.landed) {
            complete(message.request, iteration, "the receive", message.task);
            if (!message.landed) land(message, iteration);
        }
}

void ProcessTransport::meet(std::uint32_t iteration) {
    post_receives(iteration, buffers_);
    if (const int status = MPI_Barrier(comm_); status != MPI_SUCCESS)
        throw Error(fmt::format("the MPI barrier before an iteration failed (MPI error {})", status));
}

void ProcessTransport::post_receives(std::uint32_t, const Buffers& buffers) {
    for (Incoming& message : incoming_) {
        message.into = message.range.buffer >= 0 ? buffers.at(message.range) : nullptr;
        const int status =
            MPI_Irecv(message.into, message.bytes, MPI_BYTE, message.source, 0, comm_, &message.request);
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("MPI_Irecv for net task {} failed (MPI error {})", message.task, status));
        message.landed = false;
    }
    pending_ = static_cast<int>(incoming_.size());
}

}  // namespace numacoll::exec

#include "exec/mpi_transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <thread>

#include "common/error.hpp"

namespace numacoll::exec {

MpiTransport::MpiTransport(const sched::Schedule& schedule, int node, const MpiWorld& world, const Buffers& buffers)
    : schedule_(schedule), comm_(world.comm()), serialise_(!world.thread_multiple()),
      slot_(schedule.task_count(), -1), incoming_of_(schedule.task_count(), -1), tag_of_(schedule.task_count(), -1) {
    // A thread's index on its node: its rank's position among the node's ranks.
    std::vector<int> index_on_node(schedule.rank_count(), 0);
    std::vector<int> ranks_seen(schedule.nodes, 0);
    for (int rank = 0; rank < schedule.rank_count(); ++rank)
        index_on_node[rank] = ranks_seen[schedule.ranks[rank].node]++;
    auto node_of = [&](int task) { return schedule.ranks[schedule.task(task).thread].node; };

    int flags = 0;
    std::vector<int> incoming_tasks;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        const bool here = node_of(id) == node;
        if (task.kind == sched::TaskKind::flag && here) slot_[id] = flags++;
        if (task.kind != sched::TaskKind::net) continue;
        if (task.write.buffer >= 0 && task.write.bytes > static_cast<std::uint64_t>(INT_MAX))
            throw UsageError(fmt::format("net task {} moves {} bytes; one MPI message carries at most {}", id,
                                         task.write.bytes, INT_MAX));
        if (here) {
            slot_[id] = flags++;
            tag_of_[id] = index_on_node[task.thread];
            ++outgoing_count_;
        } else if (schedule.ranks[task.peer].node == node) {
            slot_[id] = flags++;
            incoming_of_[id] = static_cast<int>(incoming_tasks.size());
            incoming_tasks.push_back(id);
        }
    }
    // What this node's threads wait for is theirs, or a message to this node.
    for (int id = 0; id < schedule.task_count(); ++id) {
        if (node_of(id) != node) continue;
        for (int dep : schedule.predecessors(id))
            if (node_of(dep) != node && incoming_of_[dep] < 0)
                throw UsageError(fmt::format("task {} on node {} depends on task {} of node {}, which is not a message "
                                             "to node {}: only net tasks cross nodes",
                                             id, node, dep, node_of(dep), node));
    }
    incoming_count_ = incoming_tasks.size();
    incoming_ = std::make_unique<Incoming[]>(std::max<std::size_t>(incoming_count_, 1));
    for (std::size_t k = 0; k < incoming_count_; ++k) {
        const int id = incoming_tasks[k];
        const sched::Task& task = schedule.task(id);
        Incoming& message = incoming_[k];
        message.task = id;
        message.source = node_of(id);
        message.tag = index_on_node[task.thread];
        message.receiver = task.peer;
        if (task.write.buffer >= 0) {
            message.into = buffers.at(task.write);
            message.bytes = static_cast<int>(task.write.bytes);
        }
    }
    flags_ = std::make_unique<Flag[]>(static_cast<std::size_t>(std::max(flags, 1)));
}

void MpiTransport::post_receives(std::uint32_t) {
    std::unique_lock lock(mpi_lock_, std::defer_lock);
    if (serialise_) lock.lock();
    for (std::size_t k = 0; k < incoming_count_; ++k) {
        Incoming& message = incoming_[k];
        const int status =
            MPI_Irecv(message.into, message.bytes, MPI_BYTE, message.source, message.tag, comm_, &message.request);
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("MPI_Irecv for net task {} failed (MPI error {})", message.task, status));
    }
}

void MpiTransport::complete(MPI_Request& request, const char* what, int task) {
    for (long polls = 0;; ++polls) {
        int done = 0;
        int status = MPI_SUCCESS;
        {
            std::unique_lock lock(mpi_lock_, std::defer_lock);
            if (serialise_) lock.lock();
            status = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        }
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("{} of net task {} failed (MPI error {})", what, task, status));
        if (done) return;
        if (polls >= Flag::spin_limit) std::this_thread::yield();  // another process may need this core
    }
}

void MpiTransport::arrive(Incoming& message, std::uint32_t iteration) {
    std::uint32_t claimed = message.claimed.load(std::memory_order_acquire);
    while (claimed < iteration) {
        if (message.claimed.compare_exchange_weak(claimed, iteration, std::memory_order_acq_rel)) {
            complete(message.request, "the receive", message.task);
            Flag& flag = flags_[slot_[message.task]];
            flag.publish(iteration);
            flag.wake();
            return;
        }
    }
    flags_[slot_[message.task]].wait_for(iteration);  // another thread of this node completes it
}

void MpiTransport::wait(int task, std::uint32_t iteration) {
    if (const int k = incoming_of_[task]; k >= 0)
        arrive(incoming_[k], iteration);
    else
        flags_[slot_[task]].wait_for(iteration);
}

void MpiTransport::transfer(int task, std::uint32_t iteration, const Buffers& buffers) {
    const sched::Task& net = schedule_.task(task);
    const int destination = schedule_.ranks[net.peer].node;
    const bool data = net.write.buffer >= 0;
    MPI_Request request = MPI_REQUEST_NULL;
    {
        std::unique_lock lock(mpi_lock_, std::defer_lock);
        if (serialise_) lock.lock();
        const int status = MPI_Isend(data ? buffers.at(net.reads[0]) : nullptr, data ? static_cast<int>(net.write.bytes) : 0,
                                     MPI_BYTE, destination, tag_of_[task], comm_, &request);
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("MPI_Isend of net task {} failed (MPI error {})", task, status));
    }
    complete(request, "the send", task);
    flags_[slot_[task]].publish(iteration);  // the runner wakes its waiters
}

void MpiTransport::finish(int rank, std::uint32_t iteration) {
    for (std::size_t k = 0; k < incoming_count_; ++k)
        if (incoming_[k].receiver == rank) arrive(incoming_[k], iteration);
}

}  // namespace numacoll::exec

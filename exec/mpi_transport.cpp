#include "exec/mpi_transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <thread>

#include "common/error.hpp"

namespace numacoll::exec {

namespace {

// A rank's thread waiting for the communication thread spins briefly, then
// sleeps: the two may share a core, and a long spin (Flag::spin_limit pauses
// are about 100 us here) would hold the core the communication thread needs.
constexpr int funnel_spins = 64;

}  // namespace

MpiTransport::MpiTransport(const sched::Schedule& schedule, int node, const MpiWorld& world, const Buffers& buffers)
    : schedule_(schedule), buffers_(buffers), comm_(world.comm()), funnel_(!world.thread_multiple()),
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
    deferred_sends_ = schedule.has_application_tasks();
    if (deferred_sends_) {
        if (funnel_)
            throw UsageError(fmt::format("computation around the collective needs MPI_THREAD_MULTIPLE (each rank makes "
                                         "its own MPI calls), and this MPI library gives {}",
                                         world.thread_level_name()));
        send_requests_.assign(static_cast<std::size_t>(schedule.task_count()), MPI_REQUEST_NULL);
    }
}

bool MpiTransport::ready(int task, std::uint32_t iteration) {
    Flag& flag = flags_[slot_[task]];
    if (flag.reached(iteration)) return true;
    if (funnel_) return false;
    if (const int k = incoming_of_[task]; k >= 0) {
        Incoming& message = incoming_[k];
        std::uint32_t claimed = message.claimed.load(std::memory_order_acquire);
        if (claimed >= iteration || !message.claimed.compare_exchange_strong(claimed, iteration, std::memory_order_acq_rel))
            return flag.reached(iteration);  // another thread is completing it
        int done = 0;
        if (const int status = MPI_Test(&message.request, &done, MPI_STATUS_IGNORE); status != MPI_SUCCESS)
            throw Error(fmt::format("the receive of net task {} failed (MPI error {})", task, status));
        if (done) {
            raise(task, iteration);
            return true;
        }
        message.claimed.store(claimed, std::memory_order_release);  // give it back: arrive() may take it
        return false;
    }
    if (deferred_sends_ && tag_of_[task] >= 0) return test_send(task, iteration);
    return false;
}

void MpiTransport::complete_send(int task, std::uint32_t iteration) {
    if (flags_[slot_[task]].reached(iteration)) return;
    complete(send_requests_[task], "the send", task);
    raise(task, iteration);
}

bool MpiTransport::test_send(int task, std::uint32_t iteration) {
    if (flags_[slot_[task]].reached(iteration)) return true;
    int done = 0;
    if (const int status = MPI_Test(&send_requests_[task], &done, MPI_STATUS_IGNORE); status != MPI_SUCCESS)
        throw Error(fmt::format("the send of net task {} failed (MPI error {})", task, status));
    if (done) raise(task, iteration);
    return done != 0;
}

void MpiTransport::post_receives() {
    for (std::size_t k = 0; k < incoming_count_; ++k) {
        Incoming& message = incoming_[k];
        const int status =
            MPI_Irecv(message.into, message.bytes, MPI_BYTE, message.source, message.tag, comm_, &message.request);
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("MPI_Irecv for net task {} failed (MPI error {})", message.task, status));
    }
}

void MpiTransport::isend(int task, MPI_Request& request) {
    const sched::Task& net = schedule_.task(task);
    const bool data = net.write.buffer >= 0;
    const int status = MPI_Isend(data ? buffers_.at(net.reads[0]) : nullptr, data ? static_cast<int>(net.write.bytes) : 0,
                                 MPI_BYTE, schedule_.ranks[net.peer].node, tag_of_[task], comm_, &request);
    if (status != MPI_SUCCESS) throw Error(fmt::format("MPI_Isend of net task {} failed (MPI error {})", task, status));
}

void MpiTransport::raise(int task, std::uint32_t iteration) {
    Flag& flag = flags_[slot_[task]];
    flag.publish(iteration);
    flag.wake();
}

void MpiTransport::meet(std::uint32_t iteration) {
    if (funnel_) {
        hand_over({Order::Kind::meet, -1, iteration});
        met_.wait_for(iteration, funnel_spins);
        return;
    }
    post_receives();
    if (const int status = MPI_Barrier(comm_); status != MPI_SUCCESS)
        throw Error(fmt::format("MPI_Barrier at the meeting failed (MPI error {})", status));
}

void MpiTransport::complete(MPI_Request& request, const char* what, int task) {
    for (long polls = 0;; ++polls) {
        int done = 0;
        const int status = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
        if (status != MPI_SUCCESS)
            throw Error(fmt::format("{} of net task {} failed (MPI error {})", what, task, status));
        if (done) return;
        if (polls >= Flag::spin_limit) std::this_thread::yield();  // another process may need this core
    }
}

void MpiTransport::arrive(Incoming& message, std::uint32_t iteration) {
    if (funnel_) {  // the communication thread completes every receive
        flags_[slot_[message.task]].wait_for(iteration, funnel_spins);
        return;
    }
    Flag& flag = flags_[slot_[message.task]];
    if (!deferred_sends_) {
        std::uint32_t claimed = message.claimed.load(std::memory_order_acquire);
        while (claimed < iteration) {
            if (message.claimed.compare_exchange_weak(claimed, iteration, std::memory_order_acq_rel)) {
                complete(message.request, "the receive", message.task);
                raise(message.task, iteration);
                return;
            }
        }
        flag.wait_for(iteration);  // another thread of this node completes it
        return;
    }
    // With computation around the collective, ready() may take the receive
    // for one test and give it back: take it whenever it is free.
    for (long polls = 0; !flag.reached(iteration); ++polls) {
        std::uint32_t claimed = message.claimed.load(std::memory_order_acquire);
        if (claimed < iteration && message.claimed.compare_exchange_strong(claimed, iteration, std::memory_order_acq_rel)) {
            complete(message.request, "the receive", message.task);
            raise(message.task, iteration);
            return;
        }
        if (polls >= Flag::spin_limit) std::this_thread::yield();
    }
}

void MpiTransport::wait(int task, std::uint32_t iteration) {
    if (const int k = incoming_of_[task]; k >= 0)
        arrive(incoming_[k], iteration);
    else if (deferred_sends_ && tag_of_[task] >= 0)
        complete_send(task, iteration);
    else
        flags_[slot_[task]].wait_for(iteration);
}

void MpiTransport::transfer(int task, std::uint32_t iteration, const Buffers&) {
    if (funnel_) {
        hand_over({Order::Kind::send, task, iteration});
        flags_[slot_[task]].wait_for(iteration, funnel_spins);  // raised once the send completed
        return;
    }
    if (deferred_sends_) {
        isend(task, send_requests_[task]);  // completed later: in a progress call, a dependent task, or finish()
        return;
    }
    MPI_Request request = MPI_REQUEST_NULL;
    isend(task, request);
    complete(request, "the send", task);
    flags_[slot_[task]].publish(iteration);  // the runner wakes its waiters
}

void MpiTransport::finish(int rank, std::uint32_t iteration) {
    for (std::size_t k = 0; k < incoming_count_; ++k)
        if (incoming_[k].receiver == rank) arrive(incoming_[k], iteration);
    if (deferred_sends_)
        for (int id = 0; id < schedule_.task_count(); ++id)
            if (tag_of_[id] >= 0 && schedule_.task(id).thread == rank) complete_send(id, iteration);
}

void MpiTransport::hand_over(Order order) {
    {
        std::lock_guard lock(orders_lock_);
        orders_.push_back(order);
        orders_waiting_.store(true, std::memory_order_release);
    }
    doorbell_.fetch_add(1, std::memory_order_release);
    doorbell_.notify_one();
}

void MpiTransport::stop() {
    stopping_.store(true, std::memory_order_release);
    doorbell_.fetch_add(1, std::memory_order_release);
    doorbell_.notify_one();
}

void MpiTransport::communicate() {
    std::vector<MPI_Request> requests;
    std::vector<std::pair<int, std::uint32_t>> owners;  // per request: its task and iteration
    std::vector<Order> taken;
    std::vector<int> done_indices;
    for (long idle = 0;;) {
        const std::uint32_t rung = doorbell_.load(std::memory_order_acquire);
        taken.clear();
        if (orders_waiting_.load(std::memory_order_acquire)) {
            std::lock_guard lock(orders_lock_);
            taken.swap(orders_);
            orders_waiting_.store(false, std::memory_order_relaxed);
        }
        for (const Order& order : taken) {
            if (order.kind == Order::Kind::meet) {
                for (std::size_t k = 0; k < incoming_count_; ++k) {
                    Incoming& message = incoming_[k];
                    requests.emplace_back(MPI_REQUEST_NULL);
                    owners.emplace_back(message.task, order.iteration);
                    const int status = MPI_Irecv(message.into, message.bytes, MPI_BYTE, message.source, message.tag,
                                                 comm_, &requests.back());
                    if (status != MPI_SUCCESS)
                        throw Error(fmt::format("MPI_Irecv for net task {} failed (MPI error {})", message.task, status));
                }
                if (const int status = MPI_Barrier(comm_); status != MPI_SUCCESS)
                    throw Error(fmt::format("MPI_Barrier at the meeting failed (MPI error {})", status));
                met_.publish(order.iteration);
                met_.wake();
            } else {
                requests.emplace_back(MPI_REQUEST_NULL);
                owners.emplace_back(order.task, order.iteration);
                isend(order.task, requests.back());
            }
        }
        if (!requests.empty()) {
            int count = 0;
            done_indices.resize(requests.size());
            const int status = MPI_Testsome(static_cast<int>(requests.size()), requests.data(), &count,
                                            done_indices.data(), MPI_STATUSES_IGNORE);
            if (status != MPI_SUCCESS) throw Error(fmt::format("MPI_Testsome failed (MPI error {})", status));
            if (count > 0 && count != MPI_UNDEFINED) {
                for (int i = 0; i < count; ++i) raise(owners[done_indices[i]].first, owners[done_indices[i]].second);
                // Completed requests are MPI_REQUEST_NULL now: keep the others, in order.
                std::size_t kept = 0;
                for (std::size_t r = 0; r < requests.size(); ++r)
                    if (requests[r] != MPI_REQUEST_NULL) requests[kept] = requests[r], owners[kept++] = owners[r];
                requests.resize(kept), owners.resize(kept);
                idle = 0;
                continue;
            }
        }
        if (!taken.empty()) {
            idle = 0;
            continue;
        }
        if (requests.empty() && stopping_.load(std::memory_order_acquire)) return;
        if (++idle < Flag::spin_limit) continue;
        if (requests.empty())
            doorbell_.wait(rung, std::memory_order_acquire);  // nothing in flight: sleep until an order comes
        else
            std::this_thread::yield();  // the ranks' threads may need this core
    }
}

}  // namespace numacoll::exec

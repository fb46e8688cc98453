// exec::MpiTransport: the transport of one node's threads when each node is
// an MPI process (exec/mpi_executor.hpp). Inside the node it works as the
// thread transport does (flags in shared memory); a net task becomes one MPI
// message from its sender's process to its receiver's.
//
// Matching: MPI guarantees that messages with the same source, tag and
// communicator are received in the order they were sent, and tags beyond
// 32767 may not exist. The tag of a message is its sending thread's index on
// its node; that thread sends in program order (task id order), and the
// receiving process posts its receives in task id order too, so the n-th
// message from one thread to one node lands in the n-th receive posted for
// it, whatever the other threads do. Task ids never travel.
//
// Every receive of an iteration is posted at the meeting before it (outside
// the timed region, after every process has prepared its buffers), so a
// send never waits for its receive to be posted. A sender completes its send
// before its next task (the source range may be reused) and raises the
// task's flag for the threads of its own node that wait for it.
//
// With computation around the collective (application tasks) every thread
// calls MPI (MPI_THREAD_MULTIPLE is required): a send returns once posted
// and completes later, in a progress call that tests it, when a task of the
// sender depends on it, or at the end of the rank's iteration.
//
// Who calls MPI:
// - with MPI_THREAD_MULTIPLE, every thread: the first thread of the node
//   that needs a message completes its receive (MPI progresses all of a
//   process's requests then) and raises the message's flag; the others wait
//   on the flag; the receiving rank's thread completes what nobody waited
//   for before its iteration ends. Waiting polls MPI_Test, yielding the core
//   after Flag::spin_limit polls so that oversubscribed runs progress.
// - otherwise, one communication thread, the process's main thread (which
//   MPI_THREAD_FUNNELED allows): the ranks' threads hand it their sends and
//   the meeting, it posts, polls and completes every request, and raises the
//   flags the ranks' threads wait on (communicate() runs it). It sleeps when
//   it has nothing in flight, and polls otherwise: it needs a core of its
//   own, or it takes turns with the ranks' threads at the scheduler's pace.
#pragma once

#include <mpi.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/flag.hpp"
#include "exec/mpi_world.hpp"
#include "exec/transport.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::exec {

class MpiTransport final : public Transport {
public:
    // This process runs `node` of the schedule. UsageError for a schedule this
    // node cannot run: a dependency on another node's task that is not a
    // message to this node, or a message over 2^31 - 1 bytes.
    MpiTransport(const sched::Schedule& schedule, int node, const MpiWorld& world, const Buffers& buffers);

    void signal(int task, std::uint32_t iteration) override { flags_[slot_[task]].publish(iteration); }
    void wake(int task) override { flags_[slot_[task]].wake(); }
    void wait(int task, std::uint32_t iteration) override;
    // Never blocks: a message to this node counts once its receive completed
    // (tested once here when no other thread is completing it), a send of
    // this node once it completed (tested once, with computation around the
    // collective), anything else once raised.
    bool ready(int task, std::uint32_t iteration) override;
    void transfer(int task, std::uint32_t iteration, const Buffers& buffers) override;
    void finish(int rank, std::uint32_t iteration) override;

    // At the meeting before `iteration` (one thread): posts its receives and
    // passes an MPI barrier with the other processes.
    void meet(std::uint32_t iteration);

    // Whether MPI is called by one communication thread (no MPI_THREAD_MULTIPLE).
    bool communication_thread() const { return funnel_; }
    // The communication thread's loop, on the main thread, while the ranks'
    // threads run; returns once stop() was called and nothing is pending.
    void communicate();
    void stop();

    int messages_in() const { return static_cast<int>(incoming_count_); }
    int messages_out() const { return outgoing_count_; }

private:
    struct Incoming {
        int task = 0;
        int source = 0;  // sending process (node)
        int tag = 0;     // sending thread's index on its node
        int receiver = 0;  // receiving rank
        std::byte* into = nullptr;
        int bytes = 0;
        MPI_Request request = MPI_REQUEST_NULL;
        std::atomic<std::uint32_t> claimed{0};  // the last iteration a thread took it on
    };
    // What a rank's thread asks the communication thread to do.
    struct Order {
        enum class Kind { send, meet } kind = Kind::send;
        int task = -1;
        std::uint32_t iteration = 0;
    };

    // A send of this node's, deferred (computation around the collective):
    // completed here, or tested once.
    void complete_send(int task, std::uint32_t iteration);
    bool test_send(int task, std::uint32_t iteration);
    void post_receives();
    void isend(int task, MPI_Request& request);
    // Until `request` completes, polling (and yielding when it takes long).
    void complete(MPI_Request& request, const char* what, int task);
    // Incoming message `message` has landed for `iteration`: complete it, or wait for the thread that does.
    void arrive(Incoming& message, std::uint32_t iteration);
    void hand_over(Order order);  // to the communication thread, and wait until it is done
    void raise(int task, std::uint32_t iteration);

    const sched::Schedule& schedule_;
    const Buffers& buffers_;
    MPI_Comm comm_;
    bool funnel_ = false;
    std::vector<int> slot_;           // per task: its flag, -1 for tasks nobody here waits on
    std::vector<int> incoming_of_;    // per task: its index in incoming_, -1 if not a message to this node
    std::vector<int> tag_of_;         // per task sent from this node: its tag
    std::unique_ptr<Incoming[]> incoming_;
    std::size_t incoming_count_ = 0;
    int outgoing_count_ = 0;
    std::unique_ptr<Flag[]> flags_;
    // With computation around the collective a send returns once posted, as
    // MPI_Isend does, and completes in a later progress call or in wait():
    // a rank whose MPI calls all sit in its progress calls gets the progress
    // the library gives such a program (Cardellini et al., section 4).
    bool deferred_sends_ = false;
    std::vector<MPI_Request> send_requests_;  // per task sent from this node (deferred sends)
    // The communication thread's orders, and the meetings it has held.
    std::mutex orders_lock_;
    std::vector<Order> orders_;
    std::atomic<bool> orders_waiting_{false};
    std::atomic<bool> stopping_{false};
    // Rung by every order and by stop(): an idle communication thread sleeps
    // on it instead of taking a core from the ranks' threads.
    std::atomic<std::uint32_t> doorbell_{0};
    Flag met_;
};

}  // namespace numacoll::exec

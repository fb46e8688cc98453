// sim::ProgressStrategy: who moves a nonblocking collective forward while
// its ranks compute (Cardellini, Fanfarillo, Filippone, section 4), and how
// the engine charges it. It matters only for schedules with computation
// around the collective (application tasks: overlap/compose.hpp); a
// collective alone runs as before under every strategy.
//
// What needs a rank's progress engine (Step::progress_of, set by plan_tasks):
// - the steps a rank's own processor performs for the collective: its
//   copies and reductions, its waits, the send overhead of its messages, the
//   spin loop that notices a flag, the receive overhead of a message to it;
// - a rendezvous message (payload above the params' network eager limit):
//   its request reaches the receiver (a message of no payload), and its data
//   moves only once the receiver's progress engine has answered (the
//   receiver's NIC then reads the data: RDMA get, no further step of the sender).
// An eager message moves as soon as it is sent; only its receive overhead
// waits for the receiver.
//
// When the progress engine runs:
// - manual: only inside the application's progress calls (Task::application
//   waits): the issue, each MPI_Test, the final MPI_Wait. A call returns when
//   nothing of the rank's share is ready or running on its processor;
// - thread: a progress thread on a spare core, always: nothing waits, and
//   the computation keeps its core;
// - shared-thread: a polling progress thread on the rank's own core: nothing
//   waits, but until the rank's share of the collective ends the core is
//   shared by two runnable threads (the computation runs at half speed; the
//   collective's work shares the core with the computation);
// - offload: the NIC runs the network protocol (handshakes, receive
//   overheads) by itself; what a rank's processor does still needs its
//   progress calls, as under manual.
#pragma once

#include <string>

namespace numacoll::sim {

enum class ProgressStrategy { manual, thread, shared_thread, offload };

const char* to_string(ProgressStrategy strategy);
// "manual", "thread", "shared-thread", "offload"; UsageError otherwise.
ProgressStrategy parse_progress_strategy(const std::string& text);

}  // namespace numacoll::sim

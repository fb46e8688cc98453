// interpose::ServedCollective: one schedule in process form, made ready to
// serve an application's collective call again and again: its node's
// segment mapped, its flags made, its program built, so that a call only
// points the schedule's private input and output at the application's own
// buffers and runs this rank's tasks (exec/program_runner.hpp) over the
// process transport (exec/process_transport.hpp).
//
// Between calls nothing synchronises the processes: a process that is done
// may start the next call while others still read what it wrote in the last
// one. So the segment holds `depth` copies of the schedule's shared buffers
// and flags, used in turn (call c uses copy c mod depth), and every process
// raises a done counter in its own line of the segment when it finishes a
// call. Before call c a process waits until every process of its node that
// touches a shared buffer this process writes has finished call c - depth,
// the last that used the same copy: no write lands in bytes that another
// process may still read or write for an earlier call. Flags are generation
// counters numbered by call, so they are never reset. A process reads another's
// done counter only when the value it saw last is too old, which with
// depth d is one call in d - 1 (d: 16 for segments of a few lines per
// process, 4 up to 64 KiB, 2 above).
//
// Single copy (a schedule with exposed buffers: sched::process_form's
// option): a rank reads an exposed input straight from its owner's memory
// (process_vm_readv), at an address that is the application's and may
// change at every call. So the owner writes its process id and the
// address into a line of its own in the segment at the start of each call
// and raises that line's counter; a reader waits for it before its first
// task. The schedule itself holds the owner in the call until every reader
// is done reading.
//
// Invariants: every process of the communicator makes the same
// ServedCollectives in the same order (they are collective: the segment is
// one MPI window over the node), and serves them in the same order.
// Destruction frees the window, collectively, on the normal path only.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "exec/buffers.hpp"
#include "exec/memory_binding.hpp"
#include "exec/node_segment.hpp"
#include "exec/process_transport.hpp"
#include "exec/program_runner.hpp"
#include "exec/programs.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::interpose {

// Where this process stands among the communicator's: its schedule rank
// (`ranks` is a communicator ordered by schedule rank), and its node's
// communicator (ordered alike).
struct ProcessPlace {
    int rank = 0;
    MPI_Comm ranks = MPI_COMM_NULL;
    MPI_Comm node = MPI_COMM_NULL;
};

class ServedCollective {
public:
    // Collective over the node. UsageError for a schedule the process
    // transport cannot run.
    ServedCollective(sched::Schedule schedule, const ProcessPlace& place, exec::MemoryBinding& binding);
    ~ServedCollective();
    ServedCollective(const ServedCollective&) = delete;
    ServedCollective& operator=(const ServedCollective&) = delete;

    // Runs this rank's part of one call: `input` and `output` are this
    // rank's (null where the collective gives it none). Error when a task
    // or a message fails.
    void serve(const void* input, void* output);

    const sched::Schedule& schedule() const { return schedule_; }
    // The segment this process maps for it, all copies (for the cache's bound).
    std::size_t segment_bytes() const { return segment_bytes_; }
    // Whether this rank's input may be its output (MPI_IN_PLACE): every
    // task of its program that reads the input comes before the first that
    // writes the output.
    bool input_may_be_output() const { return input_may_be_output_; }

private:
    struct Copy;  // one copy of the shared buffers and flags, with its runner

    void wait_until_copy_is_free(std::uint32_t call);
    // Single copy: says where this rank's exposed inputs lie for `call`, and
    // learns where the others' it reads lie.
    void exchange_exposed_addresses(std::uint32_t call, const void* input);

    struct ExposedLine {  // an owner's line that says where an exposed buffer lies, one per copy
        int buffer = -1;
        std::vector<exec::SharedFlag*> per_copy;
    };

    sched::Schedule schedule_;
    int rank_ = 0;
    int depth_ = 1;
    std::size_t segment_bytes_ = 0;
    bool input_may_be_output_ = false;
    int input_buffer_ = -1, output_buffer_ = -1;
    std::optional<exec::NodeSegment> segment_;
    std::vector<std::shared_ptr<std::byte>> private_memory_;  // per buffer: this rank's private temporaries
    std::vector<exec::ThreadProgram> programs_;                // this rank's
    std::vector<std::unique_ptr<Copy>> copies_;
    exec::SharedFlag* done_ = nullptr;                         // this process's done counter
    std::vector<exec::SharedFlag*> guards_;                    // the done counters it waits on
    std::vector<std::uint32_t> guards_seen_;                   // their values when last read
    std::uint32_t calls_ = 0;
    std::vector<ExposedLine> exposed_mine_;  // this rank's exposed inputs
    std::vector<ExposedLine> exposed_read_;  // the others' that it reads
};

}  // namespace numacoll::interpose

// exec::MpiWorld: this process's place in an MPI job, for the engine that
// runs one process per node (exec/mpi_executor.hpp) and for the commands that
// start it. The engine asks for MPI_THREAD_MULTIPLE (every thread sends and
// receives on its own; with less, the main thread calls MPI for all of them:
// exec/mpi_transport.hpp). A process of one thread asks for
// MPI_THREAD_SINGLE: Open MPI 4.1 makes an 8-byte MPI_Allreduce about 80 ns
// slower under any higher level (bench/mpi_allreduce.c initialised both
// ways, medians of 10 interleaved runs), which a baseline must not pay.
//
// Failures must not leave processes hanging: a check that every process
// makes alike ends every process with its code (agree), and anything else
// that goes wrong on one process ends the job (abort, MPI_Abort).
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace numacoll::exec {

// Another process failed and said why on its own stderr: this one exits with
// the code all agreed on and adds no line of its own.
class PeerFailure : public Error {
public:
    explicit PeerFailure(int exit_code) : Error("another process failed"), exit_code(exit_code) {}
    int exit_code;
};

class MpiWorld {
public:
    // MPI_Init_thread asking for `required`. Call once per process;
    // MPI_Finalize in the destructor.
    MpiWorld(int* argc, char*** argv, int required = MPI_THREAD_MULTIPLE);
    ~MpiWorld();
    MpiWorld(const MpiWorld&) = delete;
    MpiWorld& operator=(const MpiWorld&) = delete;

    // Whether MPI was initialised in this process (finalised or not).
    static bool started();
    // Whether a launcher (mpirun, srun, hydra) started this process: checked
    // before MPI_Init, from the environment those launchers set.
    static bool launched_by_mpirun();
    // This process's rank as the launcher set it in the environment, before
    // MPI_Init (-1 without a launcher): a check that fails alike on every
    // process before MPI starts is reported by rank 0 only.
    static int launcher_rank();

    // The first `count` processes of this world as a world of their own
    // (MPI_Comm_split; collective): null on the others. Its calls are on its
    // own communicator; MPI_Finalize stays with the world that started MPI.
    std::unique_ptr<MpiWorld> first_processes(int count) const;

    int rank() const { return rank_; }
    int size() const { return size_; }
    MPI_Comm comm() const { return comm_; }
    bool thread_multiple() const { return thread_level_ == MPI_THREAD_MULTIPLE; }
    // "MPI_THREAD_MULTIPLE", "MPI_THREAD_SERIALIZED", ...
    std::string thread_level_name() const;
    // The library's own first line: "Open MPI v4.1.4, package: Debian OpenMPI, ..."
    const std::string& library() const { return library_; }
    // How many processes of the job share this process's host (its memory).
    int processes_on_this_host() const { return host_processes_; }
    // This process's place among them (0 .. processes_on_this_host() - 1).
    int index_on_this_host() const { return host_index_; }
    // For result files: "Open MPI v4.1.4; MPI_THREAD_MULTIPLE; 4 processes"
    // (below MULTIPLE: "...; MPI_THREAD_FUNNELED (a communication thread); ...").
    std::string describe() const;

    // Every process says how it fared (0, or the exit code it wants); every
    // process learns the largest code and the lowest process that gave it.
    // Waiting sleeps between polls: the others may be measuring.
    struct Agreement {
        int code = 0;
        int first_failing_process = -1;
    };
    Agreement agree(int code) const;

    // Ends every process of the job with `code`, after this one's line on stderr.
    [[noreturn]] void abort(const std::string& line, int code) const;

    // Element by element, over all processes (every process gets the result).
    std::vector<double> max_over_processes(const std::vector<double>& values) const;
    std::vector<double> sum_over_processes(const std::vector<double>& values) const;
    // Whether `value` is true on every process.
    bool true_everywhere(bool value) const { return max_over_processes({value ? 0.0 : 1.0})[0] == 0; }
    // Whether `value` is the same on every process.
    bool same_everywhere(unsigned long long value) const;
    // Process 0's `text`, on every process.
    std::string text_of_process_zero(const std::string& text) const;
    // The smallest `value` over all processes, and the lowest process that has it.
    std::pair<int, int> smallest_with_process(int value) const;
    // Every process's `value`, in process order, on every process.
    std::vector<int> gather_everywhere(int value) const;
    void barrier() const;

private:
    MpiWorld(const MpiWorld& parent, MPI_Comm comm);
    void count_host_processes();

    MPI_Comm comm_ = MPI_COMM_WORLD;
    bool owns_mpi_ = true;  // MPI_Init here, MPI_Finalize in the destructor
    int rank_ = 0;
    int size_ = 1;
    int thread_level_ = MPI_THREAD_SINGLE;
    int host_processes_ = 1;
    int host_index_ = 0;
    std::string library_;
};

}  // namespace numacoll::exec

#include "exec/mpi_world.hpp"

#include <fmt/format.h>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <thread>

#include "common/error.hpp"

namespace numacoll::exec {

namespace {

void check(int status, const char* what) {
    if (status != MPI_SUCCESS) throw Error(fmt::format("{} failed (MPI error {})", what, status));
}

int terminating_process = 0;

// An exception that leaves a thread (a failed MPI call in a rank's thread)
// ends the whole job: the other processes would otherwise wait for this
// one's messages forever.
[[noreturn]] void abort_job() {
    std::string what = "an unexpected error";
    if (const std::exception_ptr current = std::current_exception()) {
        try {
            std::rethrow_exception(current);
        } catch (const std::exception& error) {
            what = error.what();
        } catch (...) {
        }
    }
    std::fprintf(stderr, "numacoll: node %d: %s\n", terminating_process, what.c_str());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);
}

}  // namespace

MpiWorld::MpiWorld(int* argc, char*** argv, int required) {
    // SimGrid's library defines MPI_* as well (SMPI): in a binary that links
    // both, the MPI library must come first, or MPI_Init would start SMPI.
    Dl_info provider{};
    if (dladdr(reinterpret_cast<void*>(&MPI_Init_thread), &provider) && provider.dli_fname &&
        std::string(provider.dli_fname).find("simgrid") != std::string::npos)
        throw Error(fmt::format("MPI_Init_thread resolves to {} (SimGrid's SMPI), not to the MPI library: link the "
                                "MPI library before SimGrid",
                                provider.dli_fname));
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (initialised) throw Error("MPI is already initialised in this process");
    check(MPI_Init_thread(argc, argv, required, &thread_level_), "MPI_Init_thread");
    // Errors come back as codes (and become exceptions) instead of ending the process silently.
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    terminating_process = rank_;
    std::set_terminate(abort_job);
    char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(library, &length);
    library_.assign(library, static_cast<std::size_t>(length));
    if (auto end = library_.find_first_of("\r\n"); end != std::string::npos) library_.resize(end);
    count_host_processes();
}

MpiWorld::MpiWorld(const MpiWorld& parent, MPI_Comm comm)
    : comm_(comm), owns_mpi_(false), thread_level_(parent.thread_level_), library_(parent.library_) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    count_host_processes();
}

void MpiWorld::count_host_processes() {
    MPI_Comm host;
    check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
    MPI_Comm_size(host, &host_processes_);
    MPI_Comm_rank(host, &host_index_);
    MPI_Comm_free(&host);
}

MpiWorld::~MpiWorld() {
    if (owns_mpi_)
        MPI_Finalize();
    else if (std::uncaught_exceptions() == 0)  // freeing is collective: not while this process fails alone
        MPI_Comm_free(&comm_);
}

std::unique_ptr<MpiWorld> MpiWorld::first_processes(int count) const {
    MPI_Comm part = MPI_COMM_NULL;
    check(MPI_Comm_split(comm_, rank_ < count ? 0 : MPI_UNDEFINED, rank_, &part), "MPI_Comm_split");
    if (part == MPI_COMM_NULL) return nullptr;
    return std::unique_ptr<MpiWorld>(new MpiWorld(*this, part));
}

bool MpiWorld::launched_by_mpirun() {
    for (const char* variable : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", "MPI_LOCALNRANKS"})
        if (std::getenv(variable)) return true;
    return false;
}

int MpiWorld::launcher_rank() {
    for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
        if (const char* value = std::getenv(variable)) return std::atoi(value);
    return -1;
}

std::string MpiWorld::thread_level_name() const {
    switch (thread_level_) {
        case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
        case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
        case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
        default: return "MPI_THREAD_SINGLE";
    }
}

std::string MpiWorld::describe() const {
    std::string library = library_;
    if (auto comma = library.find(','); comma != std::string::npos) library.resize(comma);
    // Below MPI_THREAD_MULTIPLE a process of threads funnels its MPI calls through one.
    const bool funnels = thread_level_ != MPI_THREAD_MULTIPLE && thread_level_ != MPI_THREAD_SINGLE;
    return fmt::format("{}; {}{}; {} process{}", library, thread_level_name(), funnels ? " (a communication thread)" : "",
                       size_, size_ == 1 ? "" : "es");
}

MpiWorld::Agreement MpiWorld::agree(int code) const {
    int codes[2] = {code, code != 0 ? rank_ : size_};
    int merged[2] = {0, 0};
    // Largest code; lowest failing process (size_ for "none"). A process may
    // wait here for long (while another calibrates): it polls and sleeps
    // instead of spinning on a core the others measure with.
    MPI_Request requests[2];
    check(MPI_Iallreduce(&codes[0], &merged[0], 1, MPI_INT, MPI_MAX, comm_, &requests[0]), "MPI_Iallreduce");
    check(MPI_Iallreduce(&codes[1], &merged[1], 1, MPI_INT, MPI_MIN, comm_, &requests[1]), "MPI_Iallreduce");
    for (int done = 0;;) {
        check(MPI_Testall(2, requests, &done, MPI_STATUSES_IGNORE), "MPI_Testall");
        if (done) break;
        std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    return {merged[0], merged[1] < size_ ? merged[1] : -1};
}

void MpiWorld::abort(const std::string& line, int code) const {
    std::cerr << line << std::endl;
    MPI_Abort(MPI_COMM_WORLD, code);
    std::_Exit(code);  // MPI_Abort does not return; this is for a library whose abort does
}

std::vector<double> MpiWorld::max_over_processes(const std::vector<double>& values) const {
    std::vector<double> result(values.size());
    check(MPI_Allreduce(values.data(), result.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX,
                        comm_),
          "MPI_Allreduce");
    return result;
}

std::vector<double> MpiWorld::sum_over_processes(const std::vector<double>& values) const {
    std::vector<double> result(values.size());
    check(MPI_Allreduce(values.data(), result.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM,
                        comm_),
          "MPI_Allreduce");
    return result;
}

bool MpiWorld::same_everywhere(unsigned long long value) const {
    unsigned long long low = 0, high = 0;
    check(MPI_Allreduce(&value, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm_), "MPI_Allreduce");
    check(MPI_Allreduce(&value, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm_), "MPI_Allreduce");
    return low == high;
}

std::string MpiWorld::text_of_process_zero(const std::string& text) const {
    unsigned long long length = rank_ == 0 ? text.size() : 0;
    check(MPI_Bcast(&length, 1, MPI_UNSIGNED_LONG_LONG, 0, comm_), "MPI_Bcast");
    std::string result = rank_ == 0 ? text : std::string(length, '\0');
    for (unsigned long long done = 0; done < length;) {
        const int count = static_cast<int>(std::min<unsigned long long>(length - done, 1u << 30));
        check(MPI_Bcast(result.data() + done, count, MPI_CHAR, 0, comm_), "MPI_Bcast");
        done += static_cast<unsigned long long>(count);
    }
    return result;
}

std::pair<int, int> MpiWorld::smallest_with_process(int value) const {
    struct {
        int value;
        int process;
    } mine{value, rank_}, smallest{0, 0};
    check(MPI_Allreduce(&mine, &smallest, 1, MPI_2INT, MPI_MINLOC, comm_), "MPI_Allreduce");
    return {smallest.value, smallest.process};
}

std::vector<int> MpiWorld::gather_everywhere(int value) const {
    std::vector<int> values(static_cast<std::size_t>(size_));
    check(MPI_Allgather(&value, 1, MPI_INT, values.data(), 1, MPI_INT, comm_), "MPI_Allgather");
    return values;
}

bool MpiWorld::started() {
    int initialised = 0, finalised = 0;
    MPI_Initialized(&initialised);
    MPI_Finalized(&finalised);
    return initialised || finalised;
}

void MpiWorld::barrier() const { check(MPI_Barrier(comm_), "MPI_Barrier"); }

}  // namespace numacoll::exec

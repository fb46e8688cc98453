#include "interpose/library.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "algorithms/registry.hpp"
#include "common/output_file.hpp"
#include "common/text_file.hpp"
#include "costs/params.hpp"
#include "interpose/call_clock.hpp"
#include "interpose/served_communicator.hpp"
#include "interpose/settings.hpp"
#include "results/mpi_report.hpp"
#include "results/provenance.hpp"
#include "topologies/machine.hpp"
#include "tune/selection_table.hpp"

namespace numacoll::interpose {

namespace {

struct State {
    std::once_flag initialised;
    bool active = false;
    Settings settings;
    std::optional<costs::Params> params;
    std::once_flag machine_loaded;
    std::shared_ptr<const topo::Machine> machine;
    std::string machine_error;
    int communicator_keyval = MPI_KEYVAL_INVALID;
    int finalize_keyval = MPI_KEYVAL_INVALID;
    int world_rank = 0;
    std::atomic<int> communicators_made{0};
    // Bumped before a communicator's state is freed: a thread's memory of
    // the communicator it served last is stale once it changes.
    std::atomic<std::uint64_t> communicators_freed{0};
    std::mutex mutex;                        // guards what follows
    std::set<ServedCommunicator*> live;
    std::string retired_report;              // rows of freed communicators this process was rank 0 of
};

State& state() {
    static State the_state;
    return the_state;
}

// This process's report rows: the communicators it is rank 0 of.
std::string report_rows(ServedCommunicator& communicator) {
    if (communicator.rank() != 0) return {};
    std::string rows;
    for (const CallLog::Summary& summary : communicator.log().summaries(call_clock::ns_per_tick())) {
        const CallRow& call = summary.row;
        rows += results::mpi_report_line({communicator.name(), communicator.size(), communicator.nodes(),
                                          communicator.ranks_per_node(), communicator.placement(),
                                          sched::to_string(call.collective), call.algorithm, call.datatype,
                                          call.bucket_bytes, summary.calls, summary.total_ns, summary.median_ns,
                                          call.reason});
    }
    return rows;
}

int delete_communicator(MPI_Comm, int, void* attribute, void*) {
    auto* communicator = static_cast<ServedCommunicator*>(attribute);
    State& s = state();
    {
        const std::lock_guard<std::mutex> lock(s.mutex);
        s.live.erase(communicator);
        s.retired_report += report_rows(*communicator);
    }
    s.communicators_freed.fetch_add(1);
    delete communicator;
    return MPI_SUCCESS;
}

// Process 0 writes every process's rows; the others send theirs.
void write_report() {
    State& s = state();
    std::string rows;
    {
        const std::lock_guard<std::mutex> lock(s.mutex);
        rows = s.retired_report;
        for (ServedCommunicator* communicator : s.live) rows += report_rows(*communicator);
    }
    int processes = 0;
    PMPI_Comm_size(MPI_COMM_WORLD, &processes);
    int length = static_cast<int>(rows.size());
    std::vector<int> lengths(static_cast<std::size_t>(processes)), offsets(static_cast<std::size_t>(processes));
    PMPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (s.world_rank == 0) {
        long long total = 0;
        for (int p = 0; p < processes; ++p) {
            offsets[p] = static_cast<int>(total);
            total += lengths[p];
        }
        all.resize(static_cast<std::size_t>(total));
    }
    PMPI_Gatherv(rows.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
    if (s.world_rank != 0) return;
    try {
        write_output_file(s.settings.report_path, results::mpi_report_header() + all);
    } catch (const std::exception& error) {
        std::fprintf(stderr, "numacoll: NUMACOLL_MPI_REPORT: %s\n", error.what());
    }
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes first, while MPI still works.
int at_finalize(MPI_Comm, int, void*, void*) {
    State& s = state();
    if (!s.active) return MPI_SUCCESS;
    // The world's segments are freed (collectively: every process is here);
    // other communicators the application left are MPI_Finalize's to free.
    void* world = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(MPI_COMM_WORLD, s.communicator_keyval, &world, &found);
    if (found) PMPI_Comm_delete_attr(MPI_COMM_WORLD, s.communicator_keyval);
    if (!s.settings.report_path.empty()) write_report();
    s.active = false;
    return MPI_SUCCESS;
}

void check_params_host(const costs::Params& params) {
    const std::optional<std::string> calibrated_on = costs::calibrated_host(params);
    const std::string host = results::current_provenance().host;
    if (calibrated_on && *calibrated_on != host)
        throw UsageError(fmt::format("NUMACOLL_MPI_PARAMS: '{}' was calibrated on {}, and this process runs on {}: "
                                     "calibrate this machine (numacoll calibrate)",
                                     params.origin, *calibrated_on, host));
}

// Every algorithm a table names exists for its collective (or is native).
void check_selection(const std::vector<tune::SelectionRow>& rows) {
    for (const tune::SelectionRow& row : rows)
        if (row.winner.algorithm != native_algorithm) {
            try {
                (void)algo::find_algorithm(row.collective, row.winner.algorithm);
            } catch (const Error& error) {
                throw UsageError(fmt::format("NUMACOLL_MPI_SELECTION: {}", error.what()));
            }
        }
}

void read_settings() {
    State& s = state();
    PMPI_Comm_rank(MPI_COMM_WORLD, &s.world_rank);
    bool native_on_error = false;
    if (const char* on_error = std::getenv("NUMACOLL_MPI_ON_ERROR")) native_on_error = std::string(on_error) == "native";
    try {
        s.settings = settings_from_environment();
        if (!s.settings.params_spec.empty()) {
            try {
                s.params = costs::load_params(s.settings.params_spec);
            } catch (const Error& error) {
                throw UsageError(fmt::format("NUMACOLL_MPI_PARAMS: {}", error.what()));
            }
            check_params_host(*s.params);
        }
        if (!s.settings.selection_path.empty()) {
            try {
                s.settings.selection = tune::selection_from_json(read_text_file(s.settings.selection_path, "NUMACOLL_MPI_SELECTION",
                                                                                input_cap_bytes(selection_file_cap_bytes)),
                                                                 "NUMACOLL_MPI_SELECTION '" + s.settings.selection_path + "'");
            } catch (const Error& error) {
                throw UsageError(error.what());
            }
            check_selection(s.settings.selection);
        }
    } catch (const Error& error) {
        if (native_on_error) {
            if (s.world_rank == 0)
                std::fprintf(stderr, "numacoll: warning: %s; the MPI library serves every collective\n", error.what());
            return;
        }
        if (s.world_rank == 0) {
            std::fprintf(stderr, "numacoll: %s\n", error.what());
            std::fflush(stderr);
            PMPI_Abort(MPI_COMM_WORLD, 2);
        }
        PMPI_Barrier(MPI_COMM_WORLD);  // until process 0's abort ends the job
        PMPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (!s.settings.enabled) return;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_communicator, &s.communicator_keyval, nullptr);
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, &s.finalize_keyval, nullptr);
    PMPI_Comm_set_attr(MPI_COMM_SELF, s.finalize_keyval, nullptr);
    call_clock::start();
    s.active = true;
}

}  // namespace

void initialise_library() {
    int initialised = 0;
    PMPI_Initialized(&initialised);
    if (!initialised) return;
    std::call_once(state().initialised, read_settings);
}

bool library_active() {
    State& s = state();
    if (!s.active) initialise_library();
    return s.active;
}

ServedCommunicator& served_communicator(MPI_Comm comm) {
    State& s = state();
    // The communicator this thread served last, unless one was freed since
    // (a freed communicator's handle may name a new one).
    struct Last {
        MPI_Comm comm = MPI_COMM_NULL;
        ServedCommunicator* communicator = nullptr;
        std::uint64_t freed = 0;
    };
    thread_local Last last;
    const std::uint64_t freed = s.communicators_freed.load(std::memory_order_acquire);
    if (last.communicator != nullptr && last.comm == comm && last.freed == freed) return *last.communicator;
    void* attribute = nullptr;
    int found = 0;
    PMPI_Comm_get_attr(comm, s.communicator_keyval, &attribute, &found);
    if (found) {
        last = {comm, static_cast<ServedCommunicator*>(attribute), freed};
        return *last.communicator;
    }
    std::call_once(s.machine_loaded, [&s] {
        s.machine = std::make_shared<const topo::Machine>(topo::load_live());
        if (!s.params) s.params = costs::params_for(*s.machine, "");
    });
    const int number = ++s.communicators_made;
    const std::string name = comm == MPI_COMM_WORLD ? "world" : fmt::format("communicator {}.{}", s.world_rank, number);
    auto* communicator = new ServedCommunicator(comm, s.machine, s.settings, *s.params, name);
    {
        const std::lock_guard<std::mutex> lock(s.mutex);
        s.live.insert(communicator);
    }
    PMPI_Comm_set_attr(comm, s.communicator_keyval, communicator);
    last = {comm, communicator, freed};
    return *communicator;
}

void abort_call(MPI_Comm, const char* call, const char* what) {
    std::fprintf(stderr, "numacoll: process %d: %s: %s\n", state().world_rank, call, what);
    std::fflush(stderr);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    std::abort();  // MPI_Abort does not return
}

}  // namespace numacoll::interpose

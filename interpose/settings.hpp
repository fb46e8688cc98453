// interpose::Settings: what the application's environment asks of the
// library, read once at MPI_Init. Every variable is checked there, so that
// a wrong value is said in one line before the application does any work.
//
//   NUMACOLL_MPI=off                 hand every call to the MPI library
//   NUMACOLL_MPI_ALGORITHM=allreduce:tiled,bcast:native
//                                    the algorithm per collective (native: the MPI library's)
//   NUMACOLL_MPI_SELECTION=FILE      a selection table (numacoll tune's selection.json)
//   NUMACOLL_MPI_PARAMS=NAME|FILE    cost parameters of the models that choose otherwise
//   NUMACOLL_MPI_REPORT=FILE         what was served and handed back, written at MPI_Finalize
//   NUMACOLL_MPI_VERBOSE=1           each communicator's layout and choices, on stderr
//   NUMACOLL_MPI_SCHEDULES=DIR       every schedule served, as text numacoll reads back
//   NUMACOLL_MPI_MAX_BYTES=SIZE      the largest shared segment one call may map per process
//   NUMACOLL_MPI_CACHE_BYTES=SIZE    the schedules and segments kept per communicator
//   NUMACOLL_MPI_SINGLE_COPY=SIZE|off  from this size, inputs others only copy are read
//                                    straight from their owner (process_vm_readv)
//   NUMACOLL_MPI_TRIAL=N             each distinct call whose algorithm the models or a table chose
//                                    alternates with the MPI library's own for 4 + N calls each,
//                                    and the faster over the last N serves the rest (0: no trial)
//   NUMACOLL_MPI_ON_ERROR=native     a wrong value above warns and hands every call back
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"
#include "tune/selection_table.hpp"

namespace numacoll::interpose {

struct Settings {
    bool enabled = true;
    std::map<sched::Collective, std::string> forced;  // collective -> algorithm or "native"
    std::string selection_path;
    std::vector<tune::SelectionRow> selection;  // read from selection_path
    std::string params_spec;
    std::string report_path;
    bool verbose = false;
    std::string schedules_dir;
    std::uint64_t max_segment_bytes = 64ull << 20;
    std::uint64_t cache_bytes = 256ull << 20;
    // Bytes per rank from which a broadcast, scatter, gather or allgather
    // reads its exposed inputs in one copy through the kernel; 0: never.
    // Measured here (bench/interposed_vs_native.sh, 2 processes): a
    // broadcast of 64 KiB took 8.4 us with it and 3.1-5.1 without, of
    // 256 KiB 17.5 against 10.3-17.6, of 1 MiB 85 against 128-252.
    std::uint64_t single_copy_bytes = 1ull << 20;
    // Calls of each side in a distinct call's trial against the MPI
    // library's own collective (interpose/served_communicator.hpp).
    int trial_calls = 8;
    bool native_on_error = false;
};

using tune::native_algorithm;

// From the environment: UsageError naming the variable and its value.
Settings settings_from_environment();

// The collectives the library serves, and their MPI names.
const char* mpi_name(sched::Collective collective);

}  // namespace numacoll::interpose

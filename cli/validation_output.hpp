// What `validate` and the main job share: running a validation sweep into a
// folder (plots/plotting.hpp draws it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "common/output_folder.hpp"
#include "exec/mpi_world.hpp"
#include "exec/threads_executor.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::cli {

// An engine other than this process's threads: one MPI process per node.
// Every process calls write_validation_folder with the same points, and runs
// them in the same order; only the one that `writes_files` writes the folder,
// and every process learns whether it could (cli/mpi_failures.hpp, on_writer).
struct ValidationEngine {
    std::function<exec::ExecResult(const sched::Schedule&, const exec::ExecOptions&)> execute;
    bool writes_files = true;
    const exec::MpiWorld* world = nullptr;
    std::string description;  // "engine mpi (Open MPI v4.1.4; MPI_THREAD_MULTIPLE; 2 processes)"
};

// Simulates, executes and models every spec, writing into the folder
// `folder` (a run's staging folder, common/output_folder.hpp):
// validation.csv (a row per point as it finishes), summary.txt and, for the
// points of `trace_bytes`, trace-simulated.csv, trace-measured.csv and both
// in trace.json (Chrome's trace format). Progress on stderr unless quiet.
// Every point is measured `rounds` times, interleaved (validate::ValidationSetup).
// With params calibrated on this host, the host is checked before and
// after (calibrate::host_held); `host_moved`, when given, says whether it
// failed. `note_line` goes into the summary after that check.
// `make_schedule` makes each spec's schedule (algo::generate_schedule on
// `layout` when empty; a schedule read from a file otherwise).
// Returns the summary (on the process that writes).
std::string write_validation_folder(const std::string& folder, const algo::Layout& layout,
                                    const sim::PlatformModel& platform, const std::vector<sched::CollectiveSpec>& specs,
                                    const exec::ExecOptions& exec_options, std::uint64_t trace_bytes, bool quiet,
                                    const std::string& placement = "compact", int rounds = 1, bool* host_moved = nullptr,
                                    const std::string& note_line = "", const ValidationEngine* engine = nullptr,
                                    const std::function<sched::Schedule(const sched::CollectiveSpec&)>& make_schedule = {});

// The folder of a validation, as common/output_folder.hpp takes it: the
// files a validation or numacoll plot writes (validation.csv, summary.txt,
// the traces, the pictures) are an earlier run's even where the folder has
// no manifest (written before it had one).
OutputFolder::Scope validation_folder_scope();

}  // namespace numacoll::cli

// What `validate`, `plot` and the main job share: running a validation sweep
// into a folder, and drawing a folder with the matplotlib script that is
// embedded in the binary (plots/plot_validation.py).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "exec/threads_executor.hpp"
#include "sim/platform_model.hpp"

namespace numacoll::cli {

// An engine other than this process's threads: one MPI process per node.
// Every process calls write_validation_folder with the same points, and runs
// them in the same order; only the one that `writes_files` writes the folder.
struct ValidationEngine {
    std::function<exec::ExecResult(const sched::Schedule&, const exec::ExecOptions&)> execute;
    bool writes_files = true;
    std::string description;  // "engine mpi (Open MPI v4.1.4; MPI_THREAD_MULTIPLE; 2 processes)"
};

// Simulates, executes and models every spec in `folder`, which exists
// (ensure_folder); writes DIR/validation.csv,
// DIR/summary.txt and, for the points of `trace_bytes`, DIR/trace-simulated.csv,
// DIR/trace-measured.csv and both in DIR/trace.json (Chrome's trace format). Progress on stderr unless quiet. Every point
// is measured `rounds` times, interleaved (validate::ValidationSetup).
// With params calibrated on this host, the host is checked before and
// after (calibrate::host_held); `host_moved`, when given, says whether it
// failed. `note_line` goes into the summary after that check.
// `make_schedule` makes each spec's schedule (algo::generate_schedule on
// `layout` when empty; a schedule read from a file otherwise).
// Returns the summary.
std::string write_validation_folder(const std::string& folder, const algo::Layout& layout,
                                    const sim::PlatformModel& platform, const std::vector<sched::CollectiveSpec>& specs,
                                    const exec::ExecOptions& exec_options, std::uint64_t trace_bytes, bool quiet,
                                    const std::string& placement = "compact", int rounds = 1, bool* host_moved = nullptr,
                                    const std::string& note_line = "", const ValidationEngine* engine = nullptr,
                                    const std::function<sched::Schedule(const sched::CollectiveSpec&)>& make_schedule = {});

// Runs python3 ($PYTHON, else python3 on the PATH if it has matplotlib,
// else /usr/bin/python3) on an embedded plotting script (by its stem) for
// DIR, which must hold `needed`; returns the PNG paths it printed. Throws
// Error, with one line, when python3/matplotlib is missing or it fails.
std::vector<std::string> plot_folder(const std::string& folder, const std::string& script_stem = "plot_validation",
                                     const std::string& needed = "validation.csv");

// The pictures `numacoll plot` draws that are in `folder` (latency.png,
// compare-*.png, error-*.png, best-*.png, gantt*.png).
std::vector<std::string> validation_pictures(const std::string& folder);

// Runs a program with arguments, without a shell; true when it exited 0.
// `output` and `errors` receive its standard output and standard error
// when not null (else they stay this process's).
bool run_program(std::vector<std::string> arguments, std::string* output = nullptr, std::string* errors = nullptr);

}  // namespace numacoll::cli

// Calibrating this machine as a step of a larger command (validate
// --calibrate, demo): the params go into the output folder beside the
// results they explain, as params-calibrated.json with the microbenchmarks'
// figures in calibration.csv. A file calibrated on this host is reused when
// asked (the main job reruns in seconds); one from another host is not.
// Either way the host is checked against the params at once
// (calibrate::check_host), and a calibration it no longer matches by 20% at
// any point, or whose rows disagree with each other, is made again, three
// times at most: a virtual machine's host changes speed for seconds at a time.
#pragma once

#include <functional>
#include <string>

#include "common/output_folder.hpp"
#include "costs/params.hpp"

namespace numacoll::cli {

struct CalibrationStep {
    bool quick = false;
    std::string base = "generic";
    bool reuse = false;  // take the folder's params-calibrated.json when it was made on this host
    bool quiet = false;
    // Measure nothing on this node: the base set's figures, and what
    // `before_writing` adds (the network, measured between MPI processes).
    bool network_only = false;
    // Calibrations made at most when one's points disagree or the host's
    // speed has moved by the check after it.
    int attempts = 3;
};

// Calibrates into the run's `folder` (or, with `step.reuse`, copies the
// earlier run's calibration there when it still holds).
costs::Params calibrate_into_folder(const OutputFolder& folder, const CalibrationStep& step);

// Writes a calibration's params and measurements (the `calibrate` command's
// files), both whole before either is put in place (a failure leaves
// neither); returns the fit's worst cache-level residual, and says on stderr
// when it is above consistent_residual_limit. UsageError, before any work,
// when the two paths, or one of them and --base, name the same file.
// `before_writing` completes the params before they are written (the
// network level, measured under mpirun).
double write_calibration(const std::string& params_path, const std::string& measurements_path, bool quiet,
                         const CalibrationStep& step, costs::Params* params_out = nullptr,
                         const std::function<void(costs::Params&)>& before_writing = {});

// Above it, a calibration's rows disagree with each other: some ran slow
// for part of it (calibrate::FitResult::worst_cache_residual).
constexpr double consistent_residual_limit = 0.3;

}  // namespace numacoll::cli

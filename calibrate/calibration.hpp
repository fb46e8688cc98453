// calibrate::calibrate_machine: measures this machine with the
// microbenchmarks (calibrate/microbenchmarks.hpp) and fits a parameter set
// (calibrate/fit.hpp) in the schema of the bundled ones (costs/params.hpp).
//
// What it measures: for every level that joins two cores here (the same
// core, a cache below the last level, the last-level-cache domain, another
// domain one hop away; costs::CoreLevels), a flag, copies and reductions
// over a range of sizes that fit the last-level cache, and copies by d
// readers at once for d = 2, 4, ... up to the cores that share the level;
// DRAM latency (a chase through a buffer four times the last-level cache,
// on core 0's NUMA node and on the first node at each further hop count)
// and bandwidth (copies of such a buffer by 1 and by d cores); the compute
// rate. Rounds of every point interleave, so that a drift of the host
// spreads over all points; a point's time is the median of its iterations
// pooled over the rounds.
//
// Levels this machine does not have (and the message overheads, the NIC
// and the network, which need MPI between nodes) keep the base set's
// figures, and their sources say so. Every calibrated figure's source names
// the host, the date, the numacoll revision, the microbenchmarks and the
// fit's residual.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "calibrate/fit.hpp"
#include "costs/params.hpp"
#include "topologies/machine.hpp"

namespace numacoll::calibrate {

struct CalibrationOptions {
    bool quick = false;           // fewer sizes, rounds and iterations: under a minute
    std::string base = "generic";  // the params the unmeasured figures come from
    // Told about each point as it finishes (done of total) and about each phase.
    std::function<void(const std::string& line)> progress;
};

struct CalibrationRun {
    std::vector<Measurement> measurements;  // pooled over the rounds
    FitResult fit;
    costs::Params params;
    std::vector<std::string> levels_from_base;
    bool threads_pinned = true;
    bool memory_bound = true;
    double seconds = 0;
};

// Everything a calibration does, on the live machine `machine`.
CalibrationRun calibrate_machine(const topo::Machine& machine, const CalibrationOptions& options);

// Who calibrated: written into every calibrated figure's source.
struct CalibrationStamp {
    std::string host, date, numacoll;
};

// The params a fit gives, on top of `base`, with every figure's source.
// `levels_present` are the levels the machine has (measured or not).
costs::Params calibrated_params(const FitResult& fit, const std::vector<Measurement>& measurements,
                                const costs::Params& base, const CalibrationStamp& stamp,
                                std::vector<std::string>* levels_from_base = nullptr);

// measurements.csv: one row per point with the fit's prediction beside it.
std::string measurements_csv(const std::vector<Measurement>& measurements, const costs::Params& params);

}  // namespace numacoll::calibrate

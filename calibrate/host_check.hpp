// calibrate::check_host: how fast the host runs now against what a
// calibration's params charge. A flag and a 64 KiB copy between the first
// two cores (a copy of its own on a one-core machine) are measured with the
// calibration's microbenchmarks and compared with calibrate::predicted_ns.
// Validation runs it before and after its points: on a host whose speed
// drifts (virtual machines), the summary then says whether the errors it
// reports are the model's or the host's.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "calibrate/fit.hpp"
#include "costs/params.hpp"
#include "topologies/machine.hpp"

namespace numacoll::calibrate {

struct HostCheck {
    std::vector<std::pair<Measurement, double>> points;  // (measured, what the params charge)
    // Measured over charged, the median of the points (1: as calibrated).
    double ratio() const;
    // The largest |measured / charged - 1| of the points.
    double worst_deviation() const;
};

HostCheck check_host(const topo::Machine& machine, const costs::Params& params);

// How far a point may stray from what the params charge before the host no
// longer counts as running at the calibration's speed.
inline constexpr double host_drift_limit = 0.2;

// Every point of both checks within host_drift_limit: a run between them
// measured the host the params describe.
bool host_held(const HostCheck& before, const HostCheck& after);

// "host check: flag 52 ns (params 50 ns), copy 64 KiB ...: 1.04 x before the run, 1.31 x after"
std::string host_check_text(const HostCheck& before, const HostCheck& after);

}  // namespace numacoll::calibrate

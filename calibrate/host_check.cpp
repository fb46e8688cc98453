#include "calibrate/host_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "calibrate/microbenchmarks.hpp"
#include "common/byte_size.hpp"
#include "common/statistics.hpp"
#include "costs/core_levels.hpp"

namespace numacoll::calibrate {

double HostCheck::ratio() const {
    std::vector<double> ratios;
    for (const auto& [measured, charged] : points)
        if (charged > 0 && measured.time_ns > 0) ratios.push_back(measured.time_ns / charged);
    return ratios.empty() ? 1.0 : median(ratios);
}

double HostCheck::worst_deviation() const {
    double worst = 0;
    for (const auto& [measured, charged] : points)
        if (charged > 0 && measured.time_ns > 0) worst = std::max(worst, std::abs(measured.time_ns / charged - 1));
    return worst;
}

bool host_held(const HostCheck& before, const HostCheck& after) {
    return before.worst_deviation() <= host_drift_limit && after.worst_deviation() <= host_drift_limit;
}

HostCheck check_host(const topo::Machine& machine, const costs::Params& params) {
    BenchmarkIterations iterations;
    iterations.warmup = 10;
    iterations.timed = 100;
    iterations.flag_rounds = 50;
    Microbenchmarks bench(machine, iterations);
    const int reader = machine.core(0).pus.front();
    HostCheck check;
    const auto add = [&](const Microbenchmarks::Timed& timed) {
        check.points.emplace_back(timed.measurement, predicted_ns(timed.measurement, params));
    };
    if (machine.core_count() > 1) {
        const costs::LevelJoin join = costs::CoreLevels(machine).between(1, 0);
        const PuPair pair{machine.core(1).pus.front(), reader};
        add(bench.flag(join.level, pair));
        add(bench.copy(join.level, pair, 64 * 1024));
    } else {
        add(bench.copy(costs::Level::local_cache, {reader, reader}, 64 * 1024));
    }
    return check;
}

std::string host_check_text(const HostCheck& before, const HostCheck& after) {
    const auto list = [](const HostCheck& check) {
        std::string out;
        for (const auto& [measured, charged] : check.points)
            out += fmt::format("{}{}{} {:.0f} ns (params {:.0f} ns)", out.empty() ? "" : ", ", to_string(measured.kind),
                               measured.kind == Microbenchmark::flag ? std::string() : fmt::format(" {}", format_bytes(measured.bytes)),
                               measured.time_ns, charged);
        return out;
    };
    return fmt::format("host check against the calibration: before the run {}: {:.2f} x; after it {}: {:.2f} x{}\n",
                       list(before), before.ratio(), list(after), after.ratio(),
                       host_held(before, after)
                           ? ""
                           : " (the host's speed is not the calibration's: part of the errors below is the host's)");
}

}  // namespace numacoll::calibrate

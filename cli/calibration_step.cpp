#include "cli/calibration_step.hpp"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <optional>

#include "calibrate/calibration.hpp"
#include "calibrate/host_check.hpp"
#include "cli/common.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/text_file.hpp"
#include "results/provenance.hpp"
#include "topologies/machine.hpp"

namespace numacoll::cli {

double write_calibration(const std::string& params_path, const std::string& measurements_path, bool quiet,
                         const CalibrationStep& step, costs::Params* params_out,
                         const std::function<void(costs::Params&)>& before_writing) {
    check_distinct_paths(
        {{"-o", params_path, true}, {"--measurements", measurements_path, true}, {"--base", step.base, false}});
    if (step.network_only && !measurements_path.empty())
        throw UsageError("--measurements lists the node's microbenchmarks: not with --network-only");
    // Both outputs open before the work, so that a bad path fails at once.
    OutputFile params_file(params_path);
    std::optional<OutputFile> measurements_file;
    if (!measurements_path.empty()) measurements_file.emplace(measurements_path);
    const costs::Params base = costs::load_params(step.base);  // an unknown base fails before the work too
    if (step.network_only) {
        costs::Params params = base;
        if (before_writing) before_writing(params);
        params_file.write(costs::params_to_json(params));
        params_file.commit();
        if (params_out) *params_out = params;
        return 0;
    }
    const topo::Machine machine = topo::load_live();
    calibrate::CalibrationOptions options;
    options.quick = step.quick;
    options.base = step.base;
    if (!quiet) options.progress = [](const std::string& line) { std::cerr << "calibrate: " << line << "\n"; };
    calibrate::CalibrationRun run = calibrate::calibrate_machine(machine, options);
    if (before_writing) before_writing(run.params);
    // Every text written before any is put in place: a failure leaves neither.
    if (measurements_file) measurements_file->write(calibrate::measurements_csv(run.measurements, run.params));
    params_file.write(costs::params_to_json(run.params));
    params_file.commit();
    if (measurements_file) measurements_file->commit();
    if (!quiet) {
        std::cerr << fmt::format("calibrate: {} points in {:.1f} s{}{}\n", run.measurements.size(), run.seconds,
                                 run.threads_pinned ? "" : "; threads NOT pinned (the system refused)",
                                 run.memory_bound ? "" : "; memory NOT bound to NUMA nodes (the system refused)");
        for (const auto& [level, fit] : run.fit.levels)
            std::cerr << fmt::format("calibrate:   {:<12} a = {:8.2f} ns  1/b = {:7.2f} GB/s  1/B = {}  residual {:.1f}% ({} rows)\n",
                                     costs::to_string(level), fit.latency_ns, fit.bandwidth_bytes_per_ns,
                                     fit.aggregate_bytes_per_ns ? fmt::format("{:7.2f} GB/s{}", *fit.aggregate_bytes_per_ns,
                                                                              fit.contention_seen ? "" : " (lower bound)")
                                                                : std::string("-"),
                                     100 * fit.residual, fit.rows);
        if (run.fit.reduce_bytes_per_ns)
            std::cerr << fmt::format("calibrate:   reduction    {:.2f} bytes/ns, residual {:.1f}%\n", *run.fit.reduce_bytes_per_ns,
                                     100 * run.fit.reduce_residual);
        if (run.fit.flag_overhead_ns)
            std::cerr << fmt::format("calibrate:   flag         {:.2f} ns beyond its line, residual {:.1f}%\n",
                                     *run.fit.flag_overhead_ns, 100 * run.fit.flag_residual);
        if (run.params.private_cache_bytes)
            std::cerr << fmt::format("calibrate:   private cache {} per core (hwloc): a copy or sum touching more "
                                     "makes its own accesses at same_socket\n",
                                     format_bytes(static_cast<std::uint64_t>(run.params.private_cache_bytes->value)));
        std::string names;
        for (costs::Level level : costs::all_levels)  // what before_writing measured is no longer the base's
            if (run.params.at(level).latency_ns.source.find("from base") != std::string::npos)
                names += (names.empty() ? "" : ", ") + std::string(costs::to_string(level));
        if (!names.empty()) {
            std::cerr << fmt::format("calibrate:   from base '{}' (not on this machine, or not measurable here): {}\n", step.base, names);
        }
    }
    const double worst = run.fit.worst_cache_residual();
    if (worst > consistent_residual_limit && !quiet)
        std::cerr << fmt::format("calibrate: the points disagree with each other (a residual of {:.0f}%): part of them ran "
                                 "slow, the host was busy; calibrate again\n",
                                 100 * worst);
    if (params_out) *params_out = run.params;
    return worst;
}

namespace {

bool host_runs_as_calibrated(const costs::Params& params, bool quiet) {
    const calibrate::HostCheck check = calibrate::check_host(topo::load_live(), params);
    const bool steady = check.worst_deviation() <= calibrate::host_drift_limit;
    if (!steady && !quiet)
        std::cerr << fmt::format("calibrate: the host is {:.0f}% away from the calibration's times now (a flag and a "
                                 "64 KiB copy, {:.2f} x): calibrating again\n",
                                 100 * check.worst_deviation(), check.ratio());
    return steady;
}

}  // namespace

costs::Params calibrate_into_folder(const OutputFolder& folder, const CalibrationStep& step) {
    const std::string params_name = "params-calibrated.json";
    const std::string measurements_name = "calibration.csv";
    const std::string host = results::current_provenance().host;
    std::error_code error;
    if (step.reuse && std::filesystem::is_regular_file(folder.earlier(params_name), error)) {
        try {
            const std::string text = read_text_file(folder.earlier(params_name), "params", params_file_cap_bytes);
            costs::Params cached = costs::parse_params(text, folder.final_path(params_name));
            if (cached.name == costs::calibrated_name(host)) {
                if (!step.quiet)
                    std::cerr << fmt::format("calibrate: reusing {} (calibrated on this host)\n",
                                             folder.final_path(params_name));
                if (host_runs_as_calibrated(cached, step.quiet)) {
                    // The run keeps the calibration it used, with its measurements.
                    write_output_file(folder.file(params_name), text);
                    if (std::filesystem::is_regular_file(folder.earlier(measurements_name), error))
                        write_output_file(folder.file(measurements_name),
                                          read_text_file(folder.earlier(measurements_name), "calibration measurements",
                                                         params_file_cap_bytes));
                    cached.origin = folder.final_path(params_name);
                    return cached;
                }
            }
        } catch (const InputError&) {
            // A damaged cache is measured again and replaced.
        }
    }
    // A virtual machine's host can change speed for seconds at a time: a
    // calibration made in such a spell describes neither before nor after,
    // so it is checked at once and redone (a few times at most).
    costs::Params params;
    for (int attempt = 1; attempt <= step.attempts; ++attempt) {
        const double residual =
            write_calibration(folder.file(params_name), folder.file(measurements_name), step.quiet, step, &params);
        if (attempt == step.attempts) break;
        if (residual <= consistent_residual_limit && host_runs_as_calibrated(params, step.quiet)) break;
    }
    params.origin = folder.final_path(params_name);
    return params;
}

}  // namespace numacoll::cli

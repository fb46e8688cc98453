// numacoll calibrate: measure this machine and write a params file for
// sim, validate and demo (calibrate/).
#include <fmt/format.h>

#include <functional>
#include <iostream>

#include "calibrate/calibration.hpp"
#include "calibrate/network.hpp"
#include "cli/calibration_step.hpp"
#include "cli/commands.hpp"
#include "cli/mpi_agreement.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "exec/mpi_world.hpp"
#include "results/provenance.hpp"
#include "topologies/machine.hpp"

namespace numacoll::cli {

namespace {

struct CalibrateOptions {
    std::string output = "calibrated-params.json";
    std::string measurements;
    CalibrationStep step;
};

// Under mpirun with two processes or more (one per node): process 0
// calibrates its node while the others wait without spinning, then processes
// 0 and 1 measure the network (calibrate/network.hpp) and process 0 writes
// the file with both.
int calibrate_with_network(const CalibrateOptions& options, const CLI::App& command) {
    const StartedMpi started = start_mpi(command, MPI_THREAD_MULTIPLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    const bool quiet = options.step.quiet;
    const topo::Machine machine = topo::load_live();
    auto measure = [&]() {
        return calibrate::measure_network(machine, world, options.step.quick, [&](const std::string& line) {
            if (!quiet) std::cerr << "calibrate: " << line << "\n";
        });
    };
    if (world.rank() != 0) {
        const exec::MpiWorld::Agreement agreed = world.agree(0);  // while process 0 calibrates its node
        if (agreed.code != 0) return agreed.code;
        measure();
        return world.agree(0).code;  // whether process 0 could write the file
    }
    bool released = false;  // whether the others were told to go on
    bool measured = false;  // whether the network was measured (the others then wait for the file)
    const auto add_network = [&](costs::Params& params) {
        released = true;
        world.agree(0);
        const calibrate::NetworkMeasurement measured_network = measure();
        measured = true;
        const calibrate::NetworkFit fit = calibrate::fit_measured_network(measured_network);
        const results::Provenance provenance = results::current_provenance();
        calibrate::apply_network(params, measured_network, fit,
                                 fmt::format("calibrated on {} at {} by numacoll {}", provenance.host, provenance.date,
                                             provenance.numacoll));
        if (options.step.network_only) params.name = costs::calibrated_name(provenance.host);
        params.description += fmt::format("; then measured between MPI processes ({}): the network and NIC levels, "
                                          "the message overheads{}",
                                          measured_network.host_pair,
                                          measured_network.hops_far > 0 ? ", the NIC DMA windows" : "");
        if (quiet) return;
        std::cerr << fmt::format("calibrate:   network      one-way {:.0f} ns + m / {:.2f} GB/s{} (residual {:.1f}%), "
                                 "o_s {:.0f} ns, o_r {:.0f} ns, g {:.0f} ns{}\n",
                                 fit.latency_ns, fit.bandwidth_bytes_per_ns,
                                 fit.bandwidth_streamed ? " (the stream's)" : "", 100 * fit.residual,
                                 measured_network.send_overhead_ns, measured_network.receive_overhead_ns,
                                 measured_network.gap_ns,
                                 measured_network.same_host ? " (one host: shared memory, no NIC)" : "");
        std::cerr << fmt::format("calibrate:   stream       {} x {} in flight: {:.3f} GB/s\n",
                                 measured_network.stream_window, format_bytes(measured_network.stream_message_bytes),
                                 measured_network.stream_bytes_per_ns);
        for (const calibrate::NetworkPoint& p : measured_network.pingpong)
            std::cerr << fmt::format("calibrate:   ping-pong    {:<11} {:>8}: one-way {:.0f} ns (p10 {:.0f}, p90 {:.0f}), "
                                     "fit {:.0f} ns\n",
                                     to_string(p.placement), format_bytes(p.bytes), p.one_way_ns, p.p10_ns, p.p90_ns,
                                     fit.latency_ns + static_cast<double>(p.bytes) / fit.bandwidth_bytes_per_ns);
    };
    // One process alone has no network to measure: it calibrates its node.
    const bool network = world.size() > 1 || options.step.network_only;
    try {
        write_calibration(options.output, options.measurements, quiet, options.step, nullptr,
                          network ? std::function<void(costs::Params&)>(add_network) : nullptr);
    } catch (const std::exception& error) {
        const int code = dynamic_cast<const UsageError*>(&error) ? 2 : 1;
        // While the others measure the network with this process, they would wait for it: end the job.
        if (released && !measured) world.abort(fmt::format("numacoll: {}", error.what()), code);
        std::cerr << "numacoll: " << error.what() << "\n";
        world.agree(code);
        return code;
    }
    if (network) world.agree(0);
    std::cout << fmt::format("wrote {}\n", options.output);
    return 0;
}

}  // namespace

CommandRun add_calibrate_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "calibrate", "measure this machine's latencies, bandwidths and rates and fit a params file (docs/params.md)");
    auto options = std::make_shared<CalibrateOptions>();
    command->add_option("--output,-o", options->output, "the params file to write")->capture_default_str();
    command->add_option("--measurements", options->measurements,
                        "also write every microbenchmark point with the fit's prediction (CSV)");
    command->add_flag("--quick", options->step.quick, "fewer sizes, rounds and iterations (under a minute)");
    command->add_option("--base", options->step.base,
                        "params the figures this machine cannot measure come from (a bundled name or a file)")
        ->capture_default_str();
    command->add_flag("--network-only", options->step.network_only,
                      "under mpirun: measure the network only, on top of --base (a file this command wrote)");
    command->add_flag("--quiet,-q", options->step.quiet, "no progress on stderr");
    command->footer("Examples:\n  numacoll calibrate -o my-machine.json && numacoll validate --params my-machine.json\n"
                    "  numacoll calibrate --quick --measurements points.csv\n"
                    "  mpirun -np 2 --map-by node numacoll calibrate -o cluster.json   (adds the network)\n"
                    "  mpirun -np 2 --map-by node numacoll calibrate --network-only --base node.json -o cluster.json");
    return [options, command] {
        if (exec::MpiWorld::launched_by_mpirun()) return calibrate_with_network(*options, *command);
        if (options->step.network_only)
            throw UsageError("--network-only measures between MPI processes: mpirun -np 2 numacoll calibrate "
                             "--network-only --base FILE -o FILE");
        write_calibration(options->output, options->measurements, options->step.quiet, options->step);
        std::cout << fmt::format("wrote {}\n", options->output);
        return 0;
    };
}

}  // namespace numacoll::cli

// numacoll run: execute collectives for real on this machine's cores (pinned
// threads, NUMA-placed buffers) and write their measured times.
#include <fmt/format.h>

#include <iostream>
#include <optional>

#include "algorithms/registry.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "exec/threads_executor.hpp"
#include "results/result_row.hpp"
#include "results/trace_writer.hpp"

namespace numacoll::cli {

namespace {

struct RunOptions {
    MachineOptions machine;
    AlgorithmOptions algorithm;
    int threads = 0;
    bool oversubscribe = false;
    std::string bytes = "8B:16MiB";
    int iterations = 100;
    int warmup = 10;
    bool no_pin = false;
    std::string output = "-";
    std::string trace;
    std::string from;
    bool quiet = false;
};

}  // namespace

CommandRun add_run_command(CLI::App& app) {
    auto* command = app.add_subcommand("run", "execute collectives on this machine's cores and measure them");
    auto options = std::make_shared<RunOptions>();
    options->machine.add_to(*command, "live", true);
    options->algorithm.add_to(*command, true);
    command->add_option("--threads,-P", options->threads, "threads (ranks) to run; 0 = one per core")->capture_default_str();
    command->add_flag("--oversubscribe", options->oversubscribe,
                      "allow more threads than PUs (they share PUs; correct, but timings mean little)");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--iterations,-n", options->iterations, "timed iterations per point")->capture_default_str();
    command->add_option("--warmup", options->warmup, "untimed iterations first")->capture_default_str();
    command->add_flag("--no-pin", options->no_pin, "do not pin threads to their PUs");
    command->add_option("--output,-o", options->output, "result CSV, - for standard output")->capture_default_str();
    command->add_option("--trace", options->trace, "write every task's start and end (last iteration) to this CSV");
    command->add_option("--from", options->from,
                        "execute this schedule file (text or JSON, made for this machine) instead of generating");
    command->add_flag("--quiet,-q", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  numacoll run --threads 2 --bytes 8B:16MiB -o run.csv\n"
        "  numacoll run --threads 16 --oversubscribe --bytes 64,1MiB --iterations 20\n"
        "  numacoll run --bcast 2stage --bytes 4KiB --trace trace.csv");

    return [options] {
        if (options->machine.topology != "live")
            throw UsageError(fmt::format("run executes on this machine: --topology must be live (got '{}')",
                                         options->machine.topology));
        if (options->machine.nodes != 1)
            throw UsageError(fmt::format("run executes on this machine, one node: --nodes must be 1 (got {})",
                                         options->machine.nodes));
        if (options->threads < 0) throw UsageError(fmt::format("--threads must be >= 0 (got {})", options->threads));
        // Outputs open first: a path that cannot be written fails before any work.
        results::ResultWriter output(options->output);
        std::optional<results::TraceWriter> trace;
        if (!options->trace.empty()) trace.emplace(options->trace);
        const auto machine = options->machine.load();
        MachineOptions layout_options = options->machine;
        if (options->threads > 0) layout_options.ranks_per_node = options->threads;
        const algo::Layout layout = layout_options.layout(machine, options->oversubscribe);

        std::vector<sched::Schedule> schedules;
        if (!options->from.empty()) {
            schedules.push_back(load_schedule(options->from));
            for (const auto& rank : schedules.back().ranks)
                if (rank.pu < 0 || rank.pu >= machine->pu_count())
                    throw UsageError(fmt::format("'{}' places a rank on PU {}, which this machine does not have",
                                                 options->from, rank.pu));
        } else {
            for (const auto& spec : sweep_specs(options->algorithm, options->bytes))
                schedules.push_back(algo::generate_schedule(spec, layout));
        }

        exec::ExecOptions exec_options;
        exec_options.timed_iterations = options->iterations;
        exec_options.warmup_iterations = options->warmup;
        exec_options.pin_threads = !options->no_pin;
        exec_options.trace = !options->trace.empty();

        const results::Provenance provenance = results::current_provenance();
        int done = 0;
        for (const auto& schedule : schedules) {
            const exec::ExecResult result = exec::run_on_threads(schedule, *machine, exec_options);
            results::ResultRow row =
                results::measured_row(schedule, result.stats, result.threads_pinned, result.memory_bound);
            // A schedule from a file was laid out by whoever made it.
            row.placement = options->from.empty() ? options->machine.placement_name() : "";
            row.topology = machine->source;
            row.provenance = provenance;
            output.write(row);  // each point as it finishes
            if (trace) trace->write(schedule, result.timeline);
            ++done;
            const auto& spec = schedule.spec;
            const auto& s = result.stats;
            if (!options->quiet)
                std::cerr << fmt::format("[{}/{}] {} {} {} on {} threads: median {:.0f} ns (p10 {:.0f}, p90 {:.0f}), verified\n",
                                         done, schedules.size(), sched::to_string(spec.collective), spec.algorithm,
                                         format_bytes(spec.bytes), schedule.rank_count(), s.median_ns, s.p10_ns, s.p90_ns);
        }
        if (trace) trace->finish();
        output.finish();
        return 0;
    };
}

}  // namespace numacoll::cli

// numacoll validate: simulate on this machine's topology, execute for real,
// add the paper's model, and write the comparison; numacoll plot draws it.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>

#include "algorithms/registry.hpp"
#include "calibrate/host_check.hpp"
#include "cli/commands.hpp"
#include "cli/calibration_step.hpp"
#include "cli/common.hpp"
#include "cli/launcher_placement.hpp"
#include "cli/mpi_agreement.hpp"
#include "cli/mpi_failures.hpp"
#include "plots/plotting.hpp"
#include "cli/validation_output.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "costs/params.hpp"
#include "exec/mpi_executor.hpp"
#include "exec/process_executor.hpp"

namespace numacoll::cli {

namespace {

struct ValidateOptions {
    std::string engine = "threads";
    AlgorithmOptions algorithm;
    MachineOptions machine;
    std::string params;
    bool calibrate = false;
    bool quick = false;
    std::string bytes = "8B:16MiB";
    std::string trace_bytes = "64KiB";
    int iterations = exec::iterations_by_size;
    int warmup = exec::iterations_by_size_warmup;
    int rounds = 3;
    int attempts = 3;
    std::string output_dir = "numacoll-validate";
    std::string from;
    bool quiet = false;
};

// --trace-bytes names a point to trace: one the sweep measures. (Its
// default, 64 KiB, just traces nothing when the sweep leaves it out.)
std::uint64_t trace_bytes_of(const ValidateOptions& options, bool given) {
    const std::uint64_t trace_bytes = parse_byte_size(options.trace_bytes, "--trace-bytes");
    const auto sizes = parse_byte_sizes(options.bytes, "--bytes");
    if (given && std::find(sizes.begin(), sizes.end(), trace_bytes) == sizes.end())
        throw UsageError(fmt::format("--trace-bytes {} is not one of the sizes of --bytes '{}'", format_bytes(trace_bytes),
                                     options.bytes));
    return trace_bytes;
}

// The files validate reads (none of them may be a file its folder's earlier run left).
std::vector<CommandPath> validate_inputs(const ValidateOptions& options) {
    return {{"--topology", options.machine.topology, false},
            {"--params", options.params, false},
            {"--from", options.from, false}};
}

// One MPI process per node, under mpirun: every process simulates and models
// the same points (the simulation is deterministic) and runs its node's
// slice of each; the process of node 0 writes the folder.
int validate_on_mpi_processes(const ValidateOptions& options, bool trace_bytes_given, const CLI::App& command) {
    if (options.calibrate)
        throw UsageError("--calibrate measures one process's cores; with --engine mpi give --params (a file that "
                         "mpirun -np N numacoll calibrate wrote, with the network measured)");
    // Ranks as processes: one process per rank, on one node (a process of one rank asks for no threads).
    const bool ranks_are_processes = options.algorithm.as_processes();
    const auto refuse_process_count = [&](int started_processes) {
        throw UsageError(fmt::format("--ranks-as processes runs one MPI process per rank: --threads {} needs mpirun "
                                     "-np {}, and {} started",
                                     options.machine.ranks_per_node, options.machine.ranks_per_node, started_processes));
    };
    // Without a launcher this is one process: say so before MPI starts.
    if (ranks_are_processes && options.machine.ranks_per_node > 1 && !exec::MpiWorld::launched_by_mpirun())
        refuse_process_count(1);
    const StartedMpi started = start_mpi(command, ranks_are_processes ? MPI_THREAD_SINGLE : MPI_THREAD_MULTIPLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    MachineOptions machine_options = options.machine;
    if (ranks_are_processes)
        if (const int code = follow_launcher_binding(world, command, machine_options.topology, !machine_options.no_pin, 1,
                                                     machine_options.pus, machine_options.from_launcher, "node"))
            return code;
    std::optional<algo::Layout> layout;
    std::optional<sim::PlatformModel> platform;
    std::vector<sched::CollectiveSpec> specs;
    std::uint64_t trace_bytes = 0;
    std::unique_ptr<OutputFolder> folder;
    if (const int code = agree_on(world, [&] {
            if (ranks_are_processes) {
                MachineOptions one_node = machine_options;
                if (one_node.ranks_per_node == 0) one_node.ranks_per_node = world.size();
                if (one_node.ranks_per_node != world.size()) refuse_process_count(world.size());
                layout.emplace(one_node.layout_here(1));
            } else {
                layout.emplace(options.machine.layout_here(world.size()));
            }
            specs = sweep_specs(options.algorithm, options.bytes);
            for (const auto& spec : specs) (void)algo::check_schedule_request(spec, *layout);
            trace_bytes = trace_bytes_of(options, trace_bytes_given);
            const costs::Params params = costs::params_for(*layout->machine, options.params);
            if (options.algorithm.single_copy) (void)costs::single_copy_costs(params);  // before measuring
            if (world.rank() == 0) {
                folder = open_output_folder(options.output_dir, "validate", validate_inputs(options),
                                            validation_folder_scope());
                announce_generic_params(params, *layout->machine, "validate", options.quiet);
            }
            platform.emplace(layout->machine, params, layout->nodes);
        }))
        return code;
    exec::ExecOptions exec_options;
    exec_options.timed_iterations = options.iterations;
    exec_options.warmup_iterations = options.warmup;
    exec_options.pin_threads = !options.machine.no_pin;
    ValidationEngine engine;
    engine.writes_files = world.rank() == 0;
    engine.world = &world;
    engine.description = fmt::format("engine mpi ({})", world.describe());
    const topo::Machine& machine = *layout->machine;
    engine.execute = [&](const sched::Schedule& schedule, const exec::ExecOptions& run_options) -> exec::ExecResult {
        if (ranks_are_processes) return exec::run_on_processes(schedule, machine, run_options, world);
        return exec::run_on_mpi(schedule, machine, run_options, world);
    };
    const auto make_schedule = [&](const sched::CollectiveSpec& spec) {
        return options.algorithm.in_rank_form(algo::generate_schedule(spec, *layout));
    };
    return run_agreed(world, [&] {
        if (world.rank() == 0) reached_stage("simulating");
        const std::string summary = write_validation_folder(
            folder ? folder->staging() : std::string(), *layout, *platform, specs, exec_options, trace_bytes,
            options.quiet || world.rank() != 0, machine_options.placement_name(), options.rounds, nullptr, "", &engine,
            make_schedule);
        on_writer(world, [&] {
            reached_stage("writing");
            folder->commit();
            std::cout << summary << fmt::format("wrote validation.csv and summary.txt into {}\n", options.output_dir);
        });
    });
}

}  // namespace

CommandRun add_validate_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "validate", "simulate, execute and model collectives on this machine; write validation.csv and summary.txt");
    auto options = std::make_shared<ValidateOptions>();
    options->algorithm.add_to(*command, true, true);
    command->add_option("--engine", options->engine,
                        "threads (one node, this process) or mpi (one MPI process per node under mpirun: the "
                        "nodes are the MPI processes)")
        ->check(CLI::IsMember({"threads", "mpi"}))
        ->capture_default_str();
    options->machine.add_this_machine_to(*command, "threads (ranks) per node; 0 = one per core");
    auto* params = command->add_option("--params", options->params,
                                       "cost parameters for this machine: a JSON file (numacoll calibrate writes one, "
                                       "see docs/params.md) or a bundled name; default: generic");
    command->add_flag("--calibrate", options->calibrate,
                      "calibrate this machine first (numacoll calibrate), into the output folder's params-calibrated.json")
        ->excludes(params);
    command->add_flag("--quick", options->quick, "with --calibrate: the quick calibration (under a minute)");
    auto* attempts_option = command->add_option(
        "--attempts", options->attempts,
        "with --calibrate: when the host's speed moves more than 20% during the run (the host check before and "
        "after it), calibrate and measure again, this many times at most; a calibration whose points disagree is "
        "also made again, as many times");
    attempts_option->check(CLI::Range(1, 10))->capture_default_str();
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--trace-bytes", options->trace_bytes, "the size whose timelines go to trace-*.csv")
        ->capture_default_str();
    add_iteration_options(*command, options->iterations, &options->warmup);
    command->add_option("--from", options->from,
                        "validate a saved schedule (text or JSON, one node, made for this machine) instead of "
                        "generating them; its one point is traced");
    command->add_option("--rounds", options->rounds,
                        "measure every point this many times, interleaved, and pool the iterations")
        ->check(CLI::Range(1, 1000))
        ->capture_default_str();
    command->add_option("--output-dir,-o", options->output_dir, "folder for validation.csv, summary.txt, traces")
        ->capture_default_str();
    command->add_flag("--quiet,-q", options->quiet, "no progress on stderr");
    command->footer("Examples:\n  numacoll validate -o out && numacoll plot out\n"
                    "  numacoll validate --threads 2 --bytes 64,4KiB,1MiB --params my-machine.json -o out\n"
                    "  numacoll validate --calibrate -c bcast --algorithm tree,binomial,linear -o out\n"
                    "  numacoll dag -t live --ranks 2 -b 4KiB -f json -o s.json && numacoll validate --from s.json -o out\n"
                    "  mpirun -np 2 numacoll validate --engine mpi --threads 1 --params calibrated.json -o out");

    return [options, attempts_option, command] {
        const bool trace_bytes_given = command->count("--trace-bytes") > 0;
        if (options->engine == "mpi") {
            if (!options->from.empty())
                throw UsageError("--from goes with --engine threads (validate --engine mpi generates its schedules for "
                                 "the processes of mpirun)");
            return validate_on_mpi_processes(*options, trace_bytes_given, *command);
        }
        if (options->algorithm.single_copy)
            throw UsageError("--single-copy copies between processes: validate it with --engine mpi, one process per rank");
        if (const int code = agree_to_run_alone(*command, "--engine threads runs in this one process (--engine mpi "
                                                          "runs one process per node)"))
            return code;
        if (options->quick && !options->calibrate) throw UsageError("--quick goes with --calibrate");
        if (attempts_option->count() > 0 && !options->calibrate) throw UsageError("--attempts goes with --calibrate");
        // A saved schedule brings its layout and its one point; otherwise the
        // options make them.
        std::optional<sched::Schedule> saved;
        std::optional<algo::Layout> layout_made;
        std::vector<sched::CollectiveSpec> specs;
        std::uint64_t trace_bytes = 0;
        if (!options->from.empty()) {
            refuse_generation_options_with_from(*command);
            if (trace_bytes_given)
                throw UsageError("--from validates one point, which is traced: --trace-bytes has no choice to make");
            saved = load_schedule(options->from);
            if (saved->nodes != 1)
                throw UsageError(fmt::format("'{}' is a schedule for {} nodes: validate runs one node on this "
                                             "process's threads (mpirun ... numacoll run --engine mpi --from "
                                             "executes it on processes)",
                                             options->from, saved->nodes));
            layout_made = algo::layout_of_schedule(*saved, load_this_machine(options->machine.topology),
                                                   fmt::format("'{}'", options->from));
            specs = {saved->spec};
            trace_bytes = saved->spec.bytes;
        } else {
            layout_made = options->machine.layout_here();
            specs = sweep_specs(options->algorithm, options->bytes);
            for (const auto& spec : specs) (void)algo::check_schedule_request(spec, *layout_made);
            trace_bytes = trace_bytes_of(*options, trace_bytes_given);
        }
        const algo::Layout& layout = *layout_made;
        const auto& machine = layout.machine;
        std::function<sched::Schedule(const sched::CollectiveSpec&)> make_schedule;  // empty: generate
        if (saved)
            make_schedule = [&saved](const sched::CollectiveSpec&) { return *saved; };
        else if (options->algorithm.as_processes())
            make_schedule = [&](const sched::CollectiveSpec& spec) {
                return options->algorithm.in_rank_form(algo::generate_schedule(spec, *layout_made));
            };
        costs::Params params = options->calibrate ? costs::Params{} : costs::params_for(*machine, options->params);
        // Only once the arguments are known to be good: a refused run makes no folder.
        const std::unique_ptr<OutputFolder> folder =
            open_output_folder(options->output_dir, "validate", validate_inputs(*options),
                               validation_folder_scope());
        exec::ExecOptions exec_options;
        exec_options.timed_iterations = options->iterations;
        exec_options.warmup_iterations = options->warmup;
        exec_options.pin_threads = !options->machine.no_pin;
        // A run during which the host changed speed compares the model with
        // another machine than the calibrated one: it is made again.
        const int attempts = options->calibrate ? options->attempts : 1;
        std::string summary;
        for (int attempt = 1; attempt <= attempts; ++attempt) {
            if (options->calibrate)
                params = calibrate_into_folder(
                    *folder, {options->quick, "generic", false, options->quiet, false, options->attempts});
            announce_generic_params(params, *machine, "validate", options->quiet);
            const sim::PlatformModel platform(machine, params, 1);
            const std::string note =
                attempt == 1 ? std::string()
                             : fmt::format("attempt {} of {}: the host's speed moved more than {:.0f}% during each "
                                           "earlier one, which was calibrated and measured again",
                                           attempt, attempts, 100 * calibrate::host_drift_limit);
            bool host_moved = false;
            // A saved schedule was laid out by whoever made it.
            reached_stage("simulating");
            summary = write_validation_folder(folder->staging(), layout, platform, specs, exec_options, trace_bytes,
                                              options->quiet, saved ? "" : options->machine.placement_name(),
                                              options->rounds, &host_moved, note, nullptr, make_schedule);
            if (!host_moved) break;
            if (!options->quiet && attempt < attempts)
                std::cerr << fmt::format("validate: the host's speed moved more than {:.0f}% during the run: calibrating "
                                         "and measuring again ({} of {} attempts made)\n",
                                         100 * calibrate::host_drift_limit, attempt, attempts);
        }
        reached_stage("writing");
        folder->commit();
        std::cout << summary << fmt::format("wrote validation.csv and summary.txt into {}\n", options->output_dir);
        return 0;
    };
}

CommandRun add_plot_command(CLI::App& app) {
    auto* command = app.add_subcommand("plot", "draw a validation folder with matplotlib (latency.png, compare-, error-, best- and gantt- pictures)");
    auto folder = std::make_shared<std::string>();
    command->add_option("folder", *folder, "a folder written by numacoll validate")->required();
    add_quiet_flag(*command);
    return [folder] {
        if (!std::filesystem::is_regular_file(std::filesystem::path(*folder) / "validation.csv"))
            throw InputError(fmt::format("no validation.csv in '{}': run numacoll validate -o {} first", *folder, *folder));
        // The pictures are this run's: the folder's other files stay as they are.
        OutputFolder::Scope pictures;
        pictures.replaces = [](const std::string& name) { return name.ends_with(".png"); };
        pictures.also_earlier = plots::is_validation_picture;
        const std::unique_ptr<OutputFolder> out = open_output_folder(*folder, "plot", {}, pictures);
        const std::vector<std::string> drawn = plots::plot_folder(*folder, out->staging());
        out->commit();
        for (const auto& picture : drawn) std::cout << out->final_path(picture) << "\n";
        return 0;
    };
}

}  // namespace numacoll::cli

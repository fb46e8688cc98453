// numacoll run: execute collectives for real: on this machine's cores (pinned
// threads, NUMA-placed buffers), or with --engine mpi on one MPI process per
// node (under mpirun, threads inside each), and write their measured times.
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "algorithms/registry.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/launcher_placement.hpp"
#include "cli/mpi_agreement.hpp"
#include "cli/mpi_failures.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "exec/mpi_executor.hpp"
#include "exec/process_executor.hpp"
#include "exec/threads_executor.hpp"
#include "results/result_row.hpp"
#include "common/output_file.hpp"
#include "results/trace_writer.hpp"

namespace numacoll::cli {

namespace {

struct RunOptions {
    std::string engine = "threads";
    std::string mpi_thread = "multiple";
    MachineOptions machine;
    AlgorithmOptions algorithm;
    bool oversubscribe = false;
    std::string bytes = "8B:16MiB";
    int iterations = exec::iterations_by_size;
    int warmup = exec::iterations_by_size_warmup;
    bool no_pin = false;
    std::string output = "-";
    std::string trace;
    std::string from;
    bool quiet = false;
};


// What every engine needs before the first point: the outputs (opened first,
// so that a path that cannot be written fails before any work), the live
// machine and the schedules.
struct RunSetup {
    std::unique_ptr<results::ResultWriter> output;
    std::unique_ptr<results::TraceWriter> trace;
    std::shared_ptr<const topo::Machine> machine;
    std::vector<sched::Schedule> schedules;
};

RunSetup prepare_run(const RunOptions& options, bool writes_outputs) {
    RunSetup setup;
    check_distinct_paths({{"-o", options.output, true},
                          {"--trace", options.trace, true},
                          {"--from", options.from, false},
                          {"--topology", options.machine.topology, false}});
    if (writes_outputs) {
        setup.output = std::make_unique<results::ResultWriter>(options.output);
        if (!options.trace.empty()) {
            discard_earlier_output(options.trace);  // an interrupted run keeps its rows, never beside an older trace
            setup.trace = std::make_unique<results::TraceWriter>(options.trace);
        }
    }
    setup.machine = load_this_machine(options.machine.topology);
    // Before generating for them (without --oversubscribe the layout refuses more than the PUs).
    const int threads = options.machine.ranks_per_node;
    if (options.oversubscribe && threads > 0) exec::check_thread_count(threads, *setup.machine);
    if (!options.from.empty()) {
        setup.schedules.push_back(load_schedule(options.from));
        check_schedule_fits(setup.schedules.back(), setup.machine, options.from);
    } else {
        const algo::Layout layout = options.machine.layout(setup.machine, options.oversubscribe, true);
        const auto specs = sweep_specs(options.algorithm, options.bytes);
        for (const auto& spec : specs) exec::check_vector_memory(spec.bytes, layout.ranks_per_node, *setup.machine);
        for (const auto& spec : specs)
            setup.schedules.push_back(options.algorithm.in_rank_form(algo::generate_schedule(spec, layout)));
    }
    return setup;
}

exec::ExecOptions exec_options_of(const RunOptions& options) {
    exec::ExecOptions exec_options;
    exec_options.timed_iterations = options.iterations;
    exec_options.warmup_iterations = options.warmup;
    exec_options.pin_threads = !options.no_pin;
    exec_options.trace = !options.trace.empty();
    return exec_options;
}

void write_point(const RunOptions& options, RunSetup& setup, const sched::Schedule& schedule, results::ResultRow& row,
                 const results::Provenance& provenance, const sched::Timeline& timeline) {
    // A schedule from a file was laid out by whoever made it.
    row.placement = options.from.empty() ? options.machine.placement_name() : "";
    row.topology = setup.machine->source;
    row.provenance = provenance;
    setup.output->write(row);  // each point as it finishes
    if (setup.trace) setup.trace->write(schedule, timeline);
}

void report_point(const RunOptions& options, int done, std::size_t points, const sched::Schedule& schedule,
                  const TimeStats& s, const std::string& where) {
    if (options.quiet) return;
    const auto& spec = schedule.spec;
    std::cerr << fmt::format("[{}/{}] {} {} {} on {} {}: median {:.0f} ns (p10 {:.0f}, p90 {:.0f}), verified\n", done,
                             points, sched::to_string(spec.collective), spec.algorithm, format_bytes(spec.bytes),
                             schedule.rank_count(), where, s.median_ns, s.p10_ns, s.p90_ns);
}

// One process per node (ranks as threads), or one per rank (ranks as
// processes sharing their node's memory), under mpirun; failures end every
// process as cli/mpi_failures.hpp says.
int run_on_mpi_processes(const RunOptions& given, const CLI::App& command) {
    RunOptions options = given;
    const bool ranks_are_processes = options.algorithm.as_processes();
    const int nodes = options.machine.nodes;
    if (nodes > 1 && !exec::MpiWorld::launched_by_mpirun())
        throw UsageError(fmt::format("--engine mpi with --nodes {} runs under mpirun, one process per {}: mpirun -np "
                                     "{} numacoll run --engine mpi --nodes {} ...",
                                     nodes, ranks_are_processes ? "rank" : "node",
                                     ranks_are_processes ? "RANKS" : std::to_string(nodes), nodes));
    const auto refuse_process_count = [&](int started_processes) {
        const long long needed = static_cast<long long>(options.machine.ranks_per_node) * nodes;
        throw UsageError(fmt::format("--nodes {} of {} ranks need {} MPI processes, one per rank; {} started "
                                     "(mpirun -np {})",
                                     nodes, options.machine.ranks_per_node, needed, started_processes, needed));
    };
    // Without a launcher this is one process: say so before MPI starts.
    if (ranks_are_processes && options.machine.ranks_per_node > 1 && !exec::MpiWorld::launched_by_mpirun())
        refuse_process_count(1);
    // A process of one rank has one thread: it asks for no more than MPI_THREAD_SINGLE.
    const int thread_level = ranks_are_processes               ? MPI_THREAD_SINGLE
                             : options.mpi_thread == "funneled" ? MPI_THREAD_FUNNELED
                                                                : MPI_THREAD_MULTIPLE;
    const StartedMpi started = start_mpi(command, thread_level);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    // What a process stands for in the lines it says.
    const char* unit = ranks_are_processes ? "rank" : "node";
    if (ranks_are_processes)
        if (const int code = follow_launcher_binding(world, command, options.machine.topology, !options.no_pin, nodes,
                                                     options.machine.pus, options.machine.from_launcher, unit))
            return code;
    RunSetup setup;
    if (const int code = agree_on(world, [&] {
            if (ranks_are_processes) {
                const int per_node = options.machine.ranks_per_node;
                if (per_node == 0 && world.size() % nodes != 0)
                    throw UsageError(fmt::format("{} MPI processes do not make {} nodes of as many ranks each: start "
                                                 "a multiple of {} (mpirun -np)",
                                                 world.size(), nodes, nodes));
                if (per_node == 0) options.machine.ranks_per_node = world.size() / nodes;
                if (static_cast<long long>(options.machine.ranks_per_node) * nodes != world.size())
                    refuse_process_count(world.size());
            } else if (command.count("--nodes") == 0) {
                options.machine.nodes = world.size();  // one process per node: the job's size is the node count
            } else if (world.size() != nodes) {
                throw UsageError(fmt::format("--nodes {} needs {} MPI processes, one per node; {} started (mpirun -np {})",
                                             nodes, nodes, world.size(), nodes));
            }
            setup = prepare_run(options, world.rank() == 0);
        }, unit))
        return code;
    exec::ExecOptions exec_options = exec_options_of(options);
    results::Provenance provenance = results::current_provenance();
    provenance.mpi = world.describe();
    const std::string where =
        ranks_are_processes
            ? fmt::format("MPI processes sharing memory, {} node{}", nodes, nodes == 1 ? "" : "s")
            : fmt::format("threads, {} MPI process{} ({}{})", world.size(), world.size() == 1 ? "" : "es",
                          world.thread_level_name(), world.thread_multiple() ? "" : ", a communication thread");
    int done = 0;
    return run_agreed(world, [&] {
        for (const auto& schedule : setup.schedules) {
            const exec::MpiExecResult result =
                ranks_are_processes ? exec::run_on_processes(schedule, *setup.machine, exec_options, world)
                                    : exec::run_on_mpi(schedule, *setup.machine, exec_options, world);
            const bool pinned_everywhere = world.true_everywhere(result.threads_pinned);
            const bool bound_everywhere = world.true_everywhere(result.memory_bound);
            ++done;
            on_writer(world, [&] {
                results::ResultRow row =
                    results::measured_row(schedule, result.stats, pinned_everywhere, bound_everywhere);
                row.engine = "mpi";
                write_point(options, setup, schedule, row, provenance, result.timeline);
                report_point(options, done, setup.schedules.size(), schedule, result.stats, where);
            });
        }
        on_writer(world, [&] {
            if (setup.trace) setup.trace->finish();
            setup.output->finish();
        });
    }, unit);
}

}  // namespace

CommandRun add_run_command(CLI::App& app) {
    auto* command = app.add_subcommand("run", "execute collectives on this machine's cores and measure them");
    auto options = std::make_shared<RunOptions>();
    options->machine.add_to(*command, "live", true, "--threads,-P,--ranks,-p");
    options->algorithm.add_to(*command, true, true);
    command->add_option("--engine", options->engine,
                        "threads (one node, this process) or mpi (under mpirun: one MPI process per node, or per rank with "
                        "--ranks-as processes)")
        ->check(CLI::IsMember({"threads", "mpi"}))
        ->capture_default_str();
    command->add_option("--mpi-thread", options->mpi_thread,
                        "with --engine mpi: the thread support to ask MPI for: multiple (every thread calls MPI) or "
                        "funneled (the main thread calls MPI for all: a communication thread)")
        ->check(CLI::IsMember({"multiple", "funneled"}))
        ->capture_default_str();
    command->add_flag("--oversubscribe", options->oversubscribe,
                      "allow more threads than PUs (they share PUs; correct, but timings mean little)");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    add_iteration_options(*command, options->iterations, &options->warmup);
    command->add_flag("--no-pin", options->no_pin, "do not pin threads to their PUs");
    command->add_option("--output,-o", options->output, "result CSV, - for standard output")->capture_default_str();
    command->add_option("--trace", options->trace, "write every task's start and end (last iteration) to this file: CSV; Chrome's trace format for a .json name "
                        "(Perfetto, chrome://tracing); Paje for a .paje name (pj_dump, ViTE)");
    command->add_option("--from", options->from,
                        "execute this schedule file (text or JSON, made for this machine) instead of generating");
    command->add_flag("--quiet,-q", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  numacoll run --threads 2 --bytes 8B:16MiB -o run.csv\n"
        "  numacoll run --threads 16 --oversubscribe --bytes 64,1MiB --iterations 20\n"
        "  numacoll run --bcast 2stage --bytes 4KiB --trace trace.csv\n"
        "  mpirun -np 4 --map-by node numacoll run --engine mpi --nodes 4 --threads 8 -c allreduce -o run.csv\n"
        "  mpirun -np 16 --bind-to none numacoll run --engine mpi --ranks-as processes -c allreduce -o run.csv");

    return [options, command] {
        if (!options->from.empty()) refuse_generation_options_with_from(*command);
        if (options->engine != "mpi" && command->count("--mpi-thread") > 0)
            throw UsageError("--mpi-thread goes with --engine mpi");
        if (options->algorithm.as_processes() && command->count("--mpi-thread") > 0)
            throw UsageError("--mpi-thread goes with ranks as threads: a process of one rank calls MPI from one thread");
        if (options->engine == "mpi") return run_on_mpi_processes(*options, *command);
        if (options->algorithm.single_copy)
            throw UsageError("--single-copy copies between processes: run it with --engine mpi, one process per rank");
        if (const int code = agree_to_run_alone(*command, "--engine threads runs in this one process (--engine mpi "
                                                          "runs one process per node)"))
            return code;
        if (options->machine.nodes != 1)
            throw UsageError(fmt::format("the thread engine runs one node: --nodes must be 1 (got {}); start one "
                                         "process per node with mpirun -np {} numacoll run --engine mpi",
                                         options->machine.nodes, options->machine.nodes));
        RunSetup setup = prepare_run(*options, true);
        exec::ExecOptions exec_options = exec_options_of(*options);
        const results::Provenance provenance = results::current_provenance();
        int done = 0;
        for (const auto& schedule : setup.schedules) {
            const exec::ExecResult result = exec::run_on_threads(schedule, *setup.machine, exec_options);
            results::ResultRow row =
                results::measured_row(schedule, result.stats, result.threads_pinned, result.memory_bound);
            write_point(*options, setup, schedule, row, provenance, result.timeline);
            report_point(*options, ++done, setup.schedules.size(), schedule, result.stats, "threads");
        }
        if (setup.trace) setup.trace->finish();
        setup.output->finish();
        return 0;
    };
}

}  // namespace numacoll::cli

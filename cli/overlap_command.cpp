// numacoll overlap: how much of a nonblocking collective hides behind
// computation, per size and progress strategy, reported as the OSU
// benchmarks report it (overlap/osu_overlap.hpp): the collective alone
// (issued and waited for), the computation alone, and both, with the
// computation sized to the collective's own time by default.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "algorithms/registry.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/mpi_failures.hpp"
#include "cli/mpi_agreement.hpp"
#include "plots/plotting.hpp"
#include "common/output_folder.hpp"
#include "common/byte_size.hpp"
#include "common/duration.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "common/statistics.hpp"
#include "exec/kernels.hpp"
#include "exec/mpi_executor.hpp"
#include "exec/mpi_native.hpp"
#include "exec/mpi_world.hpp"
#include "exec/threads_executor.hpp"
#include "overlap/compose.hpp"
#include "overlap/osu_overlap.hpp"
#include "results/csv_writer.hpp"
#include "results/result_row.hpp"
#include "sim/engine.hpp"

namespace numacoll::cli {

namespace {

struct OverlapOptions {
    MachineOptions machine;
    AlgorithmOptions algorithm;
    std::string params;
    std::string bytes = "8B:4MiB";
    std::string compute = "auto";
    std::string test_every = "never,1/4";
    std::string progress = "manual,thread,shared-thread";
    std::string engine = "sim";
    std::string folder = "numacoll-overlap";
    bool no_plots = false;
    bool quiet = false;  // read by main.cpp: it silences every progress report
    int iterations = exec::iterations_by_size;
    int warmup = exec::iterations_by_size_warmup;
};

// When the progress calls come: never, every DURATION, or K calls' worth of
// the computation ("1/4": three calls, between four grains).
struct TestInterval {
    std::optional<double> every_ns;  // a fixed interval
    int fraction = 0;                // 1/fraction of the computation
    std::string text;

    std::optional<double> for_compute(double compute_ns) const {
        if (fraction > 0) return compute_ns > 0 ? std::optional<double>(compute_ns / fraction) : std::nullopt;
        return every_ns;
    }
};

std::vector<TestInterval> parse_test_intervals(const std::string& text) {
    std::vector<TestInterval> intervals;
    for (const std::string& item : split_list(text, "--test-every")) {
        TestInterval interval;
        interval.text = item;
        if (item == "never") {
        } else if (item.starts_with("1/")) {
            const std::string count = item.substr(2);
            if (count.empty() || count.size() > 6 || !std::all_of(count.begin(), count.end(), ::isdigit) ||
                std::stoi(count) < 2)
                throw UsageError(fmt::format("--test-every '{}': a fraction is 1/K with K from 2 to 999999", item));
            interval.fraction = std::stoi(count);
        } else {
            interval.every_ns = parse_duration_ns(item, "--test-every");
            if (*interval.every_ns <= 0) throw UsageError("--test-every: an interval above 0, or never");
        }
        intervals.push_back(interval);
    }
    return intervals;
}

std::vector<sim::ProgressStrategy> parse_strategies(const std::string& text) {
    std::vector<sim::ProgressStrategy> strategies;
    for (const std::string& item : split_list(text, "--progress")) strategies.push_back(sim::parse_progress_strategy(item));
    return strategies;
}

std::vector<std::string> overlap_columns() {
    std::vector<std::string> columns = results::result_columns();
    for (const char* extra : {"progress", "test_every", "compute_ns", "pure_ns", "overall_ns", "overlap_percent"})
        columns.push_back(extra);
    return columns;
}

// At a second per large simulation, about a day.
constexpr std::size_t max_points = 100000;

// One engine's answer for one schedule: its time, and for a measurement the
// spread and whether threads were pinned and memory bound.
struct Timed {
    double time_ns = 0;
    std::optional<TimeStats> stats;
    bool pinned = false, bound = false;
};

// The logical PUs of the progress threads under `strategy` on the real
// engines, for ranks on `rank_pus`: the ranks' own (shared-thread), or PUs
// no rank uses (thread).
std::vector<int> progress_thread_pus(sim::ProgressStrategy strategy, const std::vector<int>& rank_pus,
                                     const topo::Machine& machine) {
    std::vector<int> pus;
    if (strategy == sim::ProgressStrategy::manual) return pus;
    if (strategy == sim::ProgressStrategy::offload)
        throw UsageError("--progress offload: the threads of one node have no NIC to offload to (simulate it with --engine sim)");
    if (strategy == sim::ProgressStrategy::shared_thread) return rank_pus;
    std::vector<bool> used(static_cast<std::size_t>(machine.pu_count()), false);
    for (int pu : rank_pus)
        if (pu >= 0 && pu < machine.pu_count()) used[static_cast<std::size_t>(pu)] = true;
    for (int pu = 0; pu < machine.pu_count() && pus.size() < rank_pus.size(); ++pu)
        if (!used[static_cast<std::size_t>(pu)]) pus.push_back(pu);
    if (pus.size() < rank_pus.size())
        throw UsageError(fmt::format("--progress thread needs a spare PU per rank: {} ranks leave {} of this machine's {} "
                                     "PUs (use fewer ranks, or shared-thread)",
                                     rank_pus.size(), pus.size(), machine.pu_count()));
    return pus;
}

// What every engine of one run shares.
struct Sweep {
    std::vector<sim::ProgressStrategy> strategies;
    std::vector<TestInterval> intervals;
    std::optional<double> fixed_compute_ns;
    std::optional<double> fixed_compute_flops;  // --compute NflopS: the duration follows each engine's rate

    // The computation per rank on an engine whose cores run `flops_per_ns`,
    // when the collective alone takes `pure_ns`.
    double compute_ns(double pure_ns, double flops_per_ns) const {
        if (fixed_compute_flops) return *fixed_compute_flops / flops_per_ns;
        return fixed_compute_ns.value_or(pure_ns);
    }
    std::vector<sched::CollectiveSpec> specs;
    std::size_t points = 0;  // per engine
};

// The computation alone, as OSU times it: the median of nine runs of the
// kernel on this core.
double measured_compute_ns(double compute_ns, double flops_per_ns) {
    if (compute_ns <= 0) return 0;
    std::vector<double> runs;
    for (int run = 0; run < 9; ++run) {
        const auto start = exec::Clock::now();
        exec::compute_flops(compute_ns * flops_per_ns);
        runs.push_back(exec::nanoseconds(start, exec::Clock::now()));
    }
    return summarize_times(runs).median_ns;
}

// The rate at which this machine's cores run the kernel, in flops per ns;
// in an MPI job, process 0's, so that every process makes the same schedules.
double measured_flops_per_ns(const exec::MpiWorld* world) {
    const double rate = exec::measure_compute_flops_per_ns();
    return world ? world->sum_over_processes({world->rank() == 0 ? rate : 0.0})[0] : rate;
}

// A row of overlap.csv: the result row, then what this command adds to it.
std::vector<std::string> overlap_fields(const results::ResultRow& row, sim::ProgressStrategy strategy,
                                        const TestInterval& interval, double compute_ns, double pure_ns,
                                        double overall_ns) {
    std::vector<std::string> fields = results::result_fields(row);
    fields.push_back(sim::to_string(strategy));
    fields.push_back(interval.text);
    fields.push_back(fmt::format("{:.3f}", compute_ns));
    fields.push_back(fmt::format("{:.3f}", pure_ns));
    fields.push_back(fmt::format("{:.3f}", overall_ns));
    fields.push_back(fmt::format("{:.2f}", overlap::osu_overlap_percent(pure_ns, compute_ns, overall_ns)));
    return fields;
}

// overlap.csv's rows as they are made, and the short table stdout shows at
// the end: per collective, algorithm, engine, progress strategy and test
// interval, the overlap at each size.
class OverlapRows {
public:
    OverlapRows(const std::string& path) : csv_(path, overlap_columns()) {}

    void add(const results::ResultRow& row, sim::ProgressStrategy strategy, const TestInterval& interval,
             double compute_ns, double pure_ns, double overall_ns) {
        csv_.row(overlap_fields(row, strategy, interval, compute_ns, pure_ns, overall_ns));
        const std::string series = fmt::format("{} {} ({}, progress {}, test {})", row.collective, row.algorithm,
                                               row.engine, sim::to_string(strategy), interval.text);
        auto found = std::find_if(table_.begin(), table_.end(), [&](const auto& entry) { return entry.first == series; });
        if (found == table_.end()) found = table_.insert(table_.end(), {series, ""});
        found->second += fmt::format("  {} {:.0f}%", format_bytes(row.bytes),
                                     overlap::osu_overlap_percent(pure_ns, compute_ns, overall_ns));
    }

    void finish() { csv_.finish(); }

    std::string summary() const {
        std::string text = "overlap of each collective with computation as long as it (OSU's overlap, %):\n";
        for (const auto& [series, sizes] : table_) text += "  " + series + ":" + sizes + "\n";
        return text;
    }

private:
    results::CsvWriter csv_;
    std::vector<std::pair<std::string, std::string>> table_;  // series -> "  8B 12%  64KiB 40%", in order
};

// What one engine needs for its rows, made and checked before any engine
// runs: the machine, the layout, and for a simulation the params and the
// platform.
struct EngineSetup {
    std::string engine;
    std::shared_ptr<const topo::Machine> machine;
    std::optional<algo::Layout> layout;
    std::optional<costs::Params> params;
    std::optional<sim::PlatformModel> platform;
};

// Makes `engine`'s setup and checks every point of the sweep on it as sim
// checks a schedule before generating it, and every progress strategy: a
// UsageError names what is wrong before anything is simulated or measured.
// `world`: the MPI job (engines mpi and mpi-native).
EngineSetup prepare_engine(const OverlapOptions& options, const std::string& engine, const Sweep& sweep,
                           const exec::MpiWorld* world) {
    EngineSetup setup;
    setup.engine = engine;
    // Ranks as processes: the process form, simulated or run on threads (the
    // process engine runs the collective alone).
    if (options.algorithm.as_processes() && (engine == "mpi" || engine == "mpi-native"))
        throw UsageError(fmt::format("--ranks-as processes overlaps with --engine sim or threads, not {}: between MPI "
                                     "processes numacoll runs the collective alone",
                                     engine));
    if (options.algorithm.single_copy && engine != "sim")
        throw UsageError("--single-copy copies between processes: overlap it with --engine sim");
    if (engine == "sim") {
        setup.machine = options.machine.load();
        setup.layout.emplace(options.machine.layout(setup.machine));
        setup.params.emplace(costs::params_for(*setup.machine, options.params));
        if (!setup.params->compute_flops_per_ns)
            throw UsageError(fmt::format("params '{}' give no core.compute_flops_per_ns, which turns the computation "
                                         "into flops (docs/params.md)",
                                         setup.params->origin));
        if (options.algorithm.single_copy) (void)costs::single_copy_costs(*setup.params);
    } else {
        const bool over_mpi = engine == "mpi" || engine == "mpi-native";
        if (!over_mpi && options.machine.nodes != 1) throw UsageError("--engine threads runs one node: --nodes 1");
        const std::string topology = options.machine.topology;
        setup.machine = load_this_machine(topology);
        setup.layout.emplace(live_layout(options.machine.ranks_per_node, false, options.machine.placement_name(),
                                         options.machine.pus, over_mpi ? world->size() : 1, topology));
    }
    if (engine == "mpi-native") return setup;  // the library's own collectives: no schedule to check
    for (const auto& spec : sweep.specs) {
        (void)algo::check_schedule_request(spec, *setup.layout);
        if (engine != "sim") exec::check_vector_memory(spec.bytes, setup.layout->ranks_per_node, *setup.machine);
    }
    if (engine != "sim") {
        std::vector<int> rank_pus;
        for (int r = 0; r < setup.layout->ranks_per_node; ++r)
            rank_pus.push_back(setup.layout->ranks[static_cast<std::size_t>(r)].pu);
        for (const sim::ProgressStrategy strategy : sweep.strategies)
            (void)progress_thread_pus(strategy, rank_pus, *setup.machine);
    }
    return setup;
}

// One engine's rows: every schedule, strategy and test interval.
// `world`: the MPI job (engine mpi); `output`: null on the processes that
// do not write (all but process 0 of an MPI job).
void sweep_engine(const OverlapOptions& options, EngineSetup& setup, const Sweep& sweep, OverlapRows* output,
                  ProgressReport& progress, std::size_t& done, const exec::MpiWorld* world = nullptr) {
    const std::string& engine = setup.engine;
    const bool simulated = engine == "sim";
    const bool over_mpi = engine == "mpi";
    const auto& strategies = sweep.strategies;
    const auto& intervals = sweep.intervals;
    const auto& specs = sweep.specs;
    const std::shared_ptr<const topo::Machine>& machine = setup.machine;
    const algo::Layout& layout = *setup.layout;
    const std::optional<costs::Params>& params = setup.params;
    double flops_per_ns = 0;
    if (simulated) {
        announce_generic_params(*params, *machine, "overlap", options.quiet);
        flops_per_ns = params->compute_flops_per_ns->value;
        if (!setup.platform) setup.platform.emplace(machine, *params, layout.nodes);
    } else {
        flops_per_ns = measured_flops_per_ns(over_mpi ? world : nullptr);
    }
    const std::optional<sim::PlatformModel>& platform = setup.platform;
    auto time_of = [&](const sched::Schedule& schedule, sim::ProgressStrategy strategy) {
        Timed timed;
        if (simulated) {
            timed.time_ns = sim::simulate(schedule, *platform, strategy).timeline.makespan_ns;
            return timed;
        }
        exec::ExecOptions run_options;
        run_options.timed_iterations = options.iterations;
        run_options.warmup_iterations = options.warmup;
        exec::resolve_iterations(run_options, schedule.spec.bytes);
        std::vector<int> rank_pus;
        for (const sched::RankInfo& rank : schedule.ranks) rank_pus.push_back(rank.pu);
        run_options.progress_thread_pus = progress_thread_pus(strategy, rank_pus, *machine);
        const exec::ExecResult result = over_mpi ? exec::run_on_mpi(schedule, *machine, run_options, *world)
                                                 : exec::run_on_threads(schedule, *machine, run_options);
        timed.time_ns = result.stats.median_ns;
        timed.stats = result.stats;
        timed.pinned = result.threads_pinned;
        timed.bound = result.memory_bound;
        return timed;
    };
    // The computation alone: measured on a real engine, its length in a simulation.
    auto compute_alone_ns = [&](double compute_ns) {
        return simulated ? compute_ns : measured_compute_ns(compute_ns, flops_per_ns);
    };

    results::Provenance provenance = results::current_provenance();
    if (over_mpi) provenance.mpi = world->describe();
    for (const auto& spec : specs) {
        const sched::Schedule collective = options.algorithm.in_rank_form(algo::generate_schedule(spec, layout));
        for (const sim::ProgressStrategy strategy : strategies) {
            // The collective alone, issued and waited for, as OSU times it first.
            const double pure_ns = time_of(overlap::compose(collective, {}, flops_per_ns), strategy).time_ns;
            const double compute_ns = sweep.compute_ns(pure_ns, flops_per_ns);
            const double compute_alone = compute_alone_ns(compute_ns);
            for (const TestInterval& interval : intervals) {
                overlap::ComputeSpec compute;
                compute.compute_ns = compute_ns;
                compute.test_every_ns = interval.for_compute(compute_ns);
                const sched::Schedule composed = overlap::compose(collective, compute, flops_per_ns);
                const Timed overall = time_of(composed, strategy);
                results::ResultRow row = overall.stats
                                             ? results::measured_row(composed, *overall.stats, overall.pinned, overall.bound)
                                             : results::simulated_row(composed, overall.time_ns);
                row.engine = engine;
                row.placement = options.machine.placement_name();
                row.topology = machine->source;
                row.params = params ? params->origin : "";
                row.provenance = provenance;
                const auto write = [&] {
                    if (output)
                        output->add(row, strategy, interval, compute_alone, pure_ns, overall.time_ns);
                };
                if (over_mpi)
                    on_writer(*world, write);  // every process learns whether process 0 could write it
                else
                    write();
                progress.advance(++done);
            }
        }
    }
}

// The MPI library's own nonblocking collectives (engine mpi-native), one
// rank per process, as osu_iallreduce runs them: the library's progress
// only, inside MPI_Test and MPI_Wait (rows for the manual strategy alone).
void sweep_native(const OverlapOptions& options, const Sweep& sweep, OverlapRows* output,
                  ProgressReport& progress, std::size_t& done, const exec::MpiWorld& world) {
    const auto machine = load_this_machine(options.machine.topology);
    const double flops_per_ns = measured_flops_per_ns(&world);
    results::Provenance provenance = results::current_provenance();
    provenance.mpi = world.describe();
    std::vector<std::pair<sched::Collective, std::uint64_t>> seen;
    for (const auto& listed : sweep.specs) {
        const auto key = std::pair{listed.collective, listed.bytes};
        const bool first = std::find(seen.begin(), seen.end(), key) == seen.end();
        if (first) seen.push_back(key);
        for (const sim::ProgressStrategy strategy : sweep.strategies) {
            // One library call stands for every algorithm of the list, under its own progress.
            if (!first || strategy != sim::ProgressStrategy::manual) {
                progress.advance(done += sweep.intervals.size());
                continue;
            }
            sched::CollectiveSpec spec = listed;
            spec.algorithm = "default";
            spec.options.clear();
            exec::ExecOptions run_options;
            run_options.timed_iterations = options.iterations;
            run_options.warmup_iterations = options.warmup;
            auto time_of = [&](const overlap::ComputeSpec& compute) {
                exec::NativeComputation computation;
                for (double grain_ns : overlap::grains_of(compute)) computation.grain_flops.push_back(grain_ns * flops_per_ns);
                computation.test_between = compute.test_every_ns.has_value();
                return exec::run_native_nonblocking(spec, *machine, run_options, world, computation);
            };
            const double pure_ns = time_of({}).stats.median_ns;
            const double compute_ns = sweep.compute_ns(pure_ns, flops_per_ns);
            const double compute_alone = measured_compute_ns(compute_ns, flops_per_ns);
            for (const TestInterval& interval : sweep.intervals) {
                overlap::ComputeSpec compute;
                compute.compute_ns = compute_ns;
                compute.test_every_ns = interval.for_compute(compute_ns);
                const exec::MpiExecResult overall = time_of(compute);
                sched::CollectiveSpec described = spec;
                described.options["compute_ns"] = fmt::format("{:.0f}", compute_ns);
                described.options["test_every_ns"] =
                    compute.test_every_ns ? fmt::format("{:.0f}", *compute.test_every_ns) : "never";
                results::ResultRow row = results::measured_row(exec::native_schedule(described, world.size()),
                                                               overall.stats, overall.threads_pinned, overall.memory_bound);
                row.engine = "mpi-native";
                row.placement = options.machine.placement_name();
                row.topology = machine->source;
                row.provenance = provenance;
                on_writer(world, [&] {
                    if (output)
                        output->add(row, strategy, interval, compute_alone, pure_ns, overall.stats.median_ns);
                });
                progress.advance(++done);
            }
        }
    }
}

Sweep parse_sweep(const OverlapOptions& options, std::size_t engines) {
    Sweep sweep;
    sweep.strategies = parse_strategies(options.progress);
    sweep.intervals = parse_test_intervals(options.test_every);
    if (options.compute.ends_with("flops")) {
        const std::string amount = options.compute.substr(0, options.compute.size() - 5);
        double flops = -1;
        try {
            std::size_t used = 0;
            flops = std::stod(amount, &used);
            if (used != amount.size()) flops = -1;
        } catch (const std::exception&) {
        }
        if (!(flops >= 0 && flops <= 1e15))
            throw UsageError(fmt::format("--compute '{}': an amount of flops from 0 to 1e15, e.g. 2e6flops", options.compute));
        sweep.fixed_compute_flops = flops;
    } else if (options.compute != "auto") {
        sweep.fixed_compute_ns = parse_duration_ns(options.compute, "--compute");
    }
    sweep.specs = sweep_specs(options.algorithm, options.bytes);
    sweep.points = sweep.specs.size() * sweep.strategies.size() * sweep.intervals.size();
    if (sweep.points * engines > max_points)
        throw UsageError(fmt::format("that is {} points ({} schedules x {} strategies x {} test intervals x {} engines); "
                                     "at most {}",
                                     sweep.points * engines, sweep.specs.size(), sweep.strategies.size(),
                                     sweep.intervals.size(), engines, max_points));
    return sweep;
}

// The table in place, the picture drawn, and the folder put in place.
void finish_folder(const OverlapOptions& options, OutputFolder& folder, OverlapRows& output) {
    output.finish();
    reached_stage("writing");
    std::vector<std::string> written = {"overlap.csv"};
    if (!options.no_plots)
        for (const auto& picture : plots::plot_folder(folder.staging(), folder.staging(), "plot_overlap", "overlap.csv",
                                      plots::picture_provenance(options.engine, options.machine.topology,
                                                                options.params.empty() ? "the machine's default"
                                                                                       : options.params)))
            written.push_back(picture);
    folder.commit();
    std::cout << output.summary();
    for (const std::string& name : written) std::cout << folder.final_path(name) << "\n";
}

// Every engine's setup, made and checked before any engine runs.
std::vector<EngineSetup> prepare_engines(const OverlapOptions& options, const std::vector<std::string>& engines,
                                         const Sweep& sweep, const exec::MpiWorld* world) {
    std::vector<EngineSetup> setups;
    for (const std::string& engine : engines) setups.push_back(prepare_engine(options, engine, sweep, world));
    return setups;
}

std::vector<CommandPath> overlap_inputs(const OverlapOptions& options) {
    return {{"--topology", options.machine.topology, false}, {"--params", options.params, false}};
}

// One process per node under mpirun: every process measures, process 0
// writes the folder (and the simulated rows); failures end every process
// (cli/mpi_failures.hpp).
int run_overlap_on_mpi(const OverlapOptions& given, const std::vector<std::string>& engines,
                       const CLI::App& command) {
    OverlapOptions options = given;
    const Sweep sweep = parse_sweep(options, engines.size());
    int nodes = options.machine.nodes;
    if (nodes > 1 && !exec::MpiWorld::launched_by_mpirun())
        throw UsageError(fmt::format("--engine mpi with --nodes {} runs under mpirun, one process per node: mpirun -np "
                                     "{} numacoll overlap --engine mpi --nodes {} ...",
                                     nodes, nodes, nodes));
    const StartedMpi started = start_mpi(command, MPI_THREAD_MULTIPLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    std::vector<EngineSetup> setups;
    std::unique_ptr<OutputFolder> folder;
    std::optional<OverlapRows> output;
    if (const int code = agree_on(world, [&] {
            if (command.count("--nodes") == 0)  // one process per node: the job's size is the node count
                nodes = options.machine.nodes = world.size();
            if (world.size() != nodes)
                throw UsageError(fmt::format("--nodes {} needs {} MPI processes, one per node; {} started (mpirun -np {})",
                                             nodes, nodes, world.size(), nodes));
            setups = prepare_engines(options, engines, sweep, &world);
            if (world.rank() != 0) return;
            folder = open_output_folder(options.folder, "overlap", overlap_inputs(options));
            output.emplace(folder->file("overlap.csv"));
        }))
        return code;
    return run_agreed(world, [&] {
        ProgressReport progress("overlap", "points", sweep.points * engines.size());
        std::size_t done = 0;
        if (world.rank() == 0) reached_stage("simulating");
        for (EngineSetup& setup : setups) {
            OverlapRows* rows = output ? &*output : nullptr;
            if (setup.engine == "mpi-native")
                sweep_native(options, sweep, rows, progress, done, world);
            else if (setup.engine == "mpi")
                sweep_engine(options, setup, sweep, rows, progress, done, &world);
            else  // simulated by process 0 alone, while the others wait
                on_writer(world, [&] { sweep_engine(options, setup, sweep, rows, progress, done); });
        }
        on_writer(world, [&] { finish_folder(options, *folder, *output); });
    });
}

int run_overlap(const OverlapOptions& options, const CLI::App& command) {
    const std::vector<std::string> engines = split_list(options.engine, "--engine");
    for (const std::string& engine : engines)
        if (engine != "sim" && engine != "threads" && engine != "mpi" && engine != "mpi-native")
            throw UsageError(fmt::format("--engine '{}': sim, threads, mpi or mpi-native", engine));
    const auto uses = [&](const char* engine) { return std::find(engines.begin(), engines.end(), engine) != engines.end(); };
    const bool over_mpi = uses("mpi") || uses("mpi-native");
    if (uses("threads") && over_mpi)
        throw UsageError("--engine threads with mpi: both measure this machine's cores; run one at a time");
    if ((uses("threads") || over_mpi) && options.machine.topology != "live" &&
        options.machine.topology.find(".xml") == std::string::npos)
        throw UsageError(fmt::format("--engine {} runs on this machine: --topology live (or a saved export of it), "
                                     "not '{}'",
                                     over_mpi ? "mpi" : "threads", options.machine.topology));
    if (over_mpi) return run_overlap_on_mpi(options, engines, command);
    if (const int code = agree_to_run_alone(command, "--engine sim and threads run in this one process (--engine mpi "
                                                     "measures with one process per node)"))
        return code;
    const Sweep sweep = parse_sweep(options, engines.size());
    std::vector<EngineSetup> setups = prepare_engines(options, engines, sweep, nullptr);
    const std::unique_ptr<OutputFolder> folder = open_output_folder(options.folder, "overlap", overlap_inputs(options));
    OverlapRows output(folder->file("overlap.csv"));
    ProgressReport progress("overlap", "points", sweep.points * engines.size());
    std::size_t done = 0;
    reached_stage("simulating");
    for (EngineSetup& setup : setups) sweep_engine(options, setup, sweep, &output, progress, done);
    finish_folder(options, *folder, output);
    return 0;
}

}  // namespace

CommandRun add_overlap_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "overlap", "how much of a nonblocking collective hides behind computation, per progress strategy (OSU's overlap)");
    auto options = std::make_shared<OverlapOptions>();
    options->machine.add_to(*command, "westmere", true);
    options->algorithm.add_to(*command, true, true);
    command->add_option("--params", options->params,
                        "cost parameters: a bundled name or a JSON file; default: the machine's own, else generic");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:4MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--compute", options->compute,
                        "computation per rank: auto (as long as the collective alone, as OSU does), a duration "
                        "(2500, 2.5us, 3ms), or an amount of work (2e6flops: its duration follows the params' "
                        "compute rate in a simulation, the cores' measured rate in a run)")
        ->capture_default_str();
    command->add_option("--test-every", options->test_every,
                        "when the computation calls the progress engine (MPI_Test), a comma list: never, a duration, "
                        "or 1/K (K grains, K-1 calls)")
        ->capture_default_str();
    command->add_option("--progress", options->progress,
                        "who advances the collective while ranks compute, a comma list: manual (only the ranks' own "
                        "calls), thread (a progress thread on a spare core), shared-thread (on the rank's core), "
                        "offload (the NIC runs the network protocol)")
        ->capture_default_str();
    command->add_option("--engine", options->engine,
                        "sim (simulate on SimGrid), threads (run on this machine's cores: one node, --topology live "
                        "or a saved export of it), mpi (one MPI process per node, under mpirun), mpi-native (the MPI "
                        "library's own MPI_Iallreduce, MPI_Ibcast..., one rank per process, under mpirun; manual "
                        "progress only), or several side by side in one table: sim,threads or sim,mpi,mpi-native")
        ->capture_default_str();
    add_iteration_options(*command, options->iterations, &options->warmup);
    command->add_option("--output-dir,-o,--output", options->folder, "folder for overlap.csv and overlap.png")->capture_default_str();
    command->add_flag("--no-plots", options->no_plots, "write the table but draw nothing");
    command->add_flag("-q,--quiet", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  numacoll overlap -t westmere --nodes 2 --ranks 1 -a tree,tiled --bytes 8:4MiB -o o\n"
        "  numacoll overlap --engine threads --ranks 2 -a tree,tiled --bytes 8:1MiB --progress manual,shared-thread -o m\n"
        "  mpirun -np 2 numacoll overlap --engine sim,mpi,mpi-native -t live --nodes 2 --ranks 1 -a tree,tiled -o p\n"
        "  numacoll overlap -t westmere --nodes 8 -a tree --compute 50us --test-every never,5us "
        "--progress manual,offload -o o2");
    return [options, command] { return run_overlap(*options, *command); };
}

}  // namespace numacoll::cli

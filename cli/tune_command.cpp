// numacoll tune: the fastest algorithm per collective, communicator shape and
// message size, predicted by the simulator or the closed-form models or
// measured on this machine's cores, written
// as numacoll's selection table, as Open MPI coll/tuned rules files, and as a
// picture per collective; --compare says where two such tables disagree.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include "algorithms/registry.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "models/registry.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/progress.hpp"
#include "common/text_file.hpp"
#include "cli/mpi_agreement.hpp"
#include "cli/mpi_failures.hpp"
#include "cli/sweep_spreading.hpp"
#include "plots/plotting.hpp"
#include "exec/mpi_executor.hpp"
#include "exec/mpi_native.hpp"
#include "exec/process_executor.hpp"
#include "exec/mpi_world.hpp"
#include "exec/threads_executor.hpp"
#include "results/provenance.hpp"
#include "schedule/process_form.hpp"
#include "sim/engine.hpp"
#include "tune/ompi_rules.hpp"
#include "tune/recommendation.hpp"
#include "tune/selection_table.hpp"
#include "tune/sweep.hpp"

namespace numacoll::cli {

namespace {

struct TuneOptions {
    std::string topology = "westmere";
    std::string params;
    std::string collectives = "allreduce";
    std::string algorithms;
    std::string nodes = "1";
    std::string ranks = "0";
    std::string bytes = "8B:16MiB";
    std::string segments;
    std::string fanouts;
    int root = 0;
    std::string op = "sum";
    std::string datatype = "double";
    std::string engine = "sim";
    std::string ranks_as = "threads";  // processes: one MPI process per rank (--engine mpi)
    int iterations = exec::iterations_by_size;
    int warmup = exec::iterations_by_size_warmup;
    std::string folder = "numacoll-tune";
    std::vector<std::string> compare;
    bool topology_given = false;
    bool no_plots = false;
    bool quiet = false;  // read by main.cpp: it silences every progress report
    SpreadOptions spread;  // simulated and modelled timings only
};

// The largest sweep tune runs without being asked to go smaller: at a
// second per simulation of a large schedule, about a day.
constexpr std::size_t max_timings = 100000;

std::vector<int> whole_numbers(const std::string& text, const std::string& what, int low, int high) {
    std::vector<int> numbers;
    for (const std::string& item : split_list(text, what)) {
        std::size_t used = 0;
        long value = 0;
        try {
            value = std::stol(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used != item.size() || value < low || value > high)
            throw UsageError(fmt::format("{}: '{}' is not a whole number from {} to {}", what, item, low, high));
        if (std::find(numbers.begin(), numbers.end(), static_cast<int>(value)) == numbers.end())
            numbers.push_back(static_cast<int>(value));
    }
    std::sort(numbers.begin(), numbers.end());
    return numbers;
}

std::string read_table(const std::string& folder, const std::string& name) {
    return read_text_file((std::filesystem::path(folder) / name).string(), "tune table", 256u << 20);
}

int run_compare(const TuneOptions& options) {
    const std::string& first = options.compare[0];
    const std::string& second = options.compare[1];
    const auto first_rows = tune::selection_from_csv(read_table(first, "selection.csv"));
    const auto second_rows = tune::selection_from_csv(read_table(second, "selection.csv"));
    const auto first_timings = tune::timings_from_csv(read_table(first, "timings.csv"));
    const tune::Comparison comparison = tune::compare_tables(first_rows, second_rows, first_timings);
    if (comparison.common_points == 0)
        throw UsageError(fmt::format("'{}' and '{}' have no point in common (collective, nodes, ranks per node, size)",
                                     first, second));
    std::cout << fmt::format("{} points in both; the same algorithm at {} ({:.0f}%)", comparison.common_points,
                             comparison.agreeing_points, 100.0 * comparison.agreeing_points / comparison.common_points);
    if (comparison.tied_points > 0)
        std::cout << fmt::format("; at {} more ({:.0f}% with them) {}'s measurement cannot tell the two picks apart "
                                 "(the other's within its best's p10-p90 spread)",
                                 comparison.tied_points,
                                 100.0 * (comparison.agreeing_points + comparison.tied_points) / comparison.common_points,
                                 first);
    std::cout << "\n";
    if (!comparison.disagreements.empty())
        std::cout << fmt::format("where they differ (the cost: {}'s time of {}'s pick against its own best):\n", first,
                                 second);
    for (const tune::Disagreement& d : comparison.disagreements)
        std::cout << fmt::format("  {} {} node(s) x {} {}: {} picks {} ({:.1f} us), {} picks {} ({:.1f} us); cost {}{}\n",
                                 sched::to_string(d.first.collective), d.first.nodes, d.first.ranks_per_node,
                                 format_bytes(d.first.bytes), first, tune::describe(d.first.winner),
                                 d.first.time_ns / 1000.0, second, tune::describe(d.second.winner),
                                 d.second.time_ns / 1000.0,
                                 d.cost ? fmt::format("{:+.1f}%", 100.0 * *d.cost) : std::string("unknown"),
                                 d.within_spread ? " (within the measured spread)" : "");
    std::cout << fmt::format("which algorithm at which size, by {}'s timings:\n", first)
              << tune::recommendation_text(tune::recommend(first_timings));
    return 0;
}

// The folder's tables, in the order write_tune_folder makes them.
const std::vector<std::string>& folder_files() {
    static const std::vector<std::string> names = {"selection.csv",      "selection.json",  "timings.csv",
                                                   "ompi-rules.conf",    "ompi-rules-v2.conf", "ompi-rules.json",
                                                   "ompi-mca.txt"};
    return names;
}

// What every engine needs before the first timing: the request and its
// checks, the machine, its params and, on the process that writes them, the
// output folder (opened after every check, so that a refused run makes no
// folder, and before any timing, so that one that cannot be written fails at
// once).
struct TuneSetup {
    tune::SweepRequest request;
    tune::SweepCheck check;
    std::shared_ptr<const topo::Machine> machine;
    costs::Params params;
    std::size_t planned = 0;
    std::unique_ptr<OutputFolder> folder;
};

std::unique_ptr<OutputFolder> open_tune_folder(const TuneOptions& options, const TuneSetup& setup);

TuneSetup prepare_tune(const TuneOptions& options, bool writes_files) {
    TuneSetup setup;
    tune::SweepRequest& request = setup.request;
    for (const std::string& name : split_list(options.collectives, "--collective")) {
        const sched::Collective collective = sched::parse_collective(name);
        if (collective == sched::Collective::pingpong)
            throw UsageError("pingpong is a measurement, not a collective to tune");
        // Named twice, tuned once.
        if (std::find(request.collectives.begin(), request.collectives.end(), collective) == request.collectives.end())
            request.collectives.push_back(collective);
    }
    if (!options.algorithms.empty()) request.algorithms = split_list(options.algorithms, "--algorithm");
    request.nodes = whole_numbers(options.nodes, "--nodes", 1, max_nodes);
    request.ranks_per_node = whole_numbers(options.ranks, "--ranks", 0, 1 << 20);
    request.bytes = parse_byte_sizes(options.bytes, "--bytes");
    std::sort(request.bytes.begin(), request.bytes.end());
    request.bytes.erase(std::unique(request.bytes.begin(), request.bytes.end()), request.bytes.end());
    if (!options.segments.empty()) {
        request.segments = parse_byte_sizes(options.segments, "--segments");
        std::sort(request.segments.begin(), request.segments.end());
        request.segments.erase(std::unique(request.segments.begin(), request.segments.end()), request.segments.end());
    }
    if (!options.fanouts.empty()) request.fanouts = whole_numbers(options.fanouts, "--fanouts", 1, 1024);
    if (options.ranks_as == "processes") {
        if (options.engine != "mpi")
            throw UsageError("--ranks-as processes measures one MPI process per rank: it goes with --engine mpi");
        if (request.ranks_per_node.size() != 1)
            throw UsageError("--ranks-as processes measures one shape, one MPI process per rank: give --ranks once");
        // The MPI library's own collective competes, unless the candidates are named without it.
        request.with_native = request.algorithms.empty() ||
                              std::find(request.algorithms.begin(), request.algorithms.end(),
                                        tune::native_algorithm) != request.algorithms.end();
    } else if (!options.algorithms.empty() &&
               std::find(request.algorithms.begin(), request.algorithms.end(), tune::native_algorithm) !=
                   request.algorithms.end()) {
        throw UsageError("the native candidate (the MPI library's own collective) is measured with --engine mpi "
                         "--ranks-as processes");
    }
    request.root = options.root;
    request.op = sched::parse_reduce_op(options.op);
    request.datatype = sched::parse_datatype(options.datatype);

    // Measurements run on this machine: its own topology ("live", or a saved
    // export of it); threads on one node, MPI on one process per node.
    const bool measuring = options.engine == "threads" || options.engine == "mpi";
    if (options.engine == "threads" && (request.nodes.size() != 1 || request.nodes.front() != 1))
        throw UsageError("--engine threads measures on this one machine: --nodes must be 1");
    if (options.engine == "mpi" && request.nodes.size() != 1)
        throw UsageError("--engine mpi measures one node count, one MPI process per node: give --nodes once");
    setup.machine = measuring ? load_this_machine(options.topology_given ? options.topology : "live")
                              : std::make_shared<const topo::Machine>(topo::load_machine(options.topology));
    setup.params = costs::params_for(*setup.machine, options.params);
    setup.planned = tune::planned_timings(request);
    if (setup.planned > max_timings)
        throw UsageError(fmt::format("that is {} timings ({} shapes x sizes x candidates); at most {}: name fewer "
                                     "algorithms, sizes, segments or shapes",
                                     setup.planned, request.nodes.size() * request.ranks_per_node.size(), max_timings));
    // Every point and candidate as sim checks it, and every shape laid out, before any timing.
    setup.check = tune::check_sweep(request, setup.machine);
    if (measuring)
        for (int per_node : request.ranks_per_node) {
            algo::LayoutOptions layout_options;
            layout_options.ranks_per_node = per_node;
            const int ranks = algo::make_layout(setup.machine, layout_options).ranks_per_node;
            for (std::uint64_t bytes : request.bytes) exec::check_vector_memory(bytes, ranks, *setup.machine);
        }
    if (!measuring && writes_files) announce_generic_params(setup.params, *setup.machine, "tune", !progress_reports());
    if (writes_files) setup.folder = open_tune_folder(options, setup);
    return setup;
}

std::unique_ptr<OutputFolder> open_tune_folder(const TuneOptions& options, const TuneSetup& setup) {
    auto folder = open_output_folder(options.folder, "tune",
                                     {{"--topology", options.topology, false}, {"--params", options.params, false}});
    if (progress_reports())
        std::cerr << fmt::format("tune: {} timings with the {} engine on {}\n", setup.planned, options.engine,
                                 setup.machine->label());
    return folder;
}

// ompi-mca.txt: the --mca lines that load each rules file from `folder`, or,
// when no rule was written, why not and no line to load nothing.
std::string ompi_mca_lines(const std::string& folder, bool no_rules, const std::vector<std::string>& without_rules) {
    std::string mca;
    for (const std::string& line : without_rules) mca += "# no rules for " + line + "\n";
    if (no_rules) return mca + "# no Open MPI rules were written: there is nothing for Open MPI to load\n";
    const std::string load = "--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename " + folder;
    mca += "# Open MPI 4.x: the classic rules file (no version line)\n" + load + "/ompi-rules.conf\n";
    mca += "# Open MPI 5.x: the classic rules file with its version line\n" + load + "/ompi-rules-v2.conf\n";
    mca += "# Open MPI releases that read JSON rules\n" + load + "/ompi-rules.json\n";
    return mca;
}

// Picks the winners and writes every file of the folder, then the pictures,
// and puts them in place together.
void write_tune_folder(const TuneOptions& options, const TuneSetup& setup, OutputFolder& folder,
                       const std::vector<tune::TunePoint>& points) {
    const std::vector<tune::SelectionRow> rows = tune::select_winners(points);
    if (rows.empty()) throw Error("no candidate could be timed at any point: nothing to choose from");
    const std::vector<tune::OmpiCommRule> rules = tune::ompi_rules(points);
    const topo::Machine& machine = *setup.machine;
    const results::Provenance provenance = results::current_provenance();
    const std::map<std::string, std::string> about = {
        {"engine", options.engine},          {"topology", machine.label()},
        {"params", setup.params.origin},     {"numacoll", provenance.numacoll},
        {"date", provenance.date},           {"simgrid", sim::simgrid_description()},
        {"datatype", options.datatype},      {"op", options.op},
        {"ranks_as", options.ranks_as}};
    const std::vector<std::string> comments = {
        fmt::format("Open MPI coll/tuned dynamic rules from numacoll tune ({} engine) on {}, params {}; reductions "
                    "of {} by {}",
                    options.engine, about.at("topology"), setup.params.origin, options.datatype, options.op),
        "message sizes are Open MPI's (bytes per rank for allreduce/bcast/reduce, times the ranks for the gathers, "
        "the scatter, the reduce-scatter and the alltoall)",
        fmt::format("numacoll {}, {}", provenance.numacoll, provenance.date)};
    const std::vector<std::string> without_rules = tune::collectives_without_rules(points, rules);
    std::vector<std::string> comments_with_gaps = comments;
    for (const std::string& line : without_rules) comments_with_gaps.push_back("no rules for " + line);
    const std::string absolute = std::filesystem::absolute(options.folder).lexically_normal().string();
    const std::string mca = ompi_mca_lines(absolute, rules.empty(), without_rules);
    const std::vector<std::string> texts = {tune::selection_csv(rows),
                                            tune::selection_json(rows, about),
                                            tune::timings_csv(points),
                                            tune::ompi_classic_rules(rules, false, comments_with_gaps),
                                            tune::ompi_classic_rules(rules, true, comments_with_gaps),
                                            tune::ompi_json_rules(rules, about),
                                            mca};
    std::vector<std::string> written = folder_files();
    for (std::size_t i = 0; i < texts.size(); ++i) write_output_file(folder.file(written[i]), texts[i]);
    reached_stage("writing");
    if (!options.no_plots)
        for (const auto& picture : plots::plot_folder(folder.staging(), folder.staging(), "plot_tune", "selection.csv",
                                                        plots::picture_provenance(options.engine, machine.label(),
                                                                                  setup.params.origin)))
            written.push_back(picture);
    folder.commit();

    int points_with_ompi = 0;
    for (const auto& rule : rules) points_with_ompi += static_cast<int>(rule.choices.size());
    std::cout << fmt::format("{} points chosen ({} candidates timed); {} Open MPI rules over {} communicator shapes\n",
                             rows.size(), setup.planned, points_with_ompi, rules.size());
    std::cout << "which algorithm at which size (=X: X is as fast, within the measured spread or to the same "
                 "simulated time; +N%: the next other algorithm is N% slower at the range's closest size):\n"
              << tune::recommendation_text(tune::recommend(points));
    for (const std::string& line : without_rules) std::cout << "no Open MPI rules for " << line << "\n";
    for (const std::string& name : written) std::cout << folder.final_path(name) << "\n";
}

exec::ExecOptions exec_options_of(const TuneOptions& options) {
    exec::ExecOptions exec_options;
    exec_options.timed_iterations = options.iterations;
    exec_options.warmup_iterations = options.warmup;
    return exec_options;
}

// One process per node under mpirun, as numacoll run --engine mpi: every
// process runs the same sweep, process 0 writes the folder; failures end
// every process (cli/mpi_failures.hpp).
int run_tune_on_mpi(const TuneOptions& given, const CLI::App& command) {
    TuneOptions options = given;
    // Checked before MPI starts: a usage error then ends the process at once.
    const std::vector<int> node_counts = whole_numbers(options.nodes, "--nodes", 1, max_nodes);
    if (node_counts.size() != 1)
        throw UsageError("--engine mpi measures one node count, one MPI process per node: give --nodes once");
    int nodes = node_counts.front();
    if (nodes > 1 && !exec::MpiWorld::launched_by_mpirun())
        throw UsageError(fmt::format("--engine mpi with --nodes {} runs under mpirun, one process per node: mpirun -np "
                                     "{} numacoll tune --engine mpi --nodes {} ...",
                                     nodes, nodes, nodes));
    const StartedMpi started = start_mpi(command, MPI_THREAD_MULTIPLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    TuneSetup setup;
    const bool as_processes = options.ranks_as == "processes";
    if (const int code = agree_on(world, [&] {
            if (!as_processes && command.count("--nodes") == 0) {  // one process per node: the job's size
                nodes = world.size();
                options.nodes = std::to_string(nodes);
            }
            if (!as_processes && world.size() != nodes)
                throw UsageError(fmt::format("--nodes {} needs {} MPI processes, one per node; {} started (mpirun -np {})",
                                             nodes, nodes, world.size(), nodes));
            setup = prepare_tune(options, world.rank() == 0);
            if (as_processes) {
                algo::LayoutOptions layout_options;
                layout_options.ranks_per_node = setup.request.ranks_per_node.front();
                const int ranks = nodes * algo::make_layout(setup.machine, layout_options).ranks_per_node;
                if (world.size() != ranks)
                    throw UsageError(fmt::format("--ranks-as processes runs one MPI process per rank: {} node(s) x {} "
                                                 "ranks need {}, and {} started (mpirun -np {})",
                                                 nodes, ranks / nodes, ranks, world.size(), ranks));
            }
        }))
        return code;
    const exec::ExecOptions exec_options = exec_options_of(options);
    return run_agreed(world, [&] {
        const auto points = tune::sweep(
            setup.request, setup.machine,
            [&](const sched::CollectiveSpec& spec, const algo::Layout& layout) -> std::optional<tune::Timing> {
                // Every execution verifies its result on every process.
                const exec::MpiExecResult result =
                    !as_processes ? exec::run_on_mpi(algo::generate_schedule(spec, layout), *setup.machine,
                                                     exec_options, world)
                    : spec.algorithm == tune::native_algorithm
                        ? exec::run_native_collective(spec, *setup.machine, exec_options, world)
                        : exec::run_on_processes(sched::process_form(algo::generate_schedule(spec, layout)),
                                                 *setup.machine, exec_options, world);
                const auto& stats = result.stats;
                return tune::Timing{stats.median_ns, stats.p10_ns, stats.p90_ns};
            },
            "tune: timing candidates", &setup.check);
        on_writer(world, [&] { write_tune_folder(options, setup, *setup.folder, points); });
    });
}

// Simulated or modelled timings, spread over the processes of an MPI job,
// a shard's share, or what a stopped run left (cli/sweep_spreading.hpp).
int run_tune_predicted(const TuneOptions& options, const CLI::App& command) {
    TuneSetup setup;
    std::vector<tune::TimingJob> jobs;
    std::map<int, std::unique_ptr<sim::PlatformModel>> platforms;  // per node count
    tune::Timer timer;
    const auto prepare = [&](bool writes) {
        setup = prepare_tune(options, false);
        if (writes) announce_generic_params(setup.params, *setup.machine, "tune", !progress_reports());
        jobs = tune::timing_jobs(setup.request, setup.machine, setup.check);
        if (options.engine == "sim") {
            timer = [&](const sched::CollectiveSpec& spec, const algo::Layout& layout) -> std::optional<tune::Timing> {
                auto& platform = platforms[layout.nodes];
                if (!platform) platform = std::make_unique<sim::PlatformModel>(setup.machine, setup.params, layout.nodes);
                return tune::Timing{sim::simulate(algo::generate_schedule(spec, layout), *platform).timeline.makespan_ns,
                                    std::nullopt, std::nullopt};
            };
        } else {
            timer = [&](const sched::CollectiveSpec& spec, const algo::Layout& layout) -> std::optional<tune::Timing> {
                const std::optional<double> ns =
                    models::model_ns(algo::spec_with_defaults(spec, layout), layout, setup.params);
                if (!ns) return std::nullopt;
                return tune::Timing{*ns, std::nullopt, std::nullopt};
            };
        }
        SweepPoints points;
        for (const tune::TimingJob& job : jobs) {
            points.keys.push_back(job.key());
            points.expected_cost.push_back(job.estimated_tasks);
        }
        points.compute = [&](std::size_t i) { return tune::timing_text(tune::time_job(jobs[i], timer)); };
        points.progress_what = "tune: timing candidates";
        points.progress_unit = "timings";
        return points;
    };
    const auto write = [&](OutputFolder& folder, const std::vector<std::string>& results) {
        std::vector<std::optional<tune::Timing>> timings;
        timings.reserve(results.size());
        for (const std::string& text : results) timings.push_back(tune::timing_from_text(text));
        write_tune_folder(options, setup, folder, tune::points_from_timings(jobs, timings));
    };
    return run_sweep(command, options.spread, options.folder, prepare,
                     [&] { return open_tune_folder(options, setup); }, write);
}

int run_tune(const TuneOptions& options, const CLI::App& command) {
    const bool spreads = options.compare.empty() && (options.engine == "sim" || options.engine == "model");
    if (!spreads && (!options.spread.shard.empty() || options.spread.resume || !options.spread.rows_from.empty()))
        throw UsageError(fmt::format("--shard and --resume spread simulated and modelled timings; {} measures one "
                                     "point at a time on this machine",
                                     options.compare.empty() ? "--engine " + options.engine : std::string("--compare")));
    if (spreads) return run_tune_predicted(options, command);
    if (options.engine == "mpi" && options.compare.empty()) return run_tune_on_mpi(options, command);
    if (const int code = agree_to_run_alone(command, fmt::format("{} runs in this one process (--engine mpi measures "
                                                                 "with one process per node)",
                                                                 options.compare.empty()
                                                                     ? "--engine " + options.engine
                                                                     : std::string("--compare"))))
        return code;
    if (!options.compare.empty()) return run_compare(options);
    TuneSetup setup = prepare_tune(options, true);
    const exec::ExecOptions exec_options = exec_options_of(options);
    const tune::Timer timer = [&](const sched::CollectiveSpec& spec,
                                  const algo::Layout& layout) -> std::optional<tune::Timing> {
        // Every execution verifies its result; a wrong one throws and ends the sweep.
        const auto stats = exec::run_on_threads(algo::generate_schedule(spec, layout), *setup.machine, exec_options).stats;
        return tune::Timing{stats.median_ns, stats.p10_ns, stats.p90_ns};
    };
    reached_stage("simulating");
    const auto points = tune::sweep(setup.request, setup.machine, timer, "tune: timing candidates", &setup.check);
    write_tune_folder(options, setup, *setup.folder, points);
    return 0;
}

}  // namespace

CommandRun add_tune_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "tune", "pick the fastest algorithm per collective, shape and size; write Open MPI rules files and a selection table");
    auto options = std::make_shared<TuneOptions>();
    command->add_option("--topology,-t", options->topology,
                        "machine: a bundled name, an hwloc XML file, or synthetic:... (with --engine threads: this "
                        "machine, live or a saved export of it)")
        ->capture_default_str();
    command->add_option("--params", options->params,
                        "cost parameters: a bundled name or a JSON file (from calibrate); default: the machine's own, "
                        "else generic");
    command->add_option("--collective,-c", options->collectives, "collectives, a comma list")->capture_default_str();
    command->add_option("-a,--algorithm,--algorithms", options->algorithms,
                        "candidate algorithms, a comma list (default: every algorithm of each collective)");
    command->add_option("-N,--nodes", options->nodes, "node counts, a comma list")->capture_default_str();
    command->add_option("--ranks,-p", options->ranks, "ranks per node, a comma list (0: one per core)")->capture_default_str();
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--segments", options->segments,
                        "segment sizes to try for the algorithms that segment (default: each one's own)");
    command->add_option("--fanouts", options->fanouts,
                        "fan-outs to try for the algorithms that have one (default: each one's own)");
    command->add_option("--root", options->root, "root rank of rooted collectives")->capture_default_str();
    command->add_option("--op", options->op, op_help)->capture_default_str();
    command->add_option("--datatype", options->datatype, datatype_help)->capture_default_str();
    command->add_option("--engine", options->engine,
                        "sim (SimGrid), model (closed form), threads (measured on this machine's cores, one node) or "
                        "mpi (measured with one MPI process per node under mpirun, threads inside); measurements "
                        "keep the median of the timed iterations")
        ->check(CLI::IsMember({"sim", "model", "threads", "mpi"}))
        ->capture_default_str();
    command->add_option("--ranks-as", options->ranks_as,
                        "with --engine mpi: threads (one MPI process per node, threads inside) or processes (one MPI "
                        "process per rank over the node's shared memory, as libnumacoll_mpi runs them; the MPI "
                        "library's own collective competes as the candidate native)")
        ->check(CLI::IsMember({"threads", "processes"}))
        ->capture_default_str();
    add_iteration_options(*command, options->iterations, &options->warmup);
    command->add_option("--output-dir,-o,--output", options->folder,
                        "folder for selection.csv/json, timings.csv, the Open MPI rules files and the pictures")
        ->capture_default_str();
    command->add_option("--compare", options->compare,
                        "DIR1 DIR2: where two tune folders pick differently, and what DIR2's pick costs by DIR1's timings")
        ->expected(2);
    command->add_flag("--no-plots", options->no_plots, "write the tables but draw no pictures");
    command->add_flag("-q,--quiet", options->quiet, "no progress on stderr");
    add_spread_options(*command, options->spread);
    command->footer(
        "Examples:\n"
        "  numacoll tune -t westmere -c bcast,reduce --nodes 1,2,4,8 --bytes 8B:16MiB -o tune-westmere\n"
        "  mpirun -np 16 numacoll tune -t westmere -c bcast,reduce --nodes 1,2,4,8 -o tune-westmere   (spread)\n"
        "  mpirun $(grep -v '^#' tune-westmere/ompi-mca.txt | head -1) -np 96 ./app\n"
        "  numacoll tune -t magnycours -c allreduce --engine model -o m && numacoll tune --compare tune-sim m\n"
        "  numacoll calibrate -o p.json && numacoll tune -t live --params p.json -c bcast -o s && \\\n"
        "    numacoll tune --engine threads -c bcast -o t && numacoll tune --compare t s\n"
        "  mpirun -np 4 --map-by node numacoll tune --engine mpi --nodes 4 --ranks 8 -c allreduce -o m");
    return [options, command] {
        options->topology_given = command->count("--topology") > 0;
        if (!options->compare.empty())
            for (const char* name : {"--topology", "--params", "--collective", "--algorithm", "--nodes", "--ranks",
                                     "--bytes", "--segments", "--fanouts", "--root", "--engine", "--output",
                                     "--iterations", "--warmup"})
                if (command->count(name) > 0)
                    throw UsageError(fmt::format("--compare reads two finished folders: {} has nothing to shape", name));
        return run_tune(*options, *command);
    };
}

}  // namespace numacoll::cli

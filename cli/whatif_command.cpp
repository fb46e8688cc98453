// numacoll whatif: varies the machine itself (its shape, where its NIC sits,
// how many nodes, any figure of its params) and maps where the best algorithm
// and its crossover size move, simulating every algorithm on every variant.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "algorithms/registry.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/mpi_agreement.hpp"
#include "cli/sweep_spreading.hpp"
#include "plots/plotting.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/progress.hpp"
#include "sim/engine.hpp"
#include "tune/recommendation.hpp"
#include "tune/selection_table.hpp"
#include "tune/sweep.hpp"
#include "tune/whatif.hpp"

namespace numacoll::cli {

namespace {

struct WhatifOptions {
    std::string topology = "westmere";
    std::string params;
    std::vector<std::string> vary;
    std::string collective = "allreduce";
    std::string algorithms;
    std::string bytes = "8B:16MiB";
    int nodes = 1;
    int ranks = 0;
    std::string folder = "numacoll-whatif";
    bool no_plots = false;
    bool quiet = false;  // read by main.cpp: it silences every progress report
    SpreadOptions spread;
};

// At a second per large simulation, about a day.
constexpr std::size_t max_simulations = 100000;

struct Variant {
    std::vector<std::string> values;  // one per varied key
    tune::NodeShape shape;
    std::shared_ptr<const topo::Machine> machine;
    costs::Params params;
    std::string description;  // the machine as `numacoll sim -t` takes it
};

// Everything a whatif run checks and lays out before its first simulation.
struct WhatifSetup {
    std::vector<tune::VaryKey> keys;
    tune::SweepRequest request;
    std::size_t algorithms = 0;
    std::shared_ptr<const topo::Machine> base_machine;
    costs::Params base_params;
    std::vector<Variant> variants;
    std::vector<tune::SweepCheck> checks;
    std::size_t planned = 0;
    // Every variant's timings, the first variant's first; the variant of each.
    std::vector<tune::TimingJob> jobs;
    std::vector<std::size_t> variant_of_job;
};

WhatifSetup prepare_whatif(const WhatifOptions& options) {
    WhatifSetup setup;
    std::vector<tune::VaryKey>& keys = setup.keys;
    tune::SweepRequest& request = setup.request;
    if (options.vary.empty() || options.vary.size() > 2)
        throw UsageError("--vary: give one or two keys (a map has two axes)");
    for (const std::string& text : options.vary) keys.push_back(tune::parse_vary(text));
    if (keys.size() == 2 && keys[0].key == keys[1].key)
        throw UsageError(fmt::format("--vary {} is given twice", keys[0].key));
    const sched::Collective collective = sched::parse_collective(options.collective);
    if (collective == sched::Collective::pingpong) throw UsageError("pingpong is a measurement, not a collective to compare");
    request.collectives = {collective};
    if (!options.algorithms.empty()) request.algorithms = split_list(options.algorithms, "--algorithm");
    request.ranks_per_node = {options.ranks};
    request.bytes = parse_byte_sizes(options.bytes, "--bytes");
    std::sort(request.bytes.begin(), request.bytes.end());
    request.bytes.erase(std::unique(request.bytes.begin(), request.bytes.end()), request.bytes.end());
    const std::size_t algorithms = setup.algorithms = tune::candidates_for(collective, request).size();

    const auto base_machine = setup.base_machine =
        std::make_shared<const topo::Machine>(topo::load_machine(options.topology));
    const costs::Params base_params = setup.base_params = costs::params_for(*base_machine, options.params);
    const bool reshaped = std::any_of(keys.begin(), keys.end(),
                                      [](const tune::VaryKey& k) { return k.machine_key() && k.key != "nodes"; });
    tune::NodeShape base_shape = reshaped ? tune::shape_of(*base_machine) : tune::NodeShape{};
    base_shape.nodes = options.nodes;

    // Every combination of the values, the first key slowest.
    std::vector<Variant>& variants = setup.variants;
    const std::size_t second_count = keys.size() == 2 ? keys[1].values.size() : 1;
    const std::size_t planned = setup.planned = keys[0].values.size() * second_count * algorithms * request.bytes.size();
    if (planned > max_simulations)
        throw UsageError(fmt::format("that is {} simulations ({} machines x {} algorithms x {} sizes); at most {}",
                                     planned, keys[0].values.size() * second_count, algorithms, request.bytes.size(),
                                     max_simulations));
    for (std::size_t a = 0; a < keys[0].values.size(); ++a)
        for (std::size_t b = 0; b < second_count; ++b) {
            Variant variant;
            variant.shape = base_shape;
            variant.params = base_params;
            for (std::size_t k = 0; k < keys.size(); ++k) {
                const std::string& value = keys[k].values[k == 0 ? a : b];
                variant.values.push_back(value);
                if (keys[k].machine_key())
                    variant.shape = tune::with_key(variant.shape, keys[k].key, value);
                else
                    variant.params = tune::with_figure(variant.params, keys[k].key, value);
            }
            if (reshaped) {
                variant.machine = std::make_shared<const topo::Machine>(tune::machine_of(variant.shape));
                variant.description = "synthetic:" + tune::synthetic_description(variant.shape);
            } else {
                variant.machine = base_machine;
                variant.description = base_machine->label();
            }
            variants.push_back(std::move(variant));
        }

    // Every variant's points checked as sim checks them, before any simulation.
    std::vector<tune::SweepCheck>& checks = setup.checks;
    for (const Variant& variant : variants) {
        request.nodes = {variant.shape.nodes};
        try {
            checks.push_back(tune::check_sweep(request, variant.machine));
        } catch (const UsageError& error) {
            std::string named;
            for (std::size_t k = 0; k < keys.size(); ++k) named += fmt::format(" {}={}", keys[k].key, variant.values[k]);
            throw UsageError(fmt::format("the machine with{}: {}", named, error.what()));
        }
        for (tune::TimingJob& job : tune::timing_jobs(request, variant.machine, checks.back())) {
            setup.jobs.push_back(std::move(job));
            setup.variant_of_job.push_back(checks.size() - 1);
        }
    }
    return setup;
}

std::unique_ptr<OutputFolder> open_whatif_folder(const WhatifOptions& options, const WhatifSetup& setup) {
    auto folder = open_output_folder(options.folder, "whatif",
                                     {{"--topology", options.topology, false}, {"--params", options.params, false}});
    if (progress_reports())
        std::cerr << fmt::format("whatif: {} machines x {} algorithms x {} sizes = {} simulations\n",
                                 setup.variants.size(), setup.algorithms, setup.request.bytes.size(), setup.planned);
    return folder;
}

// The tables, the map and the lines on stdout, from every variant's timings.
void write_whatif_folder(const WhatifOptions& options, const WhatifSetup& setup, OutputFolder& output,
                         const std::vector<std::optional<tune::Timing>>& timings) {
    const std::vector<tune::VaryKey>& keys = setup.keys;
    const std::vector<Variant>& variants = setup.variants;
    const auto& base_machine = setup.base_machine;
    const costs::Params& base_params = setup.base_params;
    OutputFolder* const folder = &output;
    const std::vector<std::string> names = {"whatif.csv", "whatif-best.csv", "whatif-map.csv"};

    // The varied keys first, then the machine; `nodes` once, as a key when it is one.
    std::string header;
    bool nodes_varied = false;
    for (const tune::VaryKey& key : keys) {
        header += key.key + ",";
        nodes_varied = nodes_varied || key.key == "nodes";
    }
    header += nodes_varied ? "machine," : "machine,nodes,";
    std::string all = header + "ranks,bytes,algorithm,time_ns\n";
    std::string best = header + "ranks,bytes,algorithm,time_ns,runner_up,margin\n";
    std::string map = header + "ranks,first_best,crossover_bytes,then_best,best_at_largest,bands\n";
    std::string table;  // what stdout shows: each machine's bands
    std::size_t next_job = 0;  // the jobs are in variant order
    for (std::size_t index = 0; index < variants.size(); ++index) {
        const Variant& variant = variants[index];
        std::string named;
        for (std::size_t k = 0; k < keys.size(); ++k) named += fmt::format(" {}={}", keys[k].key, variant.values[k]);
        std::vector<tune::TimingJob> jobs;
        std::vector<std::optional<tune::Timing>> times;
        for (; next_job < setup.jobs.size() && setup.variant_of_job[next_job] == index; ++next_job) {
            jobs.push_back(setup.jobs[next_job]);
            times.push_back(timings[next_job]);
        }
        const auto points = tune::points_from_timings(jobs, times);
        const auto rows = tune::select_winners(points);
        std::string values;
        for (const std::string& value : variant.values) values += value + ",";
        // The machine, and its node count unless that is a varied key (then among the values).
        const std::string machine = "\"" + variant.description + "\"" +
                                    (nodes_varied ? std::string() : fmt::format(",{}", variant.shape.nodes));
        int ranks = 0;
        for (const auto& point : points) {
            ranks = point.ranks();
            for (const auto& entry : point.times)
                all += fmt::format("{}{},{},{},{},{}\n", values, machine, point.ranks(), point.bytes,
                                   tune::describe(entry.candidate),
                                   entry.time_ns ? fmt::format("{:.3f}", *entry.time_ns) : "");
        }
        std::vector<std::string> winners;
        for (const auto& row : rows) {
            winners.push_back(row.winner.algorithm);
            best += fmt::format("{}{},{},{},{},{:.3f},{},{}\n", values, machine, row.nodes * row.ranks_per_node,
                                row.bytes, row.winner.algorithm, row.time_ns,
                                row.runner_up ? row.runner_up->algorithm : "",
                                row.margin() ? fmt::format("{:.4f}", *row.margin()) : "");
        }
        const auto crossover = tune::first_crossover(winners);
        // Every band of sizes with its best algorithm, ties collapsed as tune collapses them.
        std::string bands;
        for (const tune::Recommendation& shape : tune::recommend(points))
            for (const tune::RecommendedRange& range : shape.ranges)
                bands += fmt::format("{}{} {}", bands.empty() ? "" : "; ", tune::describe(range.pick),
                                     tune::sizes_text(range));
        map += fmt::format("{}{},{},{},{},{},{},\"{}\"\n", values, machine, ranks, winners.empty() ? "" : winners.front(),
                           crossover ? std::to_string(rows[*crossover].bytes) : "",
                           crossover ? winners[*crossover] : "", winners.empty() ? "" : winners.back(), bands);
        table += fmt::format("  {}: {}\n", named.substr(1), bands.empty() ? "nothing timed" : bands);
    }
    for (const auto& [name, text] : {std::pair{names[0], &all}, {names[1], &best}, {names[2], &map}})
        write_output_file(folder->file(name), *text);
    reached_stage("writing");
    std::vector<std::string> written = names;
    if (!options.no_plots)
        for (const auto& picture : plots::plot_folder(
                 folder->staging(), folder->staging(), "plot_whatif", "whatif-map.csv",
                 plots::picture_provenance("sim", fmt::format("{} on variants of {}", options.collective,
                                                              base_machine->label()),
                                           base_params.origin),
                 fmt::format("{}, params {}", options.collective, base_params.origin)))
            written.push_back(picture);
    folder->commit();
    std::cout << fmt::format("{} of {} bytes per rank, the best algorithm per band of sizes (ties as tune collapses "
                             "them):\n",
                             options.collective, options.bytes)
              << table;
    for (const std::string& name : written) std::cout << folder->final_path(name) << "\n";
}

int run_whatif(const WhatifOptions& options, const CLI::App& command) {
    WhatifSetup setup;
    // A platform per variant, made when its first point is simulated here.
    std::map<std::size_t, std::unique_ptr<sim::PlatformModel>> platforms;
    const auto prepare = [&](bool) {
        setup = prepare_whatif(options);
        SweepPoints points;
        for (std::size_t j = 0; j < setup.jobs.size(); ++j) {
            const Variant& variant = setup.variants[setup.variant_of_job[j]];
            std::string named;
            for (const std::string& value : variant.values) named += value + ",";
            points.keys.push_back(named + setup.jobs[j].key());
            points.expected_cost.push_back(setup.jobs[j].estimated_tasks);
        }
        points.compute = [&](std::size_t j) {
            const std::size_t v = setup.variant_of_job[j];
            const Variant& variant = setup.variants[v];
            if (!platforms.count(v)) {
                // Longest first interleaves the variants: a few dozen platforms kept at most.
                if (platforms.size() >= 64) platforms.clear();
                platforms[v] = std::make_unique<sim::PlatformModel>(variant.machine, variant.params, variant.shape.nodes);
            }
            const sim::PlatformModel& model = *platforms[v];
            return tune::timing_text(tune::time_job(setup.jobs[j], [&](const sched::CollectiveSpec& spec,
                                                                        const algo::Layout& layout) {
                return std::optional<tune::Timing>(tune::Timing{
                    sim::simulate(algo::generate_schedule(spec, layout), model).timeline.makespan_ns, std::nullopt,
                    std::nullopt});
            }));
        };
        points.progress_what = "whatif: simulating";
        points.progress_unit = "simulations";
        return points;
    };
    const auto write = [&](OutputFolder& folder, const std::vector<std::string>& results) {
        std::vector<std::optional<tune::Timing>> timings;
        timings.reserve(results.size());
        for (const std::string& text : results) timings.push_back(tune::timing_from_text(text));
        write_whatif_folder(options, setup, folder, timings);
    };
    return run_sweep(command, options.spread, options.folder, prepare,
                     [&] { return open_whatif_folder(options, setup); }, write);
}

}  // namespace

CommandRun add_whatif_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "whatif", "vary the machine (shape, NIC, nodes, any params figure) and map where the best algorithm moves");
    auto options = std::make_shared<WhatifOptions>();
    command->add_option("--topology,-t", options->topology,
                        "the machine to start from: a bundled name, an hwloc XML file or synthetic:... (regular, "
                        "when its shape is varied)")
        ->capture_default_str();
    command->add_option("--params", options->params,
                        "cost parameters to start from: a bundled name or a JSON file; default: the machine's own, "
                        "else generic");
    command->add_option("--vary", options->vary,
                        "KEY=V1,V2,...: packages, numa_per_package, llc_per_package, cores_per_llc, nic_numa, nodes, "
                        "or a params path such as levels.other_socket.bandwidth_bytes_per_ns (once or twice)")
        ->required();
    command->add_option("--collective,-c", options->collective, "the collective")->capture_default_str();
    command->add_option("-a,--algorithm,--algorithms", options->algorithms,
                        "algorithms to compare, a comma list (default: every algorithm of the collective)");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--nodes,-N", options->nodes, "nodes of each machine (unless varied)")
        ->check(CLI::Range(1, max_nodes))
        ->capture_default_str();
    command->add_option("--ranks,-p", options->ranks, "ranks per node (0: one per core)")
        ->check(CLI::Range(0, 1 << 20))
        ->capture_default_str();
    command->add_option("--output-dir,-o,--output", options->folder, "folder for whatif.csv, whatif-best.csv, whatif-map.csv and the map")
        ->capture_default_str();
    command->add_flag("--no-plots", options->no_plots, "write the tables but draw no map");
    command->add_flag("-q,--quiet", options->quiet, "no progress on stderr");
    add_spread_options(*command, options->spread);
    command->footer(
        "Examples:\n"
        "  numacoll whatif -t \"synthetic:Package:1 L3Cache:4 Core:16\" --params generic --vary cores_per_llc=4,8,16 \\\n"
        "    --vary llc_per_package=1,2,4 -c allreduce -a tree,tiled,dissemination --bytes 64,4KiB,256KiB,4MiB -o w\n"
        "  numacoll whatif -t westmere --vary levels.other_socket.bandwidth_bytes_per_ns=3,6,12 --vary nodes=1,2,4 "
        "-c bcast -o w2");
    return [options, command] { return run_whatif(*options, *command); };
}

}  // namespace numacoll::cli

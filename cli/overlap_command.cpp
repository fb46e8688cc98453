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
#include "cli/validation_output.hpp"
#include "common/byte_size.hpp"
#include "common/duration.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
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

int run_overlap(const OverlapOptions& options) {
    if (options.engine != "sim")
        throw UsageError(fmt::format("--engine '{}': overlap runs on sim", options.engine));
    const auto strategies = parse_strategies(options.progress);
    const auto intervals = parse_test_intervals(options.test_every);
    const std::optional<double> fixed_compute_ns =
        options.compute == "auto" ? std::nullopt : std::optional<double>(parse_duration_ns(options.compute, "--compute"));
    const auto specs = sweep_specs(options.algorithm, options.bytes);
    const std::size_t points = specs.size() * strategies.size() * intervals.size();
    if (points > max_points)
        throw UsageError(fmt::format("that is {} points ({} schedules x {} strategies x {} test intervals); at most {}",
                                     points, specs.size(), strategies.size(), intervals.size(), max_points));
    const auto machine = options.machine.load();
    const algo::Layout layout = options.machine.layout(machine);
    const costs::Params params = costs::params_for(*machine, options.params);
    announce_generic_params(params, *machine, "overlap", options.quiet);
    if (!params.compute_flops_per_ns)
        throw UsageError(fmt::format("params '{}' give no core.compute_flops_per_ns, which turns the computation into "
                                     "flops (docs/params.md)",
                                     params.origin));
    const double flops_per_ns = params.compute_flops_per_ns->value;
    const sim::PlatformModel platform(machine, params, layout.nodes);

    ensure_folder(options.folder);
    const std::string csv_path = (std::filesystem::path(options.folder) / "overlap.csv").string();
    results::CsvWriter output(csv_path, overlap_columns());
    const results::Provenance provenance = results::current_provenance();
    ProgressReport progress("overlap", "points", points);
    std::size_t done = 0;
    for (const auto& spec : specs) {
        const sched::Schedule collective = algo::generate_schedule(spec, layout);
        for (const sim::ProgressStrategy strategy : strategies) {
            // The collective alone, issued and waited for, as OSU times it first.
            const double pure_ns = sim::simulate(overlap::compose(collective, {}, flops_per_ns), platform, strategy)
                                       .timeline.makespan_ns;
            const double compute_ns = fixed_compute_ns.value_or(pure_ns);
            for (const TestInterval& interval : intervals) {
                overlap::ComputeSpec compute;
                compute.compute_ns = compute_ns;
                compute.test_every_ns = interval.for_compute(compute_ns);
                const sched::Schedule composed = overlap::compose(collective, compute, flops_per_ns);
                const double overall_ns = sim::simulate(composed, platform, strategy).timeline.makespan_ns;
                results::ResultRow row = results::simulated_row(composed, overall_ns);
                row.placement = options.machine.placement_name();
                row.topology = machine->source;
                row.params = params.origin;
                row.provenance = provenance;
                std::vector<std::string> fields = results::result_fields(row);
                fields.push_back(sim::to_string(strategy));
                fields.push_back(interval.text);
                fields.push_back(fmt::format("{:.3f}", compute_ns));
                fields.push_back(fmt::format("{:.3f}", pure_ns));
                fields.push_back(fmt::format("{:.3f}", overall_ns));
                fields.push_back(fmt::format("{:.2f}", overlap::osu_overlap_percent(pure_ns, compute_ns, overall_ns)));
                output.row(fields);
                progress.advance(++done);
            }
        }
    }
    output.finish();
    std::cout << csv_path << "\n";
    if (!options.no_plots)
        for (const auto& picture : plot_folder(options.folder, "plot_overlap", "overlap.csv")) std::cout << picture << "\n";
    return 0;
}

}  // namespace

CommandRun add_overlap_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "overlap", "how much of a nonblocking collective hides behind computation, per progress strategy (OSU's overlap)");
    auto options = std::make_shared<OverlapOptions>();
    options->machine.add_to(*command, "westmere", true);
    options->algorithm.add_to(*command, true);
    command->add_option("--params", options->params,
                        "cost parameters: a bundled name or a JSON file; default: the machine's own, else generic");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:4MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--compute", options->compute,
                        "computation per rank: auto (as long as the collective alone, as OSU does) or a duration "
                        "(2500, 2.5us, 3ms)")
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
    command->add_option("--engine", options->engine, "sim: simulate on SimGrid")->capture_default_str();
    command->add_option("-o,--output", options->folder, "folder for overlap.csv and overlap.png")->capture_default_str();
    command->add_flag("--no-plots", options->no_plots, "write the table but draw nothing");
    command->add_flag("-q,--quiet", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  numacoll overlap -t westmere --nodes 2 --ranks 1 -a tree,tiled --bytes 8:4MiB -o o\n"
        "  numacoll overlap -t westmere --nodes 8 -a tree --compute 50us --test-every never,5us "
        "--progress manual,offload -o o2");
    return [options] { return run_overlap(*options); };
}

}  // namespace numacoll::cli

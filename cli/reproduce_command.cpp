// numacoll reproduce: every finding of the source papers, simulated on the
// bundled machines, with the paper's number, numacoll's and a verdict; the
// same as CSV, and the papers' figures drawn from the simulations.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/sweep_spreading.hpp"
#include "plots/plotting.hpp"
#include "common/output_folder.hpp"
#include "common/progress.hpp"
#include "common/shell_word.hpp"
#include "common/error.hpp"
#include "exec/mpi_world.hpp"
#include "reproduce/findings.hpp"
#include "results/csv_writer.hpp"
#include "topologies/machine.hpp"

namespace numacoll::cli {

namespace {

struct ReproduceOptions {
    std::vector<std::string> names;
    std::vector<std::string> machines;  // NAME=PATH
    std::string folder = "numacoll-reproduce";  // beside numacoll-out, never the source folder reproduce/
    bool list = false;
    bool no_plots = false;
    bool quiet = false;
    SpreadOptions spread;
};

std::vector<const reproduce::Finding*> chosen(const std::vector<std::string>& names) {
    const auto& all = reproduce::findings();
    std::vector<const reproduce::Finding*> result;
    if (names.empty() || (names.size() == 1 && names[0] == "all")) {
        for (const auto& finding : all) result.push_back(&finding);
        return result;
    }
    std::set<std::string> seen;
    for (const std::string& name : names) {
        const reproduce::Finding* match = nullptr;
        for (const auto& finding : all)
            if (finding.name == name) match = &finding;
        if (!match) {
            // A prefix names a group: "hpdc13", "nuioa", "hier".
            bool any = false;
            for (const auto& finding : all)
                if (finding.name.rfind(name + "-", 0) == 0 && seen.insert(finding.name).second) {
                    result.push_back(&finding);
                    any = true;
                }
            if (!any)
                throw UsageError(fmt::format("unknown finding '{}': see numacoll reproduce --list (or a group: hpdc13, "
                                             "hier, nuioa; or all)",
                                             name));
            continue;
        }
        if (seen.insert(name).second) result.push_back(match);
    }
    return result;
}

void write_figures(const OutputFolder& folder, const std::vector<reproduce::FigureData>& figures) {
    results::CsvWriter points(folder.file("figures.csv"),
                              {"figure", "title", "x_label", "y_label", "log_x", "log_y", "series", "x", "y"});
    results::CsvWriter marks(folder.file("figure_marks.csv"), {"figure", "axis", "value", "label"});
    for (const auto& figure : figures) {
        std::vector<std::vector<std::string>> rows;
        for (const auto& series : figure.series)
            for (std::size_t i = 0; i < series.x.size(); ++i)
                rows.push_back({figure.name, figure.title, figure.x_label, figure.y_label, figure.log_x ? "1" : "0",
                                figure.log_y ? "1" : "0", series.label, fmt::format("{:.9g}", series.x[i]),
                                fmt::format("{:.9g}", series.y[i])});
        if (!rows.empty()) points.rows(rows);
        for (const auto& mark : figure.marks)
            marks.row({figure.name, std::string(1, mark.axis), fmt::format("{:.9g}", mark.value), mark.label});
    }
    points.finish();
    marks.finish();
}

// What a run checks before its first simulation: the findings, the
// machines standing for bundled ones, and every setting they simulate.
struct ReproduceSetup {
    std::vector<const reproduce::Finding*> findings;
    std::vector<std::pair<std::string, std::string>> substitutes;
    std::vector<CommandPath> inputs;
    std::vector<std::pair<reproduce::Setting, double>> settings;  // resolved, with their task estimates
};

ReproduceSetup prepare_reproduce(const ReproduceOptions& options) {
    ReproduceSetup setup;
    setup.findings = chosen(options.names);
    for (const std::string& text : options.machines) {
        const auto equals = text.find('=');
        const std::string name = text.substr(0, equals);
        const auto bundled = topo::bundled_names();
        if (equals == std::string::npos || equals + 1 == text.size() ||
            std::find(bundled.begin(), bundled.end(), name) == bundled.end())
            throw UsageError(fmt::format("--machine '{}' must look like NAME=FILE, NAME a bundled machine", text));
        const std::string path = text.substr(equals + 1);
        for (const auto& [earlier, ignored] : setup.substitutes)
            if (earlier == name) throw UsageError(fmt::format("--machine {} is given twice", name));
        // A bad file, or a machine that cannot stand for NAME, fails here, before any simulation.
        reproduce::check_substitute(name, path, topo::load_machine(path));
        setup.substitutes.emplace_back(name, path);
        setup.inputs.push_back({"--machine", path, false});
    }
    // Every setting of the chosen findings checked as sim checks one before
    // generating it (its layout on the machine, sizes, root, the task
    // bound's estimate), before the first simulation.
    reproduce::Experiment check(true, true);
    for (const auto& [name, path] : setup.substitutes) check.substitute(name, path);
    for (const reproduce::Finding* finding : setup.findings) {
        try {
            (void)finding->evaluate(check);
        } catch (const UsageError& error) {
            throw UsageError(fmt::format("{}: {}", finding->name, error.what()));
        }
    }
    setup.settings = check.checked_settings();
    return setup;
}

// The findings judged with every setting's time known, the tables, the
// figures and the lines on stdout.
void write_reproduce_folder(const ReproduceOptions& options, const ReproduceSetup& setup, OutputFolder& output,
                            const std::vector<std::string>& times, std::chrono::steady_clock::time_point started) {
    OutputFolder* const folder = &output;
    const auto& findings = setup.findings;
    const auto& substitutes = setup.substitutes;
    results::CsvWriter table(folder->file("reproduce.csv"),
                             {"finding", "paper", "setup", "claim", "numacoll", "verdict", "why", "command"});
    reproduce::Experiment experiment(options.quiet);
    for (const auto& [name, path] : substitutes) experiment.substitute(name, path);
    for (std::size_t i = 0; i < setup.settings.size(); ++i)
        experiment.know(setup.settings[i].first, std::stod(times[i]));
    // The commands name the file and the parameters the simulations used.
    auto command_of = [&](std::string command) {
        for (const auto& [name, path] : substitutes) {
            const std::string bundled = " -t " + name + " ";
            const std::string named = " -t " + shell_word(path) + " --params " + name + " ";
            for (std::size_t at = 0; (at = command.find(bundled, at)) != std::string::npos; at += named.size())
                command.replace(at, bundled.size(), named);
        }
        return command;
    };
    std::vector<reproduce::FigureData> figures;
    std::map<reproduce::Verdict, int> counts;
    std::cout << "| finding | paper | the paper's setup and number | numacoll | verdict |\n|---|---|---|---|---|\n";
    for (std::size_t k = 0; k < findings.size(); ++k) {
        const reproduce::Finding& finding = *findings[k];
        const reproduce::Outcome outcome = finding.evaluate(experiment);
        ++counts[outcome.verdict];
        std::cout << fmt::format("| {} | {} | {}: {} | {} | {} |\n", finding.name, finding.paper, finding.setup,
                                 finding.claim, outcome.numacoll, reproduce::to_string(outcome.verdict))
                  << std::flush;
        table.row({finding.name, finding.paper, finding.setup, finding.claim, outcome.numacoll,
                   reproduce::to_string(outcome.verdict), outcome.why, command_of(outcome.command)});
        // Every figure says what the paper found, in words, beside its numbers' marks.
        for (reproduce::FigureData figure : outcome.figures) {
            figure.marks.push_back({'c', 0, fmt::format("{}: {}", finding.paper, finding.claim)});
            figures.push_back(std::move(figure));
        }
    }
    table.finish();
    write_figures(*folder, figures);
    reached_stage("writing");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::vector<std::string> pictures;
    if (!options.no_plots && !figures.empty())
        pictures = plots::plot_folder(folder->staging(), folder->staging(), "plot_reproduce", "figures.csv",
                                      plots::picture_provenance("sim", "the papers' machines (bundled)",
                                                                "each finding's bundled params"));
    folder->commit();
    // A calibration input is a finding a bundled parameter comes from: never counted as reproduced.
    const int calibration_inputs = counts[reproduce::Verdict::calibration_input];
    const std::string judged =
        calibration_inputs == 0
            ? fmt::format("{} findings", findings.size())
            : fmt::format("{} findings, {} of them {} (not judged); of the other {}", findings.size(), calibration_inputs,
                          calibration_inputs == 1 ? "a calibration input" : "calibration inputs",
                          findings.size() - static_cast<std::size_t>(calibration_inputs));
    std::cout << fmt::format("\n{}: {} reproduced, {} reproduced qualitatively, {} not reproduced "
                             "({} simulations, {:.0f} s). Why and how: {}\n",
                             judged, counts[reproduce::Verdict::reproduced], counts[reproduce::Verdict::qualitative],
                             counts[reproduce::Verdict::not_reproduced], experiment.simulations(), seconds,
                             folder->final_path("reproduce.csv"));
    for (const auto& picture : pictures) std::cout << folder->final_path(picture) << "\n";
}

int run_reproduce(const ReproduceOptions& options, const CLI::App& command) {
    if (options.list) {
        if (exec::MpiWorld::launcher_rank() <= 0)
            for (const auto& finding : reproduce::findings())
                std::cout << fmt::format("{:<32} {}: {}\n", finding.name, finding.paper, finding.claim);
        return 0;
    }
    const auto started = std::chrono::steady_clock::now();
    ReproduceSetup setup;
    // The settings' simulations, spread; each process with its own experiment.
    std::unique_ptr<reproduce::Experiment> simulating;
    const auto prepare = [&](bool) {
        setup = prepare_reproduce(options);
        simulating = std::make_unique<reproduce::Experiment>(true);
        for (const auto& [name, path] : setup.substitutes) simulating->substitute(name, path);
        SweepPoints points;
        for (const auto& [setting, tasks] : setup.settings) {
            points.keys.push_back(reproduce::setting_key(setting));
            points.expected_cost.push_back(tasks);
        }
        points.compute = [&](std::size_t i) { return fmt::format("{}", simulating->time_ns(setup.settings[i].first)); };
        points.progress_what = "reproduce: simulating";
        points.progress_unit = "simulations";
        return points;
    };
    return run_sweep(
        command, options.spread, options.folder, prepare,
        [&] { return open_output_folder(options.folder, "reproduce", setup.inputs); },
        [&](OutputFolder& folder, const std::vector<std::string>& times) {
            write_reproduce_folder(options, setup, folder, times, started);
        });
}

}  // namespace

CommandRun add_reproduce_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "reproduce", "simulate the source papers' findings on the bundled machines: the paper's number, numacoll's, a verdict");
    auto options = std::make_shared<ReproduceOptions>();
    command->add_option("findings", options->names,
                        "findings to run: names (see --list), a paper's prefix (hpdc13, hier, nuioa) or all (default)");
    command->add_option("--output-dir,-o,--output", options->folder,
                        "folder for reproduce.csv (with why and a command per finding), figures.csv and the figures")
        ->capture_default_str();
    command
        ->add_option("--machine", options->machines,
                     "NAME=FILE: simulate bundled machine NAME from an hwloc XML export of a real node instead, "
                     "with NAME's parameters (repeatable, one NAME=FILE each time)")
        ->allow_extra_args(false);
    command->add_flag("--list", options->list, "list the findings and exit");
    command->add_flag("--no-plots", options->no_plots, "write the CSV files but draw no figures");
    command->add_flag("-q,--quiet", options->quiet, "no progress on stderr");
    add_spread_options(*command, options->spread);
    command->footer("Examples:\n  numacoll reproduce --list\n  numacoll reproduce hpdc13-westmere-line\n"
                    "  numacoll reproduce all -o numacoll-reproduce   # every finding, a few seconds\n"
                    "  numacoll reproduce hpdc13 --machine westmere=my-westmere.xml   # the same on a real node's export\n"
                    "docs/fidelity.md explains every verdict.");
    return [options, command] { return run_reproduce(*options, *command); };
}

}  // namespace numacoll::cli

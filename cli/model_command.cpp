// numacoll model: the closed-form models' predictions (models/registry.hpp)
// for the same machine, layout, algorithms and sizes as numacoll sim, one
// CSV row per (algorithm, size), without simulating anything.
#include <fmt/format.h>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "models/registry.hpp"
#include "models/registry.hpp"
#include "results/csv_writer.hpp"
#include "results/result_row.hpp"

namespace numacoll::cli {

namespace {

struct ModelOptions {
    MachineOptions machine;
    AlgorithmOptions algorithm;
    std::string params;
    std::string bytes = "8B:16MiB";
    std::string output = "-";
    bool quiet = false;
};

}  // namespace

CommandRun add_model_command(CLI::App& app) {
    auto* command = app.add_subcommand("model", "predict collectives with the closed-form cost models");
    auto options = std::make_shared<ModelOptions>();
    options->machine.add_to(*command, "westmere", true);
    options->algorithm.add_to(*command, true);
    command->add_option("--params", options->params,
                        "cost parameters: a bundled name or a JSON file; default: the machine's own, else generic");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--output,-o", options->output, "CSV, - for standard output")->capture_default_str();
    command->add_flag("--quiet,-q", options->quiet, "no notes on stderr");
    command->footer(
        "Examples:\n"
        "  numacoll model --topology westmere --algorithm tree,tiled,dissemination --bytes 8B:16MiB\n"
        "  numacoll model --topology westmere -c bcast -a binomial,pipeline --nodes 4 --bytes 1MiB");

    return [options] {
        results::CsvWriter output(options->output, {"collective", "algorithm", "bytes", "ranks", "nodes", "model_ns",
                                                    "source", "options", "topology", "params"});
        const auto machine = options->machine.load();
        const algo::Layout layout = options->machine.layout(machine);
        const costs::Params params = costs::params_for(*machine, options->params);
        announce_generic_params(params, *machine, "model", options->quiet);
        // Every spec first, so that bad input fails before any row.
        std::vector<sched::CollectiveSpec> specs;
        for (const auto& spec : sweep_specs(options->algorithm, options->bytes))
            specs.push_back(algo::spec_with_defaults(spec, layout));
        for (const auto& spec : specs) {
            const models::ModelInfo* model = models::find_model(spec.collective, spec.algorithm);
            const std::optional<double> time = models::model_ns(spec, layout, params);
            output.row({sched::to_string(spec.collective), spec.algorithm, std::to_string(spec.bytes),
                        std::to_string(layout.size()), std::to_string(layout.nodes),
                        time ? fmt::format("{:.6f}", *time) : "", model ? model->source : "",
                        results::options_text(spec.options), machine->source, params.origin});
        }
        output.finish();
        return 0;
    };
}

}  // namespace numacoll::cli

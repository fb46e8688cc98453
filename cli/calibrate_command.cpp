// numacoll calibrate: measure this machine and write a params file for
// sim, validate and demo (calibrate/).
#include <fmt/format.h>

#include <iostream>

#include "cli/calibration_step.hpp"
#include "cli/commands.hpp"

namespace numacoll::cli {

namespace {

struct CalibrateOptions {
    std::string output = "calibrated-params.json";
    std::string measurements;
    CalibrationStep step;
};

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
    command->add_flag("--quiet,-q", options->step.quiet, "no progress on stderr");
    command->footer("Examples:\n  numacoll calibrate -o my-machine.json && numacoll validate --params my-machine.json\n"
                    "  numacoll calibrate --quick --measurements points.csv");
    return [options] {
        write_calibration(options->output, options->measurements, options->step.quiet, options->step);
        std::cout << fmt::format("wrote {}\n", options->output);
        return 0;
    };
}

}  // namespace numacoll::cli

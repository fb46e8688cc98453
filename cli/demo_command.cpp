// numacoll demo: the main job on its embedded default, the whole chain on
// this machine: its hwloc model; the allreduce "tree" DAG, proven and drawn;
// a quick calibration (kept in the output folder and reused on this host);
// then, from 8 B to 16 MiB, the allreduce tree, tiled and dissemination DAGs
// simulated on SimGrid, executed on pinned threads and compared with the
// paper's models; and the plots.
#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <map>

#include "algorithms/registry.hpp"
#include "cli/calibration_step.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "common/program_run.hpp"
#include "plots/plotting.hpp"
#include "cli/validation_output.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/progress.hpp"
#include "costs/params.hpp"
#include "exec/harness.hpp"
#include "schedule/schedule_io.hpp"
#include "schedule/symbolic_checker.hpp"

namespace numacoll::cli {

namespace {

struct DemoOptions {
    AlgorithmOptions algorithm;
    MachineOptions machine;
    std::string params;
    int calibration_attempts = 3;
    std::string bytes = "8B:16MiB";
    int iterations = exec::iterations_by_size;
    std::string output_dir = "numacoll-out";
    bool quiet = false;
};

std::string kind_counts(const sched::Schedule& schedule) {
    std::map<std::string, int> counts;
    for (int id = 0; id < schedule.task_count(); ++id) ++counts[sched::to_string(schedule.task(id).kind)];
    std::string out;
    for (const auto& [kind, count] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", count, kind);
    return out;
}

}  // namespace

CommandRun add_demo_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "demo", "the main job: this machine's model, its allreduce tree DAG proven, simulated, executed, plotted");
    auto options = std::make_shared<DemoOptions>();
    options->algorithm.algorithm = "tree,tiled,dissemination";
    options->algorithm.add_to(*command, true);
    options->machine.add_this_machine_to(*command, "threads (ranks); 0 = one per core");
    command->add_option("--params", options->params,
                        "cost parameters for this machine (default: a quick calibration, kept in the output folder "
                        "and reused on this host)");
    auto* attempts_option = command->add_option("--attempts", options->calibration_attempts,
                        "without --params: when the calibration's points disagree or the host's speed moves by the "
                        "check after it, calibrate again, this many times at most")
        ->check(CLI::Range(1, 10))
        ->capture_default_str();
    command->add_option("--bytes,-b", options->bytes, "sizes of the sweep")->capture_default_str();
    add_iteration_options(*command, options->iterations, nullptr);
    command->add_option("--output-dir,-o", options->output_dir, "folder for the files it writes")->capture_default_str();
    command->add_flag("--quiet,-q", options->quiet, "no progress on stderr (the calibration's, the simulations')");

    return [options, attempts_option] {
        if (options->quiet) set_progress_reports(false);
        if (attempts_option->count() > 0 && !options->params.empty())
            throw UsageError("--attempts goes with the calibration, not with --params");
        const auto specs = sweep_specs(options->algorithm, options->bytes);  // checks the arguments before any work
        const algo::Layout layout = options->machine.layout_here();
        for (const auto& spec : specs) (void)algo::check_schedule_request(spec, layout);
        const auto& machine = layout.machine;
        const std::unique_ptr<OutputFolder> folder = open_output_folder(
            options->output_dir, "demo",
            {{"--topology", options->machine.topology, false}, {"--params", options->params, false}},
            validation_folder_scope());
        const std::filesystem::path dir(folder->staging());

        // 1. The machine and one DAG, proven and drawn.
        std::cout << "== This machine, as hwloc describes it ==\n" << topo::describe(*machine) << "\n";
        write_output_file((dir / "machine.txt").string(), topo::describe(*machine));
        sched::CollectiveSpec first = specs.front();  // the DAG shown is the first algorithm's
        first.bytes = 64;
        const sched::Schedule schedule = algo::generate_schedule(first, layout);
        const sched::CheckReport report = sched::check_schedule(schedule);
        const std::string stem = fmt::format("{}-{}-64B", sched::to_string(schedule.spec.collective), schedule.spec.algorithm);
        write_output_file((dir / (stem + ".txt")).string(), sched::to_text(schedule));
        write_output_file((dir / (stem + ".dot")).string(), sched::to_dot(schedule, llc_domains_of_ranks(schedule, *machine)));
        std::cout << fmt::format("== {} {} of 64 B on {} threads: {} tasks ({}) ==\n", sched::to_string(schedule.spec.collective),
                                 schedule.spec.algorithm, layout.size(), schedule.task_count(), kind_counts(schedule));
        std::cout << (report.holds ? fmt::format("symbolic check: holds ({} outputs proven)\n", report.outputs_checked)
                                   : fmt::format("symbolic check: FAILS: {}\n", report.problems.front()));
        const bool drawn = run_program({"dot", "-Tpng", (dir / (stem + ".dot")).string(), "-o",
                                        (dir / (stem + ".png")).string()},
                                       false)
                               .status == 0;
        if (!report.holds) throw CheckError("the symbolic check fails: " + report.problems.front());

        // 2. The sweep: simulated, executed, modelled.
        if (options->params.empty())
            std::cout << "\n== Calibrating this machine (quick; params-calibrated.json, reused on this host) ==\n";
        const costs::Params params = options->params.empty()
                                         ? calibrate_into_folder(*folder, {true, "generic", true, options->quiet, false,
                                                                          options->calibration_attempts})
                                         : costs::params_for(*machine, options->params);
        std::cout << fmt::format("params: {}\n", params.description);
        const sim::PlatformModel platform(machine, params, 1);
        exec::ExecOptions exec_options;
        exec_options.timed_iterations = options->iterations;
        exec_options.warmup_iterations = exec::iterations_by_size_warmup;
        exec_options.pin_threads = !options->machine.no_pin;
        std::cout << fmt::format("\n== {} {} from {}: simulated, executed on {} threads, modelled ==\n",
                                 sched::to_string(schedule.spec.collective), schedule.spec.algorithm, options->bytes,
                                 layout.size());
        reached_stage("simulating");
        const std::string summary = write_validation_folder(folder->staging(), layout, platform, specs, exec_options,
                                                            64u << 10, false, options->machine.placement_name(), 3);
        std::cout << summary;
        reached_stage("writing");

        // 3. The plots, and every file in place together.
        std::vector<std::string> pictures = plots::plot_folder(folder->staging(), folder->staging());
        if (drawn) pictures.push_back(stem + ".png");
        folder->commit();
        std::cout << "pictures:\n";
        for (const auto& picture : pictures) std::cout << "  " << folder->final_path(picture) << "\n";
        std::cout << fmt::format("everything is in {}\n", std::filesystem::absolute(options->output_dir).string());
        return 0;
    };
}

}  // namespace numacoll::cli

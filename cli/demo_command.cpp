// numacoll demo: the main job on its embedded default. For now it shows the
// bundled Westmere machine, generates its allreduce "tree" DAG, proves it,
// simulates it on SimGrid, and writes the DAG as text, JSON, DOT and (with
// graphviz) PNG, plus the simulated timeline.
#include <fmt/format.h>

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "algorithms/byte_size.hpp"
#include "algorithms/registry.hpp"
#include "algorithms/schedule_io.hpp"
#include "algorithms/symbolic_checker.hpp"
#include "algorithms/timeline.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "sim/engine.hpp"
#include "topologies/error.hpp"

namespace numacoll::cli {

namespace {

struct DemoOptions {
    MachineOptions machine;
    std::string bytes = "64";
    std::string output_dir = "numacoll-out";
};

// Runs a program with arguments (no shell: paths may hold any character);
// true when it ran and exited 0. A missing program is simply false.
bool run_program(std::vector<std::string> arguments) {
    std::vector<char*> argv;
    for (auto& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    pid_t child = 0;
    if (::posix_spawnp(&child, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return false;
    int status = 0;
    while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

std::string kind_counts(const algo::Schedule& schedule) {
    std::map<std::string, int> counts;
    for (int id = 0; id < schedule.task_count(); ++id) ++counts[algo::to_string(schedule.task(id).kind)];
    std::string out;
    for (const auto& [kind, count] : counts) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", count, kind);
    return out;
}

}  // namespace

CommandRun add_demo_command(CLI::App& app) {
    auto* command = app.add_subcommand("demo", "the main job: show a machine and its allreduce tree DAG, proven");
    auto options = std::make_shared<DemoOptions>();
    options->machine.add_to(*command, "westmere", true);
    command->add_option("--bytes,-b", options->bytes, "vector size per rank")->capture_default_str();
    command->add_option("--output-dir,-o", options->output_dir, "folder for the files it writes")->capture_default_str();

    return [options] {
        const auto machine = options->machine.load();
        const algo::Layout layout = options->machine.layout(machine);
        algo::CollectiveSpec spec;
        spec.collective = algo::Collective::allreduce;
        spec.algorithm = "tree";
        spec.bytes = parse_byte_size(options->bytes, "--bytes");
        const algo::Schedule schedule = algo::generate_schedule(spec, layout);
        const algo::CheckReport report = algo::check_schedule(schedule);

        std::error_code error;
        std::filesystem::create_directories(options->output_dir, error);
        if (error) throw UsageError(fmt::format("cannot create output folder '{}': {}", options->output_dir, error.message()));
        const std::filesystem::path dir(options->output_dir);
        const std::string stem = fmt::format("allreduce-tree-{}", format_bytes(spec.bytes));
        write_output((dir / "machine.txt").string(), topo::describe(*machine));
        write_output((dir / (stem + ".txt")).string(), algo::to_text(schedule));
        write_output((dir / (stem + ".json")).string(), algo::to_json(schedule));
        const std::string dot_path = (dir / (stem + ".dot")).string();
        write_output(dot_path, algo::to_dot(schedule));

        std::cout << "== Machine ==\n" << topo::describe(*machine) << "\n";
        std::cout << fmt::format("== allreduce tree, {} per rank, {} ranks on {} node(s) ==\n", format_bytes(spec.bytes),
                                 layout.size(), layout.nodes);
        std::cout << algo::to_text(schedule) << "\n";
        std::cout << fmt::format("{} tasks: {}\n", schedule.task_count(), kind_counts(schedule));
        std::cout << (report.holds ? fmt::format("symbolic check: holds ({} outputs proven)\n", report.outputs_checked)
                                   : fmt::format("symbolic check: FAILS: {}\n", report.problems.front()));
        const sim::Params params = sim::params_for(*machine, "");
        const sim::PlatformModel platform(machine, params, layout.nodes);
        const sim::Simulation simulated = sim::simulate(schedule, platform);
        std::cout << fmt::format("simulated on SimGrid: {:.1f} ns (params {})\n", simulated.timeline.makespan_ns,
                                 params.origin);
        write_output((dir / (stem + "-trace.csv")).string(),
                     algo::trace_csv_header("") + algo::trace_csv_rows(schedule, simulated.timeline, ""));

        const std::string png_path = (dir / (stem + ".png")).string();
        const std::string png_note = run_program({"dot", "-Tpng", dot_path, "-o", png_path})
                                         ? "picture: " + png_path
                                         : "no picture: graphviz's dot is missing or failed; render " + dot_path +
                                               " with dot -Tpng";
        std::cout << png_note << "\n";
        std::cout << fmt::format("wrote machine.txt, {0}.txt, {0}.json, {0}.dot, {0}-trace.csv into {1}\n", stem,
                                 std::filesystem::absolute(dir).string());
        return report.holds ? 0 : 1;
    };
}

}  // namespace numacoll::cli

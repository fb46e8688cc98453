// numacoll sim: predict how long collectives take on a machine, by running
// their schedules on SimGrid over the machine's platform model; under mpirun
// or srun, the points spread over the processes (spread/distribution.hpp).
#include <fmt/format.h>

#include <iostream>
#include <map>
#include <optional>

#include "algorithms/registry.hpp"
#include "api/generate_and_simulate.hpp"
#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/mpi_agreement.hpp"
#include "cli/mpi_failures.hpp"
#include "models/registry.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "results/result_row.hpp"
#include "common/output_file.hpp"
#include "results/trace_writer.hpp"
#include "schedule/sequence.hpp"
#include "schedule/validate_schedule.hpp"
#include "sim/engine.hpp"
#include "spread/distribution.hpp"

namespace numacoll::cli {

namespace {

struct SimOptions {
    MachineOptions machine;
    AlgorithmOptions algorithm;
    std::string params;
    std::string bytes = "8B:16MiB";
    std::string output = "-";
    std::string trace;
    std::string from;
    std::vector<std::string> simgrid_configs;
    std::vector<std::string> simgrid_logs;
    bool quiet = false;
    int repeat = 1;
};

}  // namespace

CommandRun add_sim_command(CLI::App& app) {
    auto* command = app.add_subcommand("sim", "simulate collectives on SimGrid over a machine's platform model");
    auto options = std::make_shared<SimOptions>();
    options->machine.add_to(*command, "westmere", true);
    options->algorithm.add_to(*command, true, true);
    command->add_option("--params", options->params,
                        "cost parameters: a bundled name (westmere, magnycours, opteron8218, haswell, generic) or a JSON file; "
                        "default: the machine's own, else generic");
    command->add_option("--bytes,-b", options->bytes, "sizes: 8B:16MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--output,-o", options->output, "result CSV, - for standard output")->capture_default_str();
    command->add_option("--trace", options->trace, "write every task's simulated start and end to this file: CSV; Chrome's trace format for a .json "
                        "name (Perfetto, chrome://tracing); Paje for a .paje name (pj_dump, ViTE)");
    command->add_option("--from", options->from,
                        "simulate this schedule file (text or JSON) instead of generating; on the machine it names, "
                        "or on --topology. A file holding several collectives (text files joined with cat, or a JSON "
                        "list) is simulated as one sequence, each rank starting the next when its part of the one "
                        "before ends");
    command->add_option("--cfg", options->simgrid_configs,
                        "SimGrid configuration as KEY:VALUE, as SimGrid's own --cfg (repeatable; numacoll keeps "
                        "network/model, network/crosstraffic, network/TCP-gamma and the timing precision, which its "
                        "cost model and unit of time rest on)");
    command->add_option("--log", options->simgrid_logs,
                        "SimGrid logging, as SimGrid's own --log, e.g. root.thres:info (repeatable)");
    command->add_option("--repeat", options->repeat,
                        "simulate each collective this many times back to back in one simulation (each rank starts "
                        "the next call when its part of the previous one ends); times and the model are for the "
                        "whole sequence")
        ->check(CLI::Range(1, 1000000))
        ->capture_default_str();
    command->add_flag("--quiet,-q", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  numacoll sim --topology westmere --algorithm tree --bytes 8B:16MiB -o westmere.csv\n"
        "  numacoll sim --topology magnycours --bcast 2stage --bytes 64,1MiB --trace trace.csv\n"
        "  numacoll sim --topology synthetic:\"Package:16 L3Cache:1 Core:64\" --params generic --bytes 4KiB\n"
        "  numacoll sim --topology westmere --nodes 512 --bytes 64KiB --repeat 10\n"
        "  cat allreduce.txt bcast.txt > step.txt && numacoll sim --from step.txt --repeat 100");

    return [options, command] {
        // Under mpirun or srun, the points are spread over the processes
        // (spread/distribution.hpp) and process 0 writes every row, in point order.
        const StartedMpi started = start_mpi_if_launched(*command, MPI_THREAD_MULTIPLE);
        if (started.exit_code != 0) return started.exit_code;
        const exec::MpiWorld* world = started.world.get();
        const bool spread_over_processes = world != nullptr && world->size() > 1;
        const bool writer = world == nullptr || world->rank() == 0;

        // The result columns, and the closed-form model's prediction beside the simulation's.
        std::vector<std::string> columns = results::result_columns();
        columns.push_back("model_ns");
        std::optional<results::CsvWriter> output;
        std::optional<results::TraceWriter> trace;
        std::shared_ptr<const topo::Machine> machine;
        std::optional<algo::Layout> layout;
        std::optional<sched::Schedule> loaded;
        std::vector<sched::CollectiveSpec> specs;
        std::vector<std::size_t> estimated_tasks;  // per point: a lower bound
        bool repeated = false;  // a sequence from a file takes --repeat as it is joined
        std::optional<costs::Params> params;
        std::optional<sim::PlatformModel> platform;
        const auto prepare = [&] {
            if (!options->from.empty()) refuse_generation_options_with_from(*command);
            if (spread_over_processes && !options->trace.empty())
                throw UsageError(fmt::format("--trace keeps every task of every point, which the {} processes of "
                                             "this job do not send each other: trace in one process",
                                             world->size()));
            sim::set_simgrid_arguments(options->simgrid_configs, options->simgrid_logs);
            // Outputs open first: a path that cannot be written fails before any work.
            check_distinct_paths({{"-o", options->output, true},
                                  {"--trace", options->trace, true},
                                  {"--from", options->from, false},
                                  {"--topology", options->machine.topology, false},
                                  {"--params", options->params, false}});
            if (writer) output.emplace(options->output, columns);
            if (writer && !options->trace.empty()) {
                discard_earlier_output(options->trace);  // an interrupted run keeps its rows, never beside an older trace
                trace.emplace(options->trace);
            }
            // Read the schedule, or check every point of the sweep (options,
            // sizes, the task budget's estimate), first: bad options fail, and
            // schedules too large are refused, before the platform is built.
            // The sweep's schedules are then generated one at a time, each just
            // before it is simulated: holding them all at once doubled the peak
            // memory of a sweep at thousands of nodes (CHANGELOG.md, "How the
            // simulator got its speed").
            if (!options->from.empty()) {
                // A file of several collectives is one simulation of them in a row.
                std::vector<sched::Schedule> parts = load_schedules(options->from);
                // A file may be anything: the simulator runs what the executor
                // would, so it refuses what the executor refuses.
                for (const sched::Schedule& part : parts) sched::validate_schedule(part);
                if (parts.size() == 1) {
                    loaded = std::move(parts.front());
                } else {
                    loaded = sched::sequence(parts, options->repeat);
                    repeated = true;
                }
                const auto& named = loaded->provenance;
                if (command->count("--topology") == 0 && !named.count("topology"))
                    throw UsageError(
                        fmt::format("'{}' does not name its machine: give it with --topology", options->from));
                machine = std::make_shared<const topo::Machine>(topo::load_machine(
                    command->count("--topology") > 0 ? options->machine.topology : named.at("topology")));
                check_schedule_fits(*loaded, machine, options->from);
                estimated_tasks.push_back(static_cast<std::size_t>(loaded->task_count()));
            } else {
                machine = options->machine.load();
                layout.emplace(options->machine.layout(machine));
                specs = sweep_specs(options->algorithm, options->bytes);
                for (const auto& spec : specs) {
                    const std::size_t tasks = algo::check_schedule_request(spec, *layout);
                    if (options->repeat > 1) sched::check_back_to_back(tasks, spec, options->repeat, true);
                    estimated_tasks.push_back(tasks);
                }
            }
            params = costs::params_for(*machine, options->params);
            if (writer) announce_generic_params(*params, *machine, "sim", options->quiet);
            platform.emplace(machine, *params, loaded ? loaded->nodes : layout->nodes);
        };

        const results::Provenance provenance = results::current_provenance();
        // One point, simulated: its CSV fields, the progress line's words and,
        // when traced, the schedule and its timeline.
        struct SimulatedPoint {
            std::vector<std::string> fields;
            std::string said;
            sched::Schedule schedule;
            sched::Timeline timeline;
        };
        const auto simulate_point = [&](std::size_t point, bool traced) {
            // What the row, the model and the message need; the schedule
            // itself only for the trace.
            SimulatedPoint simulated;
            results::ResultRow row;
            sched::CollectiveSpec spec;
            int task_count = 0;
            sim::Simulation result;
            if (!loaded && options->repeat == 1 && !options->algorithm.as_processes()) {
                api::GeneratedSimulation generated =
                    api::generate_and_simulate(specs[point], *layout, *platform, estimated_tasks[point], traced);
                row = std::move(generated.row);
                spec = std::move(generated.spec);
                task_count = row.tasks;
                result = std::move(generated.simulation);
                if (generated.schedule) simulated.schedule = std::move(*generated.schedule);
            } else {
                if (loaded) {
                    simulated.schedule = std::move(*loaded);  // its one point: simulated once
                    if (options->repeat > 1 && !repeated)
                        simulated.schedule = sched::back_to_back(simulated.schedule, options->repeat);
                } else {
                    simulated.schedule = sched::back_to_back(
                        options->algorithm.in_rank_form(algo::generate_schedule(specs[point], *layout)),
                        options->repeat);
                }
                row = results::simulated_row(simulated.schedule, 0);
                spec = simulated.schedule.spec;
                task_count = simulated.schedule.task_count();
                result = sim::simulate(simulated.schedule, *platform);
                row.time_ns = result.timeline.makespan_ns;
            }
            row.placement = options->from.empty() ? options->machine.placement_name() : "";
            row.topology = machine->source;
            row.params = params->origin;
            row.provenance = provenance;
            simulated.fields = results::result_fields(row);
            // A schedule from a file has no layout to model.
            const std::optional<double> model = layout ? models::model_ns(spec, *layout, *params) : std::nullopt;
            simulated.fields.push_back(model ? fmt::format("{:.6f}", *model * options->repeat) : "");
            const std::string what = spec.options.count("sequence")
                                         ? spec.options.at("sequence")
                                         : fmt::format("{} {} {}", sched::to_string(spec.collective), spec.algorithm,
                                                       format_bytes(spec.bytes));
            simulated.said = fmt::format("{}: {:.1f} ns ({} tasks, {:.2f} s)", what, result.timeline.makespan_ns,
                                         task_count, result.stats.wall_seconds);
            simulated.timeline = std::move(result.timeline);
            return simulated;
        };
        const auto say = [&](std::size_t done, std::size_t total, const std::string& said) {
            if (!options->quiet) std::cerr << fmt::format("[{}/{}] {}\n", done, total, said);
        };

        const auto work_alone = [&] {
            const std::size_t total = estimated_tasks.size();
            for (std::size_t point = 0; point < total; ++point) {
                SimulatedPoint simulated = simulate_point(point, trace.has_value());
                output->row(simulated.fields);  // each point as it finishes
                if (trace) trace->write(simulated.schedule, simulated.timeline);
                say(point + 1, total, simulated.said);
            }
            if (trace) trace->finish();
            output->finish();
        };
        const auto work_spread = [&] {
            // A point travels as its fields and its line, each after its length.
            const auto packed = [](std::vector<std::string> fields) {
                std::string text;
                for (const std::string& field : fields) text += fmt::format("{}:{}", field.size(), field);
                return text;
            };
            const auto unpacked = [](const std::string& text) {
                std::vector<std::string> fields;
                for (std::size_t at = 0; at < text.size();) {
                    const std::size_t colon = text.find(':', at);
                    if (colon == std::string::npos) throw Error("a simulated point came back torn");
                    const std::size_t length = std::stoul(text.substr(at, colon - at));
                    fields.push_back(text.substr(colon + 1, length));
                    at = colon + 1 + length;
                }
                return fields;
            };
            spread::SpreadRequest request;
            request.expected_cost.assign(estimated_tasks.begin(), estimated_tasks.end());
            request.world = world;
            request.progress_what = "sim";
            // Rows go out in point order: each once every point before it is in.
            std::map<std::size_t, std::vector<std::string>> waiting;
            std::size_t next_row = 0, arrived = 0;
            request.on_result = [&](std::size_t point, const std::string& result) {
                std::vector<std::string> fields = unpacked(result);
                say(++arrived, estimated_tasks.size(), fields.back());
                fields.pop_back();
                waiting.emplace(point, std::move(fields));
                for (auto found = waiting.find(next_row); found != waiting.end(); found = waiting.find(next_row)) {
                    output->row(found->second);
                    waiting.erase(found);
                    ++next_row;
                }
            };
            (void)spread::compute_points(request, [&](std::size_t point) {
                SimulatedPoint simulated = simulate_point(point, false);
                simulated.fields.push_back(simulated.said);
                return packed(std::move(simulated.fields));
            });
            on_writer(*world, [&] { output->finish(); });
        };
        return prepare_then_run(world, prepare, [&] {
            if (spread_over_processes)
                work_spread();
            else if (world != nullptr)
                on_writer(*world, work_alone);
            else
                work_alone();
        }, "process");
    };
}

}  // namespace numacoll::cli

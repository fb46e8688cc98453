#include "cli/validation_output.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "algorithms/registry.hpp"
#include "calibrate/calibration.hpp"
#include "calibrate/host_check.hpp"
#include "cli/common.hpp"
#include "cli/mpi_failures.hpp"
#include "plots/plotting.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "models/shape.hpp"
#include "numacoll/version.hpp"
#include "results/csv_writer.hpp"
#include "results/trace_writer.hpp"
#include "spread/distribution.hpp"
#include "validate/validation.hpp"

namespace numacoll::cli {

std::string write_validation_folder(const std::string& folder, const algo::Layout& layout,
                                    const sim::PlatformModel& platform, const std::vector<sched::CollectiveSpec>& specs,
                                    const exec::ExecOptions& exec_options, std::uint64_t trace_bytes, bool quiet,
                                    const std::string& placement, int rounds, bool* host_moved,
                                    const std::string& note_line, const ValidationEngine* engine,
                                    const std::function<sched::Schedule(const sched::CollectiveSpec&)>& make_schedule) {
    const std::filesystem::path dir(folder);
    const costs::Params& params = platform.params();
    const bool writes = engine == nullptr || engine->writes_files;
    const std::string ranks = layout.nodes > 1 ? fmt::format("{} nodes x {} threads", layout.nodes, layout.ranks_per_node)
                                               : fmt::format("{} threads", layout.size());
    const std::string description = fmt::format(
        "numacoll {}; machine {}; {}{}; params {}{}; {} x {} rounds", numacoll::version_and_revision,
        layout.machine->source, ranks, engine ? "; " + engine->description : "", params.origin,
        params.generic_fallback ? " (generic)" : "",
        exec_options.timed_iterations == exec::iterations_by_size
            ? std::string("timed iterations by size (1000 up to 8 KiB, 100 above)")
            : fmt::format("{} timed iterations", exec_options.timed_iterations),
        rounds);
    // Rows go out as each point finishes: an interrupted run keeps them.
    std::optional<results::CsvWriter> csv;
    if (writes) csv.emplace((dir / "validation.csv").string(), validate::validation_columns());
    const std::string trace_paths[] = {(dir / "trace-simulated.csv").string(), (dir / "trace-measured.csv").string(),
                                       (dir / "trace.json").string()};
    // With a process per node, every process learns whether process 0 could write.
    const auto written_by_one = [&](const std::function<void()>& write) {
        if (engine != nullptr && engine->world != nullptr)
            on_writer(*engine->world, write);
        else if (writes)
            write();
    };

    validate::ValidationSetup setup;
    setup.machine = layout.machine.get();
    setup.platform = &platform;
    setup.shape = models::node_shape(layout);
    setup.shape.threads_only = true;  // as the engines run every schedule: threads inside a node
    setup.make_schedule = make_schedule ? make_schedule : [&layout](const sched::CollectiveSpec& spec) {
        return algo::generate_schedule(spec, layout);
    };
    if (engine) setup.execute = engine->execute;
    // A process per node: the simulations are spread over the processes
    // before the measurements, rather than every process making each one.
    if (engine != nullptr && engine->world != nullptr && engine->world->size() > 1) {
        const exec::MpiWorld* world = engine->world;
        setup.simulate_points = [world, quiet](const std::vector<double>& expected_cost,
                                               const std::function<double(std::size_t)>& simulate) {
            spread::SpreadRequest request;
            request.expected_cost = expected_cost;
            request.world = world;
            request.progress_what = "validate: simulating";
            if (!quiet && world->rank() == 0)
                std::cerr << fmt::format("validate: simulating {} points on {} processes before measuring\n",
                                         expected_cost.size(), world->size());
            std::vector<std::optional<double>> makespans;
            for (const std::optional<std::string>& text : spread::compute_points(
                     request, [&](std::size_t point) { return fmt::format("{}", simulate(point)); }))
                makespans.push_back(text ? std::optional<double>(std::stod(*text)) : std::nullopt);
            return makespans;
        };
    }
    setup.exec_options = exec_options;
    setup.trace_bytes = trace_bytes;
    setup.rounds = rounds;
    {
        // One thread's: the clock reads around an iteration. How far apart
        // the threads leave the common start counts only where the thread that
        // starts first is not the one the others wait for, so it is left out.
        exec::MemoryBinding binding(*layout.machine);
        setup.timing_floor_ns = exec::timing_floor_ns({layout.ranks.front().pu}, binding, exec_options.pin_threads);
    }
    if (!quiet && rounds > 1)
        std::cerr << fmt::format("measuring {} points in {} interleaved rounds; the last one reports each point\n",
                                 specs.size(), rounds);
    setup.row_template.placement = placement;
    setup.row_template.topology = layout.machine->source;
    setup.row_template.provenance = results::current_provenance();
    // Params calibrated on this host: check before and after whether the host still runs at their speed.
    // (This process's node only: with a process per node the others would be running their own.)
    const bool calibrated_here =
        engine == nullptr && params.name == costs::calibrated_name(setup.row_template.provenance.host);
    std::optional<calibrate::HostCheck> before;
    if (calibrated_here) before = calibrate::check_host(*layout.machine, params);
    const auto run = validate::run_validation(setup, specs, [&](const validate::ValidationPoint& p, int done, int total) {
        written_by_one([&] {
            csv->row(validate::validation_fields(p, description));
            if (quiet) return;
            std::cerr << fmt::format("[{}/{}] {} {} {}: measured {:.0f} ns, simulated {:.0f} ns{}\n", done, total,
                                     p.measured.collective, p.measured.algorithm, format_bytes(p.measured.bytes),
                                     p.measured.time_ns, p.simulated.time_ns,
                                     p.model_ns ? fmt::format(", model {:.0f} ns", *p.model_ns) : "");
        });
    });
    std::string summary;
    written_by_one([&] {
        if (!run.pinned || !run.numa_bound)
            std::cerr << fmt::format("numacoll: threads {}pinned, memory {}bound to NUMA nodes (the system refused)\n",
                                     run.pinned ? "" : "NOT ", run.numa_bound ? "" : "NOT ");
        csv->finish();
        summary = validate::summary_text(run.points, description);
        if (!note_line.empty()) summary.insert(summary.find('\n') + 1, note_line + "\n");
        if (host_moved) *host_moved = false;
        if (before) {
            const calibrate::HostCheck after = calibrate::check_host(*layout.machine, params);
            const std::string check = calibrate::host_check_text(*before, after);
            summary.insert(summary.find('\n') + 1, check);
            if (!quiet) std::cerr << check;
            if (host_moved) *host_moved = !calibrate::host_held(*before, after);
        }
        write_output_file((dir / "summary.txt").string(), summary);
        for (const bool simulated : {true, false}) {
            if (run.traces.empty()) continue;
            results::TraceWriter trace(trace_paths[simulated ? 0 : 1]);
            for (const auto& pair : run.traces) trace.write(pair.schedule, simulated ? pair.simulated : pair.measured);
            trace.finish();
        }
        // Both timelines in one file for Perfetto and chrome://tracing: each
        // point's simulated and measured nodes are processes side by side.
        if (!run.traces.empty()) {
            results::TraceWriter both(trace_paths[2]);
            for (const auto& pair : run.traces) {
                both.write(pair.schedule, pair.simulated, "simulated");
                both.write(pair.schedule, pair.measured, "measured");
            }
            both.finish();
        }
    });
    return summary;
}

OutputFolder::Scope validation_folder_scope() {
    OutputFolder::Scope scope;
    scope.also_earlier = [](const std::string& name) {
        for (const char* file : {"validation.csv", "summary.txt", "trace-simulated.csv", "trace-measured.csv", "trace.json"})
            if (name == file) return true;
        return plots::is_validation_picture(name);
    };
    return scope;
}

}  // namespace numacoll::cli

#include "validate/validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/statistics.hpp"
#include "models/registry.hpp"
#include "sim/engine.hpp"
#include "validate/selection.hpp"

namespace numacoll::validate {

sched::Schedule as_executed(const sched::Schedule& schedule) {
    sched::Schedule threads = schedule;
    threads.rank_kind = sched::RankKind::thread;
    return threads;
}

ValidationRun run_validation(const ValidationSetup& setup, const std::vector<sched::CollectiveSpec>& specs,
                             const std::function<void(const ValidationPoint&, int done, int total)>& on_point) {
    ValidationRun run;
    if (setup.rounds < 1) throw UsageError(fmt::format("rounds must be >= 1 (got {})", setup.rounds));
    // Every schedule once, before any measurement (a spec that cannot be
    // generated fails before the work). Earlier rounds measure every point and
    // keep their iteration times; the last one adds its own, simulates, and
    // finishes each point in turn.
    std::vector<sched::Schedule> schedules;
    for (const auto& spec : specs) schedules.push_back(setup.make_schedule(spec));
    const auto execute = [&](const sched::Schedule& schedule, const exec::ExecOptions& options) {
        return setup.execute ? setup.execute(schedule, options) : exec::run_on_threads(schedule, *setup.machine, options);
    };
    const auto traced = [&](std::size_t k) { return schedules[k].spec.bytes == setup.trace_bytes; };
    // Simulations handed out before measuring (an MPI job's spread): the
    // traced points keep theirs here, for the timelines.
    std::vector<std::optional<double>> simulated_ns(specs.size());
    if (setup.simulate_points) {
        std::vector<std::size_t> untraced;
        std::vector<double> expected_cost;
        for (std::size_t k = 0; k < specs.size(); ++k)
            if (!traced(k)) {
                untraced.push_back(k);
                expected_cost.push_back(schedules[k].task_count());
            }
        const std::vector<std::optional<double>> makespans =
            setup.simulate_points(expected_cost, [&](std::size_t j) {
                return sim::simulate(as_executed(schedules[untraced[j]]), *setup.platform).timeline.makespan_ns;
            });
        for (std::size_t j = 0; j < untraced.size(); ++j)
            simulated_ns[untraced[j]] = j < makespans.size() && makespans[j] ? *makespans[j] : 0.0;
    }
    std::vector<std::vector<double>> pooled(specs.size());
    bool pinned = true, bound = true;
    for (int round = 1; round < setup.rounds; ++round)
        for (std::size_t k = 0; k < specs.size(); ++k) {
            const exec::ExecResult measured = execute(schedules[k], setup.exec_options);
            pooled[k].insert(pooled[k].end(), measured.iteration_ns.begin(), measured.iteration_ns.end());
            pinned = pinned && measured.threads_pinned;
            bound = bound && measured.memory_bound;
        }
    int done = 0;
    for (std::size_t k = 0; k < specs.size(); ++k) {
        const sched::Schedule& schedule = schedules[k];
        exec::ExecOptions options = setup.exec_options;
        options.trace = traced(k);
        sim::Simulation simulated;
        if (simulated_ns[k])
            simulated.timeline.makespan_ns = *simulated_ns[k];
        else
            simulated = sim::simulate(as_executed(schedule), *setup.platform);
        exec::ExecResult measured = execute(schedule, options);
        pooled[k].insert(pooled[k].end(), measured.iteration_ns.begin(), measured.iteration_ns.end());
        measured.stats = summarize_times(pooled[k]);
        measured.threads_pinned = measured.threads_pinned && pinned;
        measured.memory_bound = measured.memory_bound && bound;

        const auto complete = [&](results::ResultRow row) {
            row.placement = setup.row_template.placement;
            row.topology = setup.row_template.topology;
            row.provenance = setup.row_template.provenance;
            return row;
        };
        ValidationPoint point;
        point.timing_floor_ns = setup.timing_floor_ns;
        point.simulated = complete(results::simulated_row(schedule, simulated.timeline.makespan_ns));
        point.simulated.params = setup.platform->params().origin;
        point.measured =
            complete(results::measured_row(schedule, measured.stats, measured.threads_pinned, measured.memory_bound));
        if (const models::ModelInfo* model = models::find_model(schedule.spec.collective, schedule.spec.algorithm))
            point.model_ns = model->predict(schedule.spec, setup.shape, setup.platform->params());
        run.points.push_back(point);
        run.pinned = run.pinned && measured.threads_pinned;
        run.numa_bound = run.numa_bound && measured.memory_bound;
        if (traced(k)) run.traces.push_back({schedule, simulated.timeline, measured.timeline});
        if (on_point) on_point(point, ++done, static_cast<int>(specs.size()));
        pooled[k] = {};
    }
    return run;
}

std::vector<std::string> validation_columns() {
    std::vector<std::string> columns = {
        "collective",     "algorithm",       "bytes",           "ranks",          "simulated_ns",
        "measured_median_ns", "measured_p10_ns", "measured_p90_ns", "measured_min_ns", "measured_max_ns",
        "iterations",     "model_ns",        "simulated_error", "model_error",    "simulated_abs_error_ns",
        "model_abs_error_ns", "provenance"};
    for (auto& column : results::provenance_columns()) columns.push_back(column);
    columns.push_back("timing_floor_ns");  // added to predictions before the errors
    return columns;
}

std::vector<std::string> validation_fields(const ValidationPoint& p, const std::string& description) {
    const TimeStats spread = p.measured.spread.value_or(TimeStats{});
    const auto one = [](double value) { return fmt::format("{:.1f}", value); };
    std::vector<std::string> fields = {
        p.measured.collective,
        p.measured.algorithm,
        std::to_string(p.measured.bytes),
        std::to_string(p.measured.ranks),
        fmt::format("{:.3f}", p.simulated.time_ns),
        one(p.measured.time_ns),
        one(spread.p10_ns),
        one(spread.p90_ns),
        one(spread.min_ns),
        one(spread.max_ns),
        std::to_string(spread.iterations),
        p.model_ns ? fmt::format("{:.3f}", *p.model_ns) : "",
        fmt::format("{:.4f}", p.simulated_error()),
        p.model_ns ? fmt::format("{:.4f}", *p.model_error()) : "",
        one(std::fabs(p.simulated.time_ns + p.timing_floor_ns - p.measured.time_ns)),
        p.model_ns ? one(std::fabs(*p.model_ns + p.timing_floor_ns - p.measured.time_ns)) : "",
        description,
    };
    for (auto& field : results::provenance_fields(p.measured.provenance)) fields.push_back(field);
    fields.push_back(fmt::format("{:.1f}", p.timing_floor_ns));
    return fields;
}

std::string summary_text(const std::vector<ValidationPoint>& points, const std::string& description) {
    std::map<std::string, std::vector<const ValidationPoint*>> by_algorithm;
    for (const auto& p : points) by_algorithm[p.measured.collective + " " + p.measured.algorithm].push_back(&p);
    std::string out = fmt::format("numacoll validation: {}\n", description);
    out += "relative error = (predicted - measured median) / measured median; absolute error = |predicted - measured median|\n";
    if (!points.empty() && points.front().timing_floor_ns > 0)
        out += fmt::format("predicted = the simulated or modelled time + the harness's timing floor, {:.1f} ns (an "
                           "iteration in which one thread does nothing: its clock reads); the tables show the "
                           "predictions without it\n",
                           points.front().timing_floor_ns);
    out += "\n";
    out += selection_text(select_algorithms(points));
    for (const auto& [name, list] : by_algorithm) {
        out += fmt::format("{} ({} sizes, {} ranks)\n", name, list.size(), list.front()->measured.ranks);
        for (const bool simulated : {true, false}) {
            const char* engine = simulated ? "simulated" : "model";
            const auto predicted = [&](const ValidationPoint& p) -> std::optional<double> {
                if (simulated) return p.simulated.time_ns + p.timing_floor_ns;
                return p.model_ns ? std::optional<double>(*p.model_ns + p.timing_floor_ns) : std::nullopt;
            };
            std::vector<double> errors, absolute_ns;
            const ValidationPoint* worst = nullptr;
            double worst_error = 0;
            for (const auto* p : list) {
                const std::optional<double> time = predicted(*p);
                if (!time) continue;
                const double error = std::fabs(relative_error(*time, p->measured.time_ns));
                errors.push_back(error);
                absolute_ns.push_back(std::fabs(*time - p->measured.time_ns));
                if (!worst || error > worst_error) worst = p, worst_error = error;
            }
            if (errors.empty()) {
                out += fmt::format("  {:<9}  no closed form for this algorithm\n", engine);
                continue;
            }
            out += fmt::format("  {:<9}  median |error| {:6.1f}%   worst {:7.1f}% at {};   absolute: median {:.0f} ns, worst {:.0f} ns\n",
                               engine, 100 * median(errors), 100 * worst_error, format_bytes(worst->measured.bytes),
                               median(absolute_ns), *std::max_element(absolute_ns.begin(), absolute_ns.end()));
        }
        out += "  size        measured median        simulated            model\n";
        for (const auto* p : list)
            out += fmt::format("  {:>8}  {:>14.0f} ns  {:>12.0f} ns ({:+.0f}%)  {}\n", format_bytes(p->measured.bytes),
                               p->measured.time_ns, p->simulated.time_ns, 100 * p->simulated_error(),
                               p->model_ns ? fmt::format("{:>10.0f} ns ({:+.0f}%)", *p->model_ns, 100 * *p->model_error()) : "-");
        out += "\n";
    }
    return out;
}

}  // namespace numacoll::validate

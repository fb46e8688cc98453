#include "validate/validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "common/byte_size.hpp"
#include "algorithms/registry.hpp"
#include "common/statistics.hpp"
#include "sim/engine.hpp"
#include "validate/tree_model.hpp"

namespace numacoll::validate {

namespace {

// The paper's shape of a layout: s sockets (packages with ranks) and q, the
// most ranks on one of them.
TreeShape shape_of(const algo::Layout& layout, const sched::CollectiveSpec& spec) {
    std::map<int, int> per_package;
    for (int rank = 0; rank < layout.ranks_per_node; ++rank) ++per_package[layout.ranks[rank].package];
    TreeShape shape;
    shape.sockets = static_cast<int>(per_package.size());
    for (const auto& [package, count] : per_package) shape.threads_per_socket = std::max(shape.threads_per_socket, count);
    if (auto it = spec.options.find("arity"); it != spec.options.end()) shape.arity = std::stoi(it->second);
    if (auto it = spec.options.find("bcast"); it != spec.options.end()) shape.two_stage = it->second == "2stage";
    return shape;
}

}  // namespace

ValidationRun run_validation(const algo::Layout& layout, const sim::PlatformModel& platform,
                             const std::vector<sched::CollectiveSpec>& specs, const exec::ExecOptions& exec_options,
                             std::uint64_t trace_bytes,
                             const std::function<void(const ValidationPoint&, int done, int total)>& progress) {
    ValidationRun run;
    int done = 0;
    for (const auto& requested : specs) {
        const sched::Schedule schedule = algo::generate_schedule(requested, layout);
        const bool traced = schedule.spec.bytes == trace_bytes;
        exec::ExecOptions options = exec_options;
        options.trace = traced;
        const sim::Simulation simulated = sim::simulate(schedule, platform);
        const exec::ExecResult measured = exec::run_on_threads(schedule, *layout.machine, options);

        ValidationPoint point;
        point.collective = sched::to_string(schedule.spec.collective);
        point.algorithm = schedule.spec.algorithm;
        point.bytes = schedule.spec.bytes;
        point.ranks = schedule.rank_count();
        point.simulated_ns = simulated.timeline.makespan_ns;
        point.measured = measured.stats;
        if (schedule.spec.collective == sched::Collective::allreduce && schedule.spec.algorithm == "tree")
            point.model_ns = tree_allreduce_model_ns(platform.params(), shape_of(layout, schedule.spec), schedule.spec.bytes);
        run.points.push_back(point);
        run.pinned = run.pinned && measured.threads_pinned;
        run.numa_bound = run.numa_bound && measured.memory_bound;
        if (traced) run.traces.push_back({schedule, simulated.timeline, measured.timeline});
        if (progress) progress(point, ++done, static_cast<int>(specs.size()));
    }
    return run;
}

std::string validation_csv(const std::vector<ValidationPoint>& points, const std::string& provenance) {
    std::string out = "collective,algorithm,bytes,ranks,simulated_ns,measured_median_ns,measured_p10_ns,measured_p90_ns,"
                      "measured_min_ns,measured_max_ns,iterations,model_ns,simulated_error,model_error,"
                      "simulated_abs_error_ns,model_abs_error_ns,provenance\n";
    std::string quoted;  // a CSV field: quotes doubled
    for (char c : provenance) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    for (const auto& p : points) {
        const bool model = p.model_ns >= 0;
        out += fmt::format("{},{},{},{},{:.3f},{:.1f},{:.1f},{:.1f},{:.1f},{:.1f},{},{},{:.4f},{},{:.1f},{},\"{}\"\n",
                           p.collective, p.algorithm, p.bytes, p.ranks, p.simulated_ns, p.measured.median_ns,
                           p.measured.p10_ns, p.measured.p90_ns, p.measured.min_ns, p.measured.max_ns,
                           p.measured.iterations, model ? fmt::format("{:.3f}", p.model_ns) : "", p.simulated_error(),
                           model ? fmt::format("{:.4f}", p.model_error()) : "",
                           std::fabs(p.simulated_ns - p.measured.median_ns),
                           model ? fmt::format("{:.1f}", std::fabs(p.model_ns - p.measured.median_ns)) : "", quoted);
    }
    return out;
}

std::string summary_text(const std::vector<ValidationPoint>& points, const std::string& provenance) {
    std::map<std::string, std::vector<const ValidationPoint*>> by_algorithm;
    for (const auto& p : points) by_algorithm[p.collective + " " + p.algorithm].push_back(&p);
    std::string out = fmt::format("numacoll validation: {}\n", provenance);
    out += "relative error = (predicted - measured median) / measured median; absolute error = |predicted - measured median|\n\n";
    for (const auto& [name, list] : by_algorithm) {
        out += fmt::format("{} ({} sizes, {} ranks)\n", name, list.size(), list.front()->ranks);
        for (const char* engine : {"simulated", "model"}) {
            std::vector<double> errors, absolute_ns;
            const ValidationPoint* worst = nullptr;
            for (const auto* p : list) {
                const bool simulated = std::string(engine) == "simulated";
                if (!simulated && p->model_ns < 0) continue;
                const double error = std::fabs(simulated ? p->simulated_error() : p->model_error());
                errors.push_back(error);
                absolute_ns.push_back(std::fabs((simulated ? p->simulated_ns : p->model_ns) - p->measured.median_ns));
                if (!worst || error > std::fabs(simulated ? worst->simulated_error() : worst->model_error())) worst = p;
            }
            if (errors.empty()) {
                out += fmt::format("  {:<9}  no closed form for this algorithm\n", engine);
                continue;
            }
            const double worst_error = std::fabs(std::string(engine) == "simulated" ? worst->simulated_error() : worst->model_error());
            out += fmt::format("  {:<9}  median |error| {:6.1f}%   worst {:7.1f}% at {};   absolute: median {:.0f} ns, worst {:.0f} ns\n",
                               engine, 100 * median(errors), 100 * worst_error, format_bytes(worst->bytes),
                               median(absolute_ns), *std::max_element(absolute_ns.begin(), absolute_ns.end()));
        }
        out += "  size        measured median        simulated            model\n";
        for (const auto* p : list)
            out += fmt::format("  {:>8}  {:>14.0f} ns  {:>12.0f} ns ({:+.0f}%)  {}\n", format_bytes(p->bytes), p->measured.median_ns,
                               p->simulated_ns, 100 * p->simulated_error(),
                               p->model_ns >= 0 ? fmt::format("{:>10.0f} ns ({:+.0f}%)", p->model_ns, 100 * p->model_error()) : "-");
        out += "\n";
    }
    return out;
}

}  // namespace numacoll::validate

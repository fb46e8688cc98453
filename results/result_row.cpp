#include "results/result_row.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace numacoll::results {

std::string options_text(const std::map<std::string, std::string>& options) {
    std::string out;
    for (const auto& [key, value] : options) out += (out.empty() ? "" : ";") + key + "=" + value;
    return out;
}

ResultRow row_for(const sched::Schedule& schedule) {
    const sched::CollectiveSpec& spec = schedule.spec;
    ResultRow row;
    row.collective = sched::to_string(spec.collective);
    row.algorithm = spec.algorithm;
    row.bytes = spec.bytes;
    row.ranks = schedule.rank_count();
    row.nodes = schedule.nodes;
    row.tasks = schedule.task_count();
    row.root = spec.root;
    row.op = sched::to_string(spec.op);
    row.datatype = sched::to_string(spec.datatype);
    row.options = options_text(spec.options);
    row.rank_kind = sched::to_string(schedule.rank_kind);
    if (std::any_of(schedule.buffers().begin(), schedule.buffers().end(),
                    [](const sched::Buffer& buffer) { return buffer.exposed; }))
        row.rank_kind += "+single-copy";
    return row;
}

ResultRow simulated_row(const sched::Schedule& schedule, double time_ns) {
    ResultRow row = row_for(schedule);
    row.engine = "sim";
    row.time_ns = time_ns;
    row.time_decimals = 6;
    return row;
}

ResultRow measured_row(const sched::Schedule& schedule, const TimeStats& times, bool pinned, bool numa_bound) {
    ResultRow row = row_for(schedule);
    row.engine = "threads";
    row.time_ns = times.median_ns;
    row.time_decimals = 1;
    row.spread = times;
    row.pinned = pinned;
    row.numa_bound = numa_bound;
    return row;
}

std::vector<std::string> result_columns() {
    std::vector<std::string> columns = {"collective", "algorithm", "bytes",    "ranks",     "nodes",    "engine",
                                        "time_ns",    "p10_ns",    "p90_ns",   "min_ns",    "max_ns",   "iterations",
                                        "tasks",      "placement", "root",     "op",        "datatype", "options",  "topology",
                                        "params",     "pinned",    "numa_bound", "rank_kind"};
    for (auto& column : provenance_columns()) columns.push_back(column);
    return columns;
}

std::vector<std::string> result_fields(const ResultRow& row) {
    const auto time = [&](double ns) { return fmt::format("{:.{}f}", ns, row.time_decimals); };
    const auto yes_no = [](const std::optional<bool>& value) -> std::string {
        return value ? (*value ? "yes" : "no") : "";
    };
    const TimeStats* spread = row.spread ? &*row.spread : nullptr;
    std::vector<std::string> fields = {
        row.collective,
        row.algorithm,
        std::to_string(row.bytes),
        std::to_string(row.ranks),
        std::to_string(row.nodes),
        row.engine,
        time(row.time_ns),
        spread ? time(spread->p10_ns) : "",
        spread ? time(spread->p90_ns) : "",
        spread ? time(spread->min_ns) : "",
        spread ? time(spread->max_ns) : "",
        spread ? std::to_string(spread->iterations) : "",
        std::to_string(row.tasks),
        row.placement,
        std::to_string(row.root),
        row.op,
        row.datatype,
        row.options,
        row.topology,
        row.params,
        yes_no(row.pinned),
        yes_no(row.numa_bound),
        row.rank_kind,
    };
    for (auto& field : provenance_fields(row.provenance)) fields.push_back(field);
    return fields;
}

}  // namespace numacoll::results

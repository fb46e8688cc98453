#include "results/trace_writer.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "common/byte_size.hpp"

namespace numacoll::results {

namespace {

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A large point goes out in pieces of this many events, so that its text never all sits in memory.
constexpr int batch_events = 4096;

std::string point_name(const sched::Schedule& schedule, const std::string& source) {
    const auto& spec = schedule.spec;
    std::string name = fmt::format("{} {} {}", sched::to_string(spec.collective), spec.algorithm, format_bytes(spec.bytes));
    if (!source.empty()) name += ", " + source;
    return name;
}

std::uint64_t task_bytes(const sched::Task& task) {
    if (task.write.buffer >= 0) return task.write.bytes;
    std::uint64_t bytes = 0;
    for (const sched::Range& read : task.reads) bytes += read.bytes;
    return bytes;
}

// Paje's header: the event kinds this file uses, with their fields.
constexpr const char* paje_header =
    "%EventDef PajeDefineContainerType 0\n%       Alias string\n%       Type string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%       Alias string\n%       Type string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 2\n%       Time date\n%       Alias string\n%       Type string\n"
    "%       Container string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 3\n%       Time date\n%       Type string\n%       Name string\n%EndEventDef\n"
    "%EventDef PajeSetState 4\n%       Time date\n%       Type string\n%       Container string\n"
    "%       Value string\n%EndEventDef\n"
    // Points hold nodes, nodes hold ranks, ranks have a state.
    "0 P 0 point\n0 N P node\n0 R N rank\n1 S R task\n";

}  // namespace

TraceFormat trace_format_of(const std::string& path) {
    if (ends_with(path, ".json")) return TraceFormat::chrome;
    if (ends_with(path, ".paje")) return TraceFormat::paje;
    return TraceFormat::csv;
}

TraceWriter::TraceWriter(const std::string& path) : format_(trace_format_of(path)) {
    if (format_ == TraceFormat::csv) {
        csv_ = std::make_unique<CsvWriter>(
            path, std::vector<std::string>{"collective", "algorithm", "bytes", "task", "thread", "kind", "label",
                                           "start_ns", "end_ns"});
        return;
    }
    file_ = std::make_unique<OutputFile>(path);
    std::string opening = format_ == TraceFormat::chrome ? "[\n" : paje_header;
    emit(opening, true);
}

TraceWriter::~TraceWriter() = default;

void TraceWriter::emit(std::string& text, bool completes_point) {
    file_->write(text);
    text.clear();
    if (completes_point) file_->mark_complete();
}

void TraceWriter::write(const sched::Schedule& schedule, const sched::Timeline& timeline, const std::string& source) {
    ++points_;
    if (format_ == TraceFormat::chrome) return write_chrome(schedule, timeline, source);
    if (format_ == TraceFormat::paje) return write_paje(schedule, timeline, source);
    const std::string collective = sched::to_string(schedule.spec.collective);
    const std::string bytes = std::to_string(schedule.spec.bytes);
    std::vector<std::vector<std::string>> rows;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        rows.push_back({collective, schedule.spec.algorithm, bytes, std::to_string(id), std::to_string(task.thread),
                        sched::to_string(task.kind), task.label.text(), fmt::format("{:.6f}", timeline.tasks[id].start_ns),
                        fmt::format("{:.6f}", timeline.tasks[id].end_ns)});
        const bool last = id + 1 == schedule.task_count();
        if (static_cast<int>(rows.size()) == batch_events || last) {
            csv_->rows(rows, last);
            rows.clear();
        }
    }
}

void TraceWriter::write_chrome(const sched::Schedule& schedule, const sched::Timeline& timeline,
                               const std::string& source) {
    using nlohmann::json;
    std::string text;
    const auto add = [&](const json& event) {
        text += (first_event_ ? "" : ",\n") + event.dump();
        first_event_ = false;
    };
    // One process per node of this point, named; one thread per rank.
    const int first_process = next_process_;
    next_process_ += schedule.nodes;
    const std::string name = point_name(schedule, source);
    for (int node = 0; node < schedule.nodes; ++node) {
        add({{"ph", "M"}, {"name", "process_name"}, {"pid", first_process + node},
             {"args", {{"name", fmt::format("{}, node {}", name, node)}}}});
        add({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", first_process + node},
             {"args", {{"sort_index", first_process + node}}}});
    }
    for (int rank = 0; rank < schedule.rank_count(); ++rank)
        add({{"ph", "M"}, {"name", "thread_name"}, {"pid", first_process + schedule.ranks[rank].node}, {"tid", rank},
             {"args", {{"name", fmt::format("rank {}", rank)}}}});
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        const sched::TaskTime& time = timeline.tasks[id];
        json args = {{"task", id}, {"kind", sched::to_string(task.kind)}, {"bytes", task_bytes(task)},
                     {"deps", schedule.predecessors(id)}};
        if (task.peer >= 0) args["peer"] = task.peer;
        add({{"ph", "X"},
             {"name", task.label.empty() ? std::string(sched::to_string(task.kind)) : task.label.text()},
             {"cat", sched::to_string(task.kind)},
             {"pid", first_process + schedule.ranks[task.thread].node},
             {"tid", task.thread},
             {"ts", time.start_ns / 1000.0},
             {"dur", std::max(0.0, time.end_ns - time.start_ns) / 1000.0},
             {"args", std::move(args)}});
        if ((id + 1) % batch_events == 0) emit(text, false);
    }
    emit(text, true);
}

void TraceWriter::write_paje(const sched::Schedule& schedule, const sched::Timeline& timeline,
                             const std::string& source) {
    // Each point starts where the previous one ended: Paje wants its events in time order.
    const double start_s = paje_offset_s_;
    const double end_s = start_s + timeline.makespan_ns * 1e-9;
    const auto at = [&](double ns) { return fmt::format("{:.9f}", start_s + ns * 1e-9); };
    const std::string point = fmt::format("p{}", points_);
    std::string text;
    const auto quoted = [](const std::string& name) { return "\"" + name + "\""; };
    text += fmt::format("2 {} {} P 0 {}\n", at(0), point, quoted(point_name(schedule, source)));
    for (int node = 0; node < schedule.nodes; ++node)
        text += fmt::format("2 {} {}n{} N {} {}\n", at(0), point, node, point, quoted(fmt::format("node {}", node)));
    for (int rank = 0; rank < schedule.rank_count(); ++rank)
        text += fmt::format("2 {} {}r{} R {}n{} {}\n", at(0), point, rank, point, schedule.ranks[rank].node,
                            quoted(fmt::format("rank {}", rank)));
    // A rank's state changes when one of its tasks starts, and goes idle at
    // the end of its last; events sorted by time (ties: by task order).
    struct Change {
        double ns;
        int order;
        int rank;
        std::string value;
    };
    std::vector<Change> changes;
    std::vector<double> last_end(static_cast<std::size_t>(schedule.rank_count()), -1.0);
    std::vector<int> last_task(static_cast<std::size_t>(schedule.rank_count()), -1);
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        changes.push_back({timeline.tasks[id].start_ns, id, task.thread, sched::to_string(task.kind)});
        if (timeline.tasks[id].end_ns >= last_end[task.thread]) {
            last_end[task.thread] = timeline.tasks[id].end_ns;
            last_task[task.thread] = id;
        }
    }
    for (int rank = 0; rank < schedule.rank_count(); ++rank)
        if (last_task[rank] >= 0) changes.push_back({last_end[rank], schedule.task_count() + rank, rank, "idle"});
    std::sort(changes.begin(), changes.end(),
              [](const Change& a, const Change& b) { return std::pair{a.ns, a.order} < std::pair{b.ns, b.order}; });
    int written = 0;
    for (const Change& change : changes) {
        text += fmt::format("4 {} S {}r{} {}\n", at(change.ns), point, change.rank, change.value);
        if (++written % batch_events == 0) emit(text, false);
    }
    const std::string end = fmt::format("{:.9f}", end_s);
    for (int rank = 0; rank < schedule.rank_count(); ++rank) text += fmt::format("3 {} R {}r{}\n", end, point, rank);
    for (int node = 0; node < schedule.nodes; ++node) text += fmt::format("3 {} N {}n{}\n", end, point, node);
    text += fmt::format("3 {} P {}\n", end, point);
    emit(text, true);
    // A gap of a tenth of the point's length (at least a microsecond) between points.
    paje_offset_s_ = end_s + std::max(1e-6, 0.1 * (end_s - start_s));
}

void TraceWriter::finish() {
    if (csv_) return csv_->finish();
    if (format_ == TraceFormat::chrome) {
        std::string closing = "\n]\n";
        emit(closing, true);
    }
    file_->commit();
}

}  // namespace numacoll::results

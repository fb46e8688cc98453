#include "schedule/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "common/error.hpp"

namespace numacoll::sched {

namespace {

template <typename Enum, std::size_t N>
Enum parse_enum(const std::string& text, const std::array<Enum, N>& values, const char* what) {
    std::string expected;
    for (Enum value : values) {
        if (text == to_string(value)) return value;
        expected += (expected.empty() ? "" : ", ") + std::string(to_string(value));
    }
    throw UsageError(fmt::format("unknown {} '{}': expected one of {}", what, text, expected));
}

}  // namespace

const char* to_string(Collective collective) {
    switch (collective) {
        case Collective::allreduce: return "allreduce";
        case Collective::reduce: return "reduce";
        case Collective::bcast: return "bcast";
        case Collective::barrier: return "barrier";
        case Collective::scatter: return "scatter";
        case Collective::gather: return "gather";
        case Collective::allgather: return "allgather";
    }
    return "?";
}

const char* to_string(ReduceOp op) {
    switch (op) {
        case ReduceOp::sum: return "sum";
        case ReduceOp::min: return "min";
        case ReduceOp::max: return "max";
        case ReduceOp::prod: return "prod";
    }
    return "?";
}

const char* to_string(TaskKind kind) {
    switch (kind) {
        case TaskKind::copy: return "copy";
        case TaskKind::reduce: return "reduce";
        case TaskKind::flag: return "flag";
        case TaskKind::net: return "net";
        case TaskKind::compute: return "compute";
        case TaskKind::wait: return "wait";
    }
    return "?";
}

const char* to_string(BufferRole role) {
    switch (role) {
        case BufferRole::input: return "input";
        case BufferRole::output: return "output";
        case BufferRole::temp: return "temp";
    }
    return "?";
}

Collective parse_collective(const std::string& text) {
    return parse_enum(text,
                      std::array{Collective::allreduce, Collective::reduce, Collective::bcast, Collective::barrier,
                                 Collective::scatter, Collective::gather, Collective::allgather},
                      "collective");
}

ReduceOp parse_reduce_op(const std::string& text) {
    return parse_enum(text, std::array{ReduceOp::sum, ReduceOp::min, ReduceOp::max, ReduceOp::prod},
                      "reduction operator");
}

TaskKind parse_task_kind(const std::string& text) {
    return parse_enum(text,
                      std::array{TaskKind::copy, TaskKind::reduce, TaskKind::flag, TaskKind::net, TaskKind::compute,
                                 TaskKind::wait},
                      "task kind");
}

BufferRole parse_buffer_role(const std::string& text) {
    return parse_enum(text, std::array{BufferRole::input, BufferRole::output, BufferRole::temp}, "buffer role");
}

bool is_reduction(Collective collective) {
    return collective == Collective::allreduce || collective == Collective::reduce;
}

int Schedule::add_buffer(Buffer buffer) {
    buffers_.push_back(std::move(buffer));
    return static_cast<int>(buffers_.size()) - 1;
}

int Schedule::add_task(Task task, const std::vector<int>& deps) {
    // add_vertex(property, graph) takes the task by const reference: add an
    // empty vertex and move the task in, so its vectors are not copied.
    const int id = static_cast<int>(boost::add_vertex(*tasks_));
    (*tasks_)[id] = std::move(task);
    for (int dep : deps) add_edge(dep, id);
    return id;
}

void Schedule::add_edge(int from, int to) {
    if (from < 0 || to < 0 || from >= task_count() || to >= task_count())
        throw CheckError(fmt::format("edge {} -> {} names a task that does not exist", from, to));
    if (!boost::edge(from, to, *tasks_).second) boost::add_edge(from, to, *tasks_);
}

std::vector<int> Schedule::predecessors(int id) const {
    std::vector<int> result;
    for (auto [it, end] = boost::in_edges(id, *tasks_); it != end; ++it)
        result.push_back(static_cast<int>(boost::source(*it, *tasks_)));
    std::sort(result.begin(), result.end());
    return result;
}

std::vector<int> Schedule::successors(int id) const {
    std::vector<int> result;
    for (auto [it, end] = boost::out_edges(id, *tasks_); it != end; ++it)
        result.push_back(static_cast<int>(boost::target(*it, *tasks_)));
    std::sort(result.begin(), result.end());
    return result;
}

int Schedule::input_of(int rank) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].owner == rank && buffers_[i].role == BufferRole::input) return static_cast<int>(i);
    return -1;
}

int Schedule::output_of(int rank) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].owner == rank && buffers_[i].role == BufferRole::output) return static_cast<int>(i);
    return -1;
}

bool operator==(const Schedule& a, const Schedule& b) {
    if (a.spec.collective != b.spec.collective || a.spec.algorithm != b.spec.algorithm ||
        a.spec.bytes != b.spec.bytes || a.spec.root != b.spec.root || a.spec.op != b.spec.op ||
        a.spec.options != b.spec.options || a.nodes != b.nodes || a.ranks != b.ranks ||
        a.provenance != b.provenance || a.task_count() != b.task_count() ||
        a.buffers().size() != b.buffers().size())
        return false;
    if (a.buffers() != b.buffers()) return false;
    for (int id = 0; id < a.task_count(); ++id) {
        if (!(a.task(id) == b.task(id))) return false;
        if (a.predecessors(id) != b.predecessors(id)) return false;
    }
    return true;
}

}  // namespace numacoll::sched

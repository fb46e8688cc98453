#include "schedule/validate_schedule.hpp"

#include <boost/graph/topological_sort.hpp>
#include <fmt/format.h>

#include <cmath>

#include "common/error.hpp"
#include "schedule/byte_intervals.hpp"
#include "schedule/reachability.hpp"

namespace numacoll::sched {

namespace {

constexpr int no_writer = -2;     // bytes nobody has written
constexpr int input_writer = -1;  // bytes of an input buffer, valid from the start

class Problems {
public:
    explicit Problems(std::size_t limit) : limit_(limit) {}
    template <typename... Args>
    void add(fmt::format_string<Args...> format, Args&&... args) {
        if (list_.size() < limit_) list_.push_back(fmt::format(format, std::forward<Args>(args)...));
    }
    bool full() const { return list_.size() >= limit_; }
    bool empty() const { return list_.empty(); }
    std::vector<std::string> take() { return std::move(list_); }

private:
    std::size_t limit_;
    std::vector<std::string> list_;
};

bool range_ok(const Schedule& schedule, const Range& range) {
    return range.buffer >= 0 && range.buffer < static_cast<int>(schedule.buffers().size()) &&
           range.end() <= schedule.buffer(range.buffer).bytes && range.end() >= range.offset;
}

void check_task_shape(const Schedule& schedule, int id, Problems& problems) {
    const Task& task = schedule.task(id);
    const int ranks = schedule.rank_count();
    const std::string name = describe_task(schedule, id);
    if (task.thread < 0 || task.thread >= ranks) {
        problems.add("{} runs on rank {}, which does not exist", name, task.thread);
        return;
    }
    const int node = schedule.ranks[task.thread].node;
    auto node_of_buffer = [&](const Range& range) { return schedule.ranks[schedule.buffer(range.buffer).owner].node; };
    for (const Range& range : task.reads)
        if (!range_ok(schedule, range)) problems.add("{} reads outside its buffer", name);
    const bool writes = task.write.buffer >= 0;
    if (writes && !range_ok(schedule, task.write)) problems.add("{} writes outside its buffer", name);
    if (problems.full()) return;
    if (task.application && task.kind != TaskKind::compute && task.kind != TaskKind::wait)
        problems.add("{} is the application's, which only computes and waits (not {})", name, to_string(task.kind));
    if (schedule.rank_kind == RankKind::shared_process) {
        // Between processes, another rank's memory is reachable only in the
        // node's shared segment, or by a copy through the kernel from a
        // buffer its owner exposes.
        const auto check_access = [&](const Range& range, int rank, bool reads) {
            if (range.buffer < 0 || !range_ok(schedule, range) || range.bytes == 0) return;
            const Buffer& buffer = schedule.buffer(range.buffer);
            if (buffer.shared || buffer.owner == rank) return;
            if (buffer.exposed && reads && task.kind == TaskKind::copy) return;
            problems.add("{}: rank {} {} rank {}'s private buffer {} ({}): between processes only the shared "
                         "segment is another's{}", name, rank, reads ? "reads" : "writes", buffer.owner, range.buffer,
                         buffer.name, buffer.exposed ? " (an exposed buffer is only copied from)" : "");
        };
        for (const Range& range : task.reads) check_access(range, task.thread, true);
        if (writes) check_access(task.write, writing_rank(task), false);
    }

    switch (task.kind) {
        case TaskKind::copy:
        case TaskKind::reduce: {
            if (!writes || task.reads.empty() || (task.kind == TaskKind::copy && task.reads.size() != 1)) {
                problems.add("{} must read {} range(s) and write one", name,
                             task.kind == TaskKind::copy ? "one" : "one or more");
                return;
            }
            for (const Range& range : task.reads) {
                if (range.bytes != task.write.bytes) problems.add("{} reads and writes ranges of different lengths", name);
                if (range_ok(schedule, range) && node_of_buffer(range) != node)
                    problems.add("{} reads a buffer of another node: only net tasks cross nodes", name);
            }
            if (range_ok(schedule, task.write) && node_of_buffer(task.write) != node)
                problems.add("{} writes a buffer of another node: only net tasks cross nodes", name);
            if (task.kind == TaskKind::reduce) {
                const std::uint64_t element = element_bytes(schedule.spec);
                auto aligned = [&](const Range& r) { return r.offset % element == 0 && r.bytes % element == 0; };
                bool all_aligned = aligned(task.write);
                for (const Range& range : task.reads) all_aligned = all_aligned && aligned(range);
                if (!all_aligned)
                    problems.add("{} reduces ranges that are not whole {}-byte elements ({})", name, element,
                                 to_string(schedule.spec.datatype));
            }
            break;
        }
        case TaskKind::flag:
            if (task.peer < 0 || task.peer >= ranks || task.peer == task.thread)
                problems.add("{} must signal another existing rank", name);
            else if (schedule.ranks[task.peer].node != node)
                problems.add("{} signals a rank of another node: flags are shared memory, use a net task", name);
            if (!task.reads.empty() || writes) problems.add("{} is a flag and must not move data", name);
            break;
        case TaskKind::net:
            if (task.peer < 0 || task.peer >= ranks || schedule.ranks[task.peer].node == node) {
                problems.add("{} must send to a rank of another node", name);
                break;
            }
            if (task.reads.size() != (writes ? 1u : 0u)) {
                problems.add("{} must read one range and write one, or move no data", name);
                break;
            }
            if (writes && range_ok(schedule, task.reads[0]) && range_ok(schedule, task.write)) {
                if (task.reads[0].bytes != task.write.bytes) problems.add("{} sends and receives different lengths", name);
                if (node_of_buffer(task.reads[0]) != node) problems.add("{} sends from a buffer of another node", name);
                if (node_of_buffer(task.write) != schedule.ranks[task.peer].node)
                    problems.add("{} lands in a buffer that is not on the receiver's node", name);
            }
            break;
        case TaskKind::compute:
            if (!task.reads.empty() || writes) problems.add("{} is a compute task and must not move data", name);
            if (!(task.flops > 0) || !std::isfinite(task.flops))
                problems.add("{} computes {} flops: real work is a positive amount (a task that only waits is a "
                             "wait task)",
                             name, task.flops);
            break;
        case TaskKind::wait:
            if (!task.reads.empty() || writes) problems.add("{} is a wait task and must not move data", name);
            if (task.flops != 0) problems.add("{} is a wait task and must not compute", name);
            break;
    }
}

// Per buffer, the bytes are cut into intervals; each remembers its last
// writer and who read it since. Walking tasks in id (= topological) order and
// checking each access against those is enough: if every pair of consecutive
// conflicting accesses is ordered, all conflicting pairs are, by transitivity.
struct Interval {
    int last_writer = no_writer;
    std::vector<int> readers;
};

class AccessTracker {
public:
    AccessTracker(const Schedule& schedule, Reachability& paths, Problems& problems)
        : schedule_(schedule), paths_(paths), problems_(problems) {
        for (const Buffer& buffer : schedule.buffers()) {
            Interval initial;
            if (buffer.role == BufferRole::input) initial.last_writer = input_writer;
            intervals_.emplace_back(buffer.bytes, initial);
        }
        signals_from_.resize(schedule.rank_count());
        involving_.resize(schedule.rank_count());
        for (int id = 0; id < schedule.task_count(); ++id) {
            const Task& task = schedule.task(id);
            if (task.kind == TaskKind::flag || task.kind == TaskKind::net) signals_from_[task.thread].push_back(id);
            involving_[task.thread].push_back(id);
        }
    }

    void read(int task, const Range& range) {
        const Buffer& buffer = schedule_.buffer(range.buffer);
        const int owner = buffer.owner;
        if (buffer.exposed && !told_after(owner, task))
            problems_.add("{} reads rank {}'s exposed buffer {} but rank {} is never told (no path to its own tasks): "
                          "it could leave and reuse it",
                          describe_task(schedule_, task), owner, describe_range(schedule_, range), owner);
        for_each_interval(range, [&](std::uint64_t start, std::uint64_t end, Interval& interval) {
            if (interval.last_writer == input_writer && !arrived_before(owner, task)) {
                problems_.add("{} reads rank {}'s input {} before rank {} has signalled that it arrived",
                              describe_task(schedule_, task), owner,
                              describe_range(schedule_, {range.buffer, start, end - start}), owner);
            } else if (interval.last_writer == no_writer) {
                problems_.add("{} reads {} before any task writes it", describe_task(schedule_, task),
                              describe_range(schedule_, {range.buffer, start, end - start}));
            } else if (interval.last_writer != input_writer && !paths_.reaches(interval.last_writer, task)) {
                problems_.add("{} reads {} written by task {} but does not depend on it", describe_task(schedule_, task),
                              describe_range(schedule_, {range.buffer, start, end - start}), interval.last_writer);
            }
            interval.readers.push_back(task);
        });
    }

    void write(int task, const Range& range) {
        const Buffer& buffer = schedule_.buffer(range.buffer);
        if (buffer.role == BufferRole::output && !told_after(buffer.owner, task))
            problems_.add("{} writes rank {}'s output {} but rank {} is never told (no path to its own tasks)",
                          describe_task(schedule_, task), buffer.owner, describe_range(schedule_, range), buffer.owner);
        for_each_interval(range, [&](std::uint64_t start, std::uint64_t end, Interval& interval) {
            const std::string where = describe_range(schedule_, {range.buffer, start, end - start});
            if (interval.last_writer >= 0 && !paths_.reaches(interval.last_writer, task))
                problems_.add("tasks {} and {} both write {} with no dependency path between them",
                              interval.last_writer, task, where);
            for (int reader : interval.readers)
                if (reader != task && !paths_.reaches(reader, task))
                    problems_.add("{} overwrites {} while task {} may still read it (no path from {} to {})",
                                  describe_task(schedule_, task), where, reader, reader, task);
            interval.last_writer = task;
            interval.readers.clear();
        });
    }

private:
    // Another thread may read a rank's input only once that rank has entered
    // the collective: some signal it sent (flag or net) leads to the reader.
    bool arrived_before(int owner, int task) {
        if (schedule_.task(task).thread == owner) return true;
        for (int signal : signals_from_[owner]) {
            if (signal >= task) break;
            if (paths_.reaches(signal, task)) return true;
        }
        return false;
    }

    // A rank's output is final when it leaves, after the last task it runs:
    // a write by another thread must lead to one of the owner's tasks. So
    // must a read of its exposed memory, which it reuses once it leaves.
    bool told_after(int owner, int task) {
        if (schedule_.task(task).thread == owner) return true;
        for (int later : involving_[owner])
            if (later > task && paths_.reaches(task, later)) return true;
        return false;
    }

    template <typename Visit>
    void for_each_interval(const Range& range, Visit visit) {
        intervals_[range.buffer].for_each(range.offset, range.bytes, visit);
    }

    const Schedule& schedule_;
    Reachability& paths_;
    Problems& problems_;
    std::vector<ByteIntervals<Interval>> intervals_;  // per buffer
    std::vector<std::vector<int>> signals_from_;  // per rank: its flag and net tasks, by id
    std::vector<std::vector<int>> involving_;     // per rank: the tasks it runs
};

bool check_order(const Schedule& schedule, Problems& problems) {
    const auto& graph = schedule.graph();
    std::vector<TaskGraph::vertex_descriptor> order;
    try {
        boost::topological_sort(graph, std::back_inserter(order));
    } catch (const boost::not_a_dag&) {
        problems.add("the dependency graph has a cycle");
        return false;
    }
    for (auto [it, end] = boost::edges(graph); it != end; ++it) {
        const int from = static_cast<int>(boost::source(*it, graph));
        const int to = static_cast<int>(boost::target(*it, graph));
        if (from >= to) {
            problems.add("edge {} -> {} goes backwards: task ids must be a topological order", from, to);
            return false;
        }
    }
    return true;
}

void check_cross_thread_edges(const Schedule& schedule, Problems& problems) {
    const auto& graph = schedule.graph();
    for (auto [it, end] = boost::edges(graph); it != end; ++it) {
        const int from = static_cast<int>(boost::source(*it, graph));
        const int to = static_cast<int>(boost::target(*it, graph));
        const Task& source = schedule.task(from);
        const Task& target = schedule.task(to);
        if (source.thread == target.thread) continue;
        const bool signals = (source.kind == TaskKind::flag || source.kind == TaskKind::net) && source.peer == target.thread;
        if (!signals)
            problems.add("edge {} -> {} crosses from rank {} to rank {} without a flag or net task aimed at rank {}",
                         from, to, source.thread, target.thread, target.thread);
    }
}

}  // namespace

std::string describe_task(const Schedule& schedule, int id) {
    const Task& task = schedule.task(id);
    return fmt::format("task {} ({} on rank {}{})", id, to_string(task.kind), task.thread,
                       task.label.empty() ? "" : ", " + task.label.text());
}

std::string describe_range(const Schedule& schedule, const Range& range) {
    const std::string name = range.buffer >= 0 && range.buffer < static_cast<int>(schedule.buffers().size())
                                 ? schedule.buffer(range.buffer).name
                                 : fmt::format("buffer{}", range.buffer);
    return fmt::format("{}[{},{})", name, range.offset, range.end());
}

std::vector<std::string> find_schedule_problems(const Schedule& schedule, std::size_t limit) {
    Problems problems(limit);
    for (const Buffer& buffer : schedule.buffers()) {
        if (buffer.owner < 0 || buffer.owner >= schedule.rank_count())
            problems.add("buffer {} belongs to rank {}, which does not exist", buffer.name, buffer.owner);
        if (buffer.exposed && (buffer.shared || schedule.rank_kind != RankKind::shared_process))
            problems.add("buffer {} is exposed, which only a private buffer of processes sharing a segment is",
                         buffer.name);
    }
    if (!problems.empty()) return problems.take();
    for (int id = 0; id < schedule.task_count(); ++id) check_task_shape(schedule, id, problems);
    if (!problems.empty()) return problems.take();
    if (!check_order(schedule, problems)) return problems.take();
    check_cross_thread_edges(schedule, problems);

    Reachability paths(schedule);
    AccessTracker tracker(schedule, paths, problems);
    for (int id = 0; id < schedule.task_count() && !problems.full(); ++id) {
        const Task& task = schedule.task(id);
        for (const Range& range : task.reads) tracker.read(id, range);
        if (task.write.buffer >= 0) tracker.write(id, task.write);
    }
    return problems.take();
}

void validate_schedule(const Schedule& schedule) {
    auto problems = find_schedule_problems(schedule, 1);
    if (!problems.empty()) throw CheckError("invalid schedule: " + problems.front());
}

}  // namespace numacoll::sched

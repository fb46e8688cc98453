#include "schedule/process_form.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <vector>

#include "common/error.hpp"

namespace numacoll::sched {

namespace {

struct Slots {
    std::vector<int> slot_of;               // per buffer: its slot in the segment, -1 if none
    std::vector<std::set<int>> readers;     // per buffer: ranks other than the owner that read it
    std::vector<std::set<int>> writers;     // per buffer: ranks other than the owner that write it
    std::vector<bool> reduced_by_others;    // per buffer: another rank's reduce task reads it
    std::vector<bool> exposed;              // per buffer: read by others in one copy (single copy)
    bool touched_by_others(int buffer) const { return !readers[buffer].empty() || !writers[buffer].empty(); }
};

}  // namespace

Schedule process_form(const Schedule& threads, const ProcessFormOptions& options) {
    if (threads.rank_kind == RankKind::shared_process)
        throw UsageError("this schedule is a process form already: its ranks are processes sharing memory");
    if (threads.has_application_tasks())
        throw UsageError("the process form is made from the collective alone: compose the computation around it after");

    const int buffer_count = static_cast<int>(threads.buffers().size());
    Slots slots{std::vector<int>(buffer_count, -1), std::vector<std::set<int>>(buffer_count),
                std::vector<std::set<int>>(buffer_count), std::vector<bool>(buffer_count, false),
                std::vector<bool>(buffer_count, false)};
    for (int id = 0; id < threads.task_count(); ++id) {
        const Task& task = threads.task(id);
        for (const Range& read : task.reads)
            if (read.bytes > 0 && threads.buffer(read.buffer).owner != task.thread) {
                slots.readers[read.buffer].insert(task.thread);
                if (task.kind != TaskKind::copy) slots.reduced_by_others[read.buffer] = true;
            }
        const int writer = writing_rank(task);
        if (task.write.buffer >= 0 && task.write.bytes > 0 && threads.buffer(task.write.buffer).owner != writer)
            slots.writers[task.write.buffer].insert(writer);
    }

    Schedule result;
    result.spec = threads.spec;
    result.nodes = threads.nodes;
    result.rank_kind = RankKind::shared_process;
    result.ranks = threads.ranks;
    result.provenance = threads.provenance;
    // The thread form's buffers keep their ids; slots come after them.
    for (int b = 0; b < buffer_count; ++b) {
        Buffer buffer = threads.buffer(b);
        if (slots.touched_by_others(b) && buffer.role == BufferRole::temp) buffer.shared = true;
        slots.exposed[b] = options.single_copy && buffer.role == BufferRole::input && !slots.readers[b].empty() &&
                           slots.writers[b].empty() && !slots.reduced_by_others[b];
        buffer.exposed = slots.exposed[b];
        result.add_buffer(std::move(buffer));
    }
    for (int b = 0; b < buffer_count; ++b) {
        const Buffer& buffer = threads.buffer(b);
        if (!slots.touched_by_others(b) || buffer.role == BufferRole::temp || slots.exposed[b]) continue;
        if (buffer.role == BufferRole::input && !slots.writers[b].empty())
            throw CheckError(fmt::format("buffer {} ({}) is an input that another rank writes: a schedule writes no input",
                                         b, buffer.name));
        Buffer slot{buffer.name + "@seg", buffer.owner, buffer.bytes, BufferRole::temp, buffer.numa, true};
        slots.slot_of[b] = result.add_buffer(std::move(slot));
    }

    const std::size_t extra = static_cast<std::size_t>(buffer_count) * 2 +
                              (options.single_copy ? static_cast<std::size_t>(threads.rank_count()) * 2 : 0);
    TaskBudget::check(static_cast<std::size_t>(threads.task_count()) + extra, "its process form", true);

    // Copy-ins, then a flag to every rank that reads the slot.
    std::map<std::pair<int, int>, int> ready_flag;  // (buffer, reading rank) -> flag task
    for (int b = 0; b < buffer_count; ++b) {
        const Buffer& buffer = threads.buffer(b);
        if (slots.slot_of[b] < 0 || buffer.role != BufferRole::input) continue;
        Task copy_in;
        copy_in.kind = TaskKind::copy;
        copy_in.thread = buffer.owner;
        copy_in.reads.push_back({b, 0, buffer.bytes});
        copy_in.write = {slots.slot_of[b], 0, buffer.bytes};
        copy_in.label = Label("copy-in");
        const int copied = result.add_task(std::move(copy_in), {});
        for (int reader : slots.readers[b]) {
            Task flag;
            flag.kind = TaskKind::flag;
            flag.thread = buffer.owner;
            flag.peer = reader;
            flag.label = Label("copy-in-ready");
            ready_flag[{b, reader}] = result.add_task(std::move(flag), {copied});
        }
    }

    // A flag that a rank raises before anything else (no predecessor) tells
    // a rank waiting for it only that the raiser is in this iteration: a
    // task that also waits for that rank's copy-in-ready flag (its copy-in
    // has no predecessor either) learns as much from it, so that wait is
    // dropped, and a flag that nobody waits for any more is not made. In the
    // thread form such flags say that the raiser's input is in place.
    std::vector<std::vector<int>> kept_deps(threads.task_count());
    std::vector<bool> still_waited(threads.task_count(), false), wait_dropped(threads.task_count(), false);
    for (int id = 0; id < threads.task_count(); ++id) {
        const Task& task = threads.task(id);
        std::set<int> copied_in_by;  // ranks whose copy-in-ready flag this task waits for
        for (const Range& read : task.reads)
            if (slots.slot_of[read.buffer] >= 0 && threads.buffer(read.buffer).role == BufferRole::input &&
                threads.buffer(read.buffer).owner != task.thread)
                copied_in_by.insert(threads.buffer(read.buffer).owner);
        for (int dep : threads.predecessors(id)) {
            const Task& before = threads.task(dep);
            if (before.kind == TaskKind::flag && threads.predecessors(dep).empty() && copied_in_by.count(before.thread)) {
                wait_dropped[dep] = true;
                continue;
            }
            kept_deps[id].push_back(dep);
            still_waited[dep] = true;
        }
    }
    const auto made = [&](int id) { return still_waited[id] || !wait_dropped[id]; };

    // The thread form's tasks, their accesses moved to the slots; the writes
    // of each output's slot, by writing rank, noted on the way.
    std::vector<int> new_id(threads.task_count(), -1);
    std::map<int, std::map<int, std::vector<int>>> slot_writes;  // output buffer -> rank -> tasks
    std::map<int, std::map<int, int>> last_exposed_read;          // exposed buffer -> reading rank -> task
    for (int id = 0; id < threads.task_count(); ++id) {
        if (!made(id)) continue;
        Task task = threads.task(id);
        std::vector<int> deps;
        for (int dep : kept_deps[id]) deps.push_back(new_id[dep]);
        for (Range& read : task.reads) {
            const int b = read.buffer;
            if (slots.slot_of[b] < 0) continue;
            const Buffer& buffer = threads.buffer(b);
            if (buffer.role == BufferRole::input && buffer.owner == task.thread) continue;  // its own private input
            if (buffer.role == BufferRole::input) deps.push_back(ready_flag.at({b, task.thread}));
            read.buffer = slots.slot_of[b];
        }
        const int written = task.write.buffer;
        const bool to_slot = written >= 0 && slots.slot_of[written] >= 0;
        if (to_slot) task.write.buffer = slots.slot_of[written];
        const int writer = writing_rank(task);
        const bool moves_bytes = task.write.bytes > 0;
        const int reader = task.thread;
        std::vector<int> exposed_reads;
        for (const Range& read : task.reads)
            if (read.bytes > 0 && read.buffer < buffer_count && slots.exposed[read.buffer] &&
                threads.buffer(read.buffer).owner != reader)  // slots come after the thread form's buffers
                exposed_reads.push_back(read.buffer);
        new_id[id] = result.add_task(std::move(task), deps);
        if (to_slot && moves_bytes) slot_writes[written][writer].push_back(new_id[id]);
        for (int b : exposed_reads) last_exposed_read[b][reader] = new_id[id];
    }

    // Each output slot: a flag from every other rank that wrote it, after
    // all of its writes, then the owner's copy-out.
    for (int b = 0; b < buffer_count; ++b) {
        const Buffer& buffer = threads.buffer(b);
        if (slots.slot_of[b] < 0 || buffer.role != BufferRole::output) continue;
        const int slot = slots.slot_of[b];
        std::map<int, std::vector<int>>& writes_by_rank = slot_writes[b];
        std::vector<int> deps = writes_by_rank[buffer.owner];
        for (const auto& [writer, writes] : writes_by_rank) {
            if (writer == buffer.owner) continue;
            Task flag;
            flag.kind = TaskKind::flag;
            flag.thread = writer;
            flag.peer = buffer.owner;
            flag.label = Label("copy-out-ready");
            deps.push_back(result.add_task(std::move(flag), writes));
        }
        Task copy_out;
        copy_out.kind = TaskKind::copy;
        copy_out.thread = buffer.owner;
        copy_out.reads.push_back({slot, 0, buffer.bytes});
        copy_out.write = {b, 0, buffer.bytes};
        copy_out.label = Label("copy-out");
        result.add_task(std::move(copy_out), deps);
    }

    // Each exposed input: a flag from every rank that read it, after its
    // last read, and the owner's last task waits for them.
    for (const auto& [b, last_read_by_rank] : last_exposed_read) {
        const int owner = threads.buffer(b).owner;
        std::vector<int> released;
        for (const auto& [reader, last_read] : last_read_by_rank) {
            Task flag;
            flag.kind = TaskKind::flag;
            flag.thread = reader;
            flag.peer = owner;
            flag.label = Label("single-copy-read");
            released.push_back(result.add_task(std::move(flag), {last_read}));
        }
        Task wait;
        wait.kind = TaskKind::wait;
        wait.thread = owner;
        wait.label = Label("single-copy-released");
        result.add_task(std::move(wait), released);
    }
    return result;
}

}  // namespace numacoll::sched

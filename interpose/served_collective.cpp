#include "interpose/served_collective.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <set>

#include "common/error.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::interpose {

namespace {

// Copies of the shared buffers: more copies let a process run further ahead
// of the others before it must read their done counters again (a line
// another core writes: a transfer between cores, once in depth - 1 calls);
// segments of a few lines per process get sixteen, of up to 64 KiB four.
constexpr std::size_t deepest_copy_limit_bytes = 4 * 1024;
constexpr std::size_t deep_copy_limit_bytes = 64 * 1024;
constexpr std::size_t done_line_bytes = sizeof(exec::SharedFlag);

// Who touches a buffer for a task: a message is read by its sender and
// written by its receiver (the receive lands in the receiver's memory).
int reader_of(const sched::Task& task) { return task.thread; }
int writer_of(const sched::Task& task) { return task.kind == sched::TaskKind::net ? task.peer : task.thread; }

}  // namespace

struct ServedCollective::Copy {
    exec::Buffers buffers;
    std::vector<exec::SharedFlag*> flags;
    exec::ProcessTransport transport;
    exec::ProgramRunner<exec::ProcessTransport> runner;

    Copy(const sched::Schedule& schedule, int rank, MPI_Comm comm, std::vector<std::shared_ptr<std::byte>> memory,
         std::vector<exec::SharedFlag*> flag_places, const std::vector<exec::ThreadProgram>& programs)
        : buffers(std::move(memory)), flags(std::move(flag_places)),
          transport(schedule, rank, comm, flags, buffers), runner(schedule, programs, buffers, transport) {}
};

ServedCollective::ServedCollective(sched::Schedule schedule, const ProcessPlace& place, exec::MemoryBinding& binding)
    : schedule_(std::move(schedule)), rank_(place.rank) {
    sched::validate_schedule(schedule_);
    const sched::RankInfo& me = schedule_.ranks[rank_];
    const exec::SegmentPlan plan = exec::plan_node_segment(schedule_, me.node);
    const int members = static_cast<int>(plan.members.size());
    const int member = static_cast<int>(std::find(plan.members.begin(), plan.members.end(), rank_) - plan.members.begin());
    // The same depth on every process of the node: it depends on the plan only.
    const std::size_t largest = *std::max_element(plan.portion_bytes.begin(), plan.portion_bytes.end());
    depth_ = largest <= deepest_copy_limit_bytes ? 16 : largest <= deep_copy_limit_bytes ? 4 : 2;
    // A portion: the done line, the lines that say where the holder's
    // exposed buffers lie (depth per buffer), then the copies.
    std::vector<std::vector<int>> exposed_of(static_cast<std::size_t>(members));  // per holder: its exposed buffers
    std::vector<int> member_of(schedule_.ranks.size(), -1);
    for (int m = 0; m < members; ++m) member_of[plan.members[m]] = m;
    for (std::size_t b = 0; b < schedule_.buffers().size(); ++b)
        if (schedule_.buffers()[b].exposed && member_of[schedule_.buffers()[b].owner] >= 0)
            exposed_of[member_of[schedule_.buffers()[b].owner]].push_back(static_cast<int>(b));
    const auto header_bytes = [&](int holder) {
        return done_line_bytes * (1 + static_cast<std::size_t>(depth_) * exposed_of[holder].size());
    };
    const auto copy_offset = [&](int holder, int copy) {
        return header_bytes(holder) + static_cast<std::size_t>(copy) * plan.portion_bytes[static_cast<std::size_t>(holder)];
    };
    segment_bytes_ = copy_offset(member, depth_);

    // Private buffers: the input and output are the application's at each
    // call; temporaries only this rank touches are allocated once.
    private_memory_.resize(schedule_.buffers().size());
    for (std::size_t b = 0; b < schedule_.buffers().size(); ++b) {
        const sched::Buffer& buffer = schedule_.buffers()[b];
        if (buffer.owner != rank_ || buffer.shared) continue;
        if (buffer.role == sched::BufferRole::input)
            input_buffer_ = static_cast<int>(b);
        else if (buffer.role == sched::BufferRole::output)
            output_buffer_ = static_cast<int>(b);
        else
            private_memory_[b] = binding.allocate(buffer.bytes, buffer.numa >= 0 ? buffer.numa : me.numa);
    }

    for (exec::ThreadProgram& program : exec::build_programs(schedule_, me.node))
        if (program.rank == rank_) programs_.push_back(std::move(program));
    const std::vector<int> no_tasks;
    const std::vector<int>& my_tasks = programs_.empty() ? no_tasks : programs_[0].tasks;

    // MPI_IN_PLACE: the input may be the output when this rank reads its
    // input for the last time before it first writes its output, and no
    // message lands in its output while it runs.
    {
        std::size_t last_read = 0, first_write = SIZE_MAX;
        bool message_into_output = false;
        for (std::size_t k = 0; k < my_tasks.size(); ++k) {
            const sched::Task& task = schedule_.task(my_tasks[k]);
            for (const sched::Range& read : task.reads)
                if (read.buffer == input_buffer_ && input_buffer_ >= 0) last_read = k + 1;
            if (task.write.buffer == output_buffer_ && output_buffer_ >= 0) first_write = std::min(first_write, k + 1);
        }
        for (int id = 0; id < schedule_.task_count(); ++id)
            if (const sched::Task& task = schedule_.task(id); task.kind == sched::TaskKind::net && task.peer == rank_ && task.write.buffer == output_buffer_ &&
                output_buffer_ >= 0)
                message_into_output = true;
        input_may_be_output_ = !message_into_output && last_read < first_write;
    }

    // The node's processes this one must hear are done before it reuses a
    // copy: those that touch a shared buffer it writes.
    std::set<int> guarded;
    {
        std::vector<std::set<int>> touching(schedule_.buffers().size());
        std::vector<bool> written_here(schedule_.buffers().size(), false);
        for (int id = 0; id < schedule_.task_count(); ++id) {
            const sched::Task& task = schedule_.task(id);
            for (const sched::Range& read : task.reads)
                if (read.buffer >= 0) touching[read.buffer].insert(reader_of(task));
            if (task.write.buffer >= 0) {
                touching[task.write.buffer].insert(writer_of(task));
                if (writer_of(task) == rank_) written_here[task.write.buffer] = true;
            }
        }
        for (std::size_t b = 0; b < touching.size(); ++b)
            if (written_here[b] && schedule_.buffers()[b].shared)
                for (int other : touching[b])
                    if (other != rank_ && schedule_.ranks[other].node == me.node) guarded.insert(other);
    }

    segment_.emplace(place.node, segment_bytes_);
    binding.place(segment_->portion(member), segment_bytes_, me.numa);
    done_ = new (segment_->portion(member)) exec::SharedFlag();
    for (int copy = 0; copy < depth_; ++copy) {
        std::vector<std::shared_ptr<std::byte>> memory = private_memory_;
        for (std::size_t b = 0; b < memory.size(); ++b) {
            const exec::SegmentPlan::Place& at = plan.buffers[b];
            if (at.member < 0) continue;
            std::byte* bytes = segment_->portion(at.member) + copy_offset(at.member, copy) + at.offset;
            const sched::Buffer& buffer = schedule_.buffers()[b];
            if (at.member == member && buffer.numa >= 0 && buffer.numa != me.numa)
                binding.place(bytes, buffer.bytes, buffer.numa);
            memory[b] = std::shared_ptr<std::byte>(std::shared_ptr<void>(), bytes);
        }
        std::vector<exec::SharedFlag*> flags(static_cast<std::size_t>(schedule_.task_count()), nullptr);
        for (int id = 0; id < schedule_.task_count(); ++id) {
            const exec::SegmentPlan::Place& at = plan.flags[static_cast<std::size_t>(id)];
            if (at.member < 0) continue;
            std::byte* bytes = segment_->portion(at.member) + copy_offset(at.member, copy) + at.offset;
            if (at.member == member) new (bytes) exec::SharedFlag();
            flags[static_cast<std::size_t>(id)] = reinterpret_cast<exec::SharedFlag*>(bytes);
        }
        copies_.push_back(std::make_unique<Copy>(schedule_, rank_, place.ranks, std::move(memory), std::move(flags),
                                                 programs_));
    }
    // Single copy: the lines of the exposed buffers this rank owns or reads.
    std::set<int> read_exposed;
    for (int id : my_tasks) {
        const sched::Task& task = schedule_.task(id);
        if (task.kind == sched::TaskKind::copy && schedule_.buffer(task.reads[0].buffer).exposed &&
            schedule_.buffer(task.reads[0].buffer).owner != rank_)
            read_exposed.insert(task.reads[0].buffer);
    }
    for (int holder = 0; holder < members; ++holder)
        for (std::size_t k = 0; k < exposed_of[holder].size(); ++k) {
            const int b = exposed_of[holder][k];
            const bool mine = holder == member;
            if (!mine && !read_exposed.count(b)) continue;
            ExposedLine line{b, {}};
            for (int copy = 0; copy < depth_; ++copy) {
                std::byte* at = segment_->portion(holder) + done_line_bytes * (1 + k * static_cast<std::size_t>(depth_) + copy);
                line.per_copy.push_back(mine ? new (at) exec::SharedFlag() : reinterpret_cast<exec::SharedFlag*>(at));
            }
            (mine ? exposed_mine_ : exposed_read_).push_back(std::move(line));
        }
    for (int other : guarded) {
        const int holder =
            static_cast<int>(std::find(plan.members.begin(), plan.members.end(), other) - plan.members.begin());
        if (holder >= members) continue;
        guards_.push_back(reinterpret_cast<exec::SharedFlag*>(segment_->portion(holder)));
        guards_seen_.push_back(0);
    }
    // Every portion's flags made before anyone reads them.
    if (PMPI_Barrier(place.node) != MPI_SUCCESS) throw Error("the barrier after making a segment failed");
}

ServedCollective::~ServedCollective() = default;

void ServedCollective::wait_until_copy_is_free(std::uint32_t call) {
    if (call <= static_cast<std::uint32_t>(depth_)) return;
    const std::uint32_t needed = call - static_cast<std::uint32_t>(depth_);
    for (std::size_t k = 0; k < guards_.size(); ++k) {
        if (exec::SharedFlag::at_least(guards_seen_[k], needed)) continue;
        guards_[k]->wait_for(needed);
        guards_seen_[k] = guards_[k]->generation.load(std::memory_order_acquire);
    }
}

void ServedCollective::exchange_exposed_addresses(std::uint32_t call, const void* input) {
    const std::size_t copy = call % static_cast<std::uint32_t>(depth_);
    for (const ExposedLine& line : exposed_mine_) {
        exec::SharedFlag* flag = line.per_copy[copy];
        const std::uint64_t where[2] = {static_cast<std::uint64_t>(getpid()), reinterpret_cast<std::uintptr_t>(input)};
        std::memcpy(reinterpret_cast<std::byte*>(flag) + exec::flag_payload_offset, where, sizeof where);
        flag->publish(call);
        flag->wake();
    }
    for (const ExposedLine& line : exposed_read_) {
        exec::SharedFlag* flag = line.per_copy[copy];
        flag->wait_for(call);
        std::uint64_t where[2];
        std::memcpy(where, reinterpret_cast<const std::byte*>(flag) + exec::flag_payload_offset, sizeof where);
        copies_[copy]->transport.expose(line.buffer, {static_cast<pid_t>(where[0]), static_cast<std::uintptr_t>(where[1])});
    }
}

void ServedCollective::serve(const void* input, void* output) {
    const std::uint32_t call = ++calls_;
    wait_until_copy_is_free(call);
    if (!exposed_mine_.empty() || !exposed_read_.empty()) exchange_exposed_addresses(call, input);
    Copy& copy = *copies_[call % static_cast<std::uint32_t>(depth_)];
    if (input_buffer_ >= 0) copy.buffers.rebind(input_buffer_, static_cast<std::byte*>(const_cast<void*>(input)));
    if (output_buffer_ >= 0) copy.buffers.rebind(output_buffer_, static_cast<std::byte*>(output));
    copy.transport.post_receives(call, copy.buffers);
    copy.runner.run(0, call, false);
    done_->publish(call);
    done_->wake();
}

}  // namespace numacoll::interpose

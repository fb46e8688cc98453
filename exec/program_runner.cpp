#include "exec/program_runner.hpp"

#include <boost/container/small_vector.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "common/error.hpp"
#include "exec/input_pattern.hpp"
#include "exec/kernels.hpp"

namespace numacoll::exec {

namespace {

// Where compute tasks leave their result: a volatile store cannot be left
// out, so neither can the work that produces it.
thread_local volatile double compute_sink = 0;

}  // namespace

ScheduleWork::ScheduleWork(const sched::Schedule& schedule, const std::vector<ThreadProgram>& programs,
                           const Buffers& buffers)
    : schedule_(schedule), programs_(programs), buffers_(buffers), task_times_(schedule.task_count()) {
    for (const ThreadProgram& program : programs) {
        inputs_.push_back(schedule.input_of(program.rank));
        std::vector<int> cleared;
        for (int b = 0; b < static_cast<int>(schedule.buffers().size()); ++b)
            if (schedule.buffer(b).owner == program.rank && schedule.buffer(b).role != sched::BufferRole::input &&
                buffers.holds(b))
                cleared.push_back(b);
        cleared_.push_back(std::move(cleared));
        std::vector<std::uint8_t> announces;
        for (int id : program.tasks) {
            const sched::TaskKind kind = schedule.task(id).kind;
            announces.push_back(kind == sched::TaskKind::flag || kind == sched::TaskKind::net);
        }
        announces_.push_back(std::move(announces));
        std::size_t end = 0;
        while (end < program.tasks.size() && !schedule.task(program.tasks[end]).application) ++end;
        for (std::size_t k = end; k < program.tasks.size(); ++k)
            if (!schedule.task(program.tasks[k]).application)
                throw UsageError(fmt::format("rank {} runs task {} of the collective after the computation around it "
                                             "began (task {}): a rank issues the collective before it computes",
                                             program.rank, program.tasks[k], program.tasks[end]));
        collective_end_.push_back(end);
    }
    bool around = false;
    for (std::size_t t = 0; t < programs.size() && !around; ++t) around = collective_end_[t] < programs[t].tasks.size();
    if (around)
        for (const ThreadProgram& program : programs) {
            std::vector<std::vector<int>> sends;
            for (int id : program.tasks) {
                std::vector<int> own;
                for (int dep : schedule.predecessors(id))
                    if (schedule.task(dep).kind == sched::TaskKind::net && schedule.task(dep).thread == program.rank)
                        own.push_back(dep);
                sends.push_back(std::move(own));
            }
            own_sends_.push_back(std::move(sends));
        }
}

void ScheduleWork::prepare(int thread, std::uint32_t iteration) {
    // Its outputs and temporaries: Modified in its own cache, holding no
    // result of an earlier iteration (verification then sees what this one wrote).
    for (int buffer : cleared_[thread]) std::memset(buffers_.bytes(buffer), 0xff, schedule_.buffer(buffer).bytes);
    const int input = inputs_[thread];
    if (input < 0) return;
    fill_input(buffers_.bytes(input), schedule_.buffer(input).bytes, programs_[thread].rank, iteration,
               schedule_.spec.datatype, schedule_.spec.op);
}

void ScheduleWork::execute_locally(const sched::Task& task) const {
    switch (task.kind) {
        case sched::TaskKind::copy:
            std::memcpy(buffers_.at(task.write), buffers_.at(task.reads[0]), task.write.bytes);
            break;
        case sched::TaskKind::reduce: {
            boost::container::small_vector<const std::byte*, 8> sources;  // no heap in the timed loop
            for (const sched::Range& read : task.reads) sources.push_back(buffers_.at(read));
            reduce_into(buffers_.at(task.write), {sources.data(), sources.size()},
                        task.write.bytes / sched::element_bytes(schedule_.spec), schedule_.spec.datatype,
                        schedule_.spec.op);
            break;
        }
        case sched::TaskKind::compute:
            compute_sink = compute_flops(task.flops);
            break;
        case sched::TaskKind::wait:  // its dependencies were the point
        case sched::TaskKind::flag:  // the transport's
        case sched::TaskKind::net:
            break;
    }
}

sched::Timeline ScheduleWork::timeline(const std::vector<Clock::time_point>& arrivals) const {
    sched::Timeline result;
    const Clock::time_point epoch = *std::min_element(arrivals.begin(), arrivals.end());
    for (int id = 0; id < schedule_.task_count(); ++id) {
        const auto& [begin, end] = task_times_[id];
        const bool here = begin != Clock::time_point{};
        result.tasks.push_back(here ? sched::TaskTime{nanoseconds(epoch, begin), nanoseconds(epoch, end)} : sched::TaskTime{});
        result.makespan_ns = std::max(result.makespan_ns, result.tasks.back().end_ns);
    }
    return result;
}

}  // namespace numacoll::exec

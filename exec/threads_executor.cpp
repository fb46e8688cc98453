#include "exec/threads_executor.hpp"

#include <fmt/format.h>

#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <thread>

#include "exec/flag.hpp"
#include "exec/input_pattern.hpp"
#include "exec/kernels.hpp"
#include "exec/memory_binding.hpp"
#include "exec/spin_barrier.hpp"
#include "schedule/collective_contract.hpp"
#include "common/statistics.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::exec {

namespace {

using Clock = std::chrono::steady_clock;

double nanoseconds(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::nano>(to - from).count();
}

// What one thread runs: its tasks in id order, and for each the flags of
// other threads it must see first (its own earlier tasks are already done).
struct ThreadProgram {
    std::vector<int> tasks;
    std::vector<std::vector<int>> waits;  // per entry of `tasks`: flag slots
};

class Executor {
public:
    Executor(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& options)
        : schedule_(schedule), options_(options), binding_(machine), programs_(schedule.rank_count()),
          flag_slot_(schedule.task_count(), -1) {
        check_supported();
        for (int id = 0; id < schedule.task_count(); ++id)
            if (schedule.task(id).kind == sched::TaskKind::flag) flag_slot_[id] = flag_count_++;
        flags_ = std::make_unique<Flag[]>(static_cast<std::size_t>(std::max(flag_count_, 1)));
        for (int id = 0; id < schedule.task_count(); ++id) {
            const sched::Task& task = schedule.task(id);
            ThreadProgram& program = programs_[task.thread];
            program.tasks.push_back(id);
            std::vector<int> waits;
            for (int dep : schedule.predecessors(id))
                if (schedule.task(dep).thread != task.thread) waits.push_back(flag_slot_[dep]);
            program.waits.push_back(std::move(waits));
        }
        for (const sched::Buffer& buffer : schedule.buffers()) {
            const int numa = buffer.numa >= 0 ? buffer.numa : schedule.ranks[buffer.owner].numa;
            memory_.push_back(binding_.allocate(buffer.bytes, numa));
        }
        task_times_.resize(schedule.task_count());
    }

    ExecResult run() {
        const int ranks = schedule_.rank_count();
        // With a trace, one more iteration after the timed ones records it
        // (its extra clock reads stay out of the statistics).
        const int timed_end = options_.warmup_iterations + options_.timed_iterations;
        const int total = timed_end + (options_.trace ? 1 : 0);
        iteration_ns_.assign(static_cast<std::size_t>(total) * static_cast<std::size_t>(ranks), 0);
        arrivals_.assign(iteration_ns_.size(), {});
        departures_.assign(iteration_ns_.size(), {});
        starts_.assign(static_cast<std::size_t>(ranks), {});
        SpinBarrier meeting(ranks);
        std::vector<std::thread> threads;
        for (int rank = 0; rank < ranks; ++rank)
            threads.emplace_back([this, rank, total, &meeting] { thread_main(rank, total, meeting); });
        for (auto& thread : threads) thread.join();

        ExecResult result;
        for (int it = options_.warmup_iterations; it < timed_end; ++it) {
            double longest = 0;
            for (int rank = 0; rank < ranks; ++rank)
                longest = std::max(longest, iteration_ns_[static_cast<std::size_t>(it) * ranks + rank]);
            result.iteration_ns.push_back(longest);
        }
        result.stats = summarize(result.iteration_ns);
        if (options_.trace) result.timeline = timeline();
        verify(static_cast<std::uint32_t>(total));
        result.threads_pinned = options_.pin_threads && binding_.threads_pinned();
        result.memory_bound = binding_.memory_bound();
        return result;
    }

private:
    void check_supported() const {
        validate_schedule(schedule_);  // a file from --from may be anything: refuse what would crash
        if (schedule_.nodes != 1)
            throw UsageError(fmt::format("the thread executor runs one node; this schedule spans {}", schedule_.nodes));
        for (int id = 0; id < schedule_.task_count(); ++id) {
            const sched::Task& task = schedule_.task(id);
            if (task.kind == sched::TaskKind::net)
                throw UsageError(fmt::format("the thread executor cannot run net tasks (task {})", id));
        }
    }

    double* doubles(const sched::Range& range) const {
        return reinterpret_cast<double*>(memory_[range.buffer].get() + range.offset);
    }

    void thread_main(int rank, int total, SpinBarrier& meeting) {
        {
            std::lock_guard lock(binding_mutex_);
            if (options_.pin_threads) binding_.pin_current_thread(schedule_.ranks[rank].pu);
        }
        {
            const ThreadProgram& program = programs_[rank];
            const int input = schedule_.input_of(rank);
            for (int it = 1; it <= total; ++it) {
                const auto iteration = static_cast<std::uint32_t>(it);
                if (input >= 0) write_input(rank, input, iteration);
                meeting.arrive_and_wait();
                if (options_.before_arrival) options_.before_arrival(rank);
                const bool record = options_.trace && it == total;
                const Clock::time_point start = Clock::now();
                if (record) starts_[rank] = start;
                for (std::size_t k = 0; k < program.tasks.size(); ++k) {
                    for (int slot : program.waits[k]) flags_[slot].wait_for(iteration);
                    const int id = program.tasks[k];
                    const Clock::time_point begin = record ? Clock::now() : Clock::time_point{};
                    execute(id, iteration);
                    if (record) task_times_[id] = {begin, Clock::now()};
                    if (flag_slot_[id] >= 0) flags_[flag_slot_[id]].wake();
                }
                const Clock::time_point end = Clock::now();
                const std::size_t slot = static_cast<std::size_t>(it - 1) * schedule_.rank_count() + rank;
                iteration_ns_[slot] = nanoseconds(start, end);
                arrivals_[slot] = start;
                departures_[slot] = end;
                // Nobody rewrites an input while another thread may still read it.
                meeting.arrive_and_wait();
            }
        }
    }

    void write_input(int rank, int buffer, std::uint32_t iteration) {
        const sched::Buffer& info = schedule_.buffer(buffer);
        fill_input(memory_[buffer].get(), info.bytes, rank, iteration, schedule_.spec.op);
    }

    void execute(int id, std::uint32_t iteration) {
        const sched::Task& task = schedule_.task(id);
        switch (task.kind) {
            case sched::TaskKind::copy:
                std::memcpy(memory_[task.write.buffer].get() + task.write.offset,
                            memory_[task.reads[0].buffer].get() + task.reads[0].offset, task.write.bytes);
                break;
            case sched::TaskKind::reduce: {
                boost::container::small_vector<const double*, 8> sources;  // no heap in the timed loop
                for (const sched::Range& read : task.reads) sources.push_back(doubles(read));
                reduce_into(doubles(task.write), {sources.data(), sources.size()}, task.write.bytes / sizeof(double),
                            schedule_.spec.op);
                break;
            }
            case sched::TaskKind::flag:
                flags_[flag_slot_[id]].publish(iteration);
                break;
            case sched::TaskKind::compute:
                compute_sink_ += compute_flops(task.flops);
                break;
            case sched::TaskKind::wait:  // its dependencies were the point
            case sched::TaskKind::net:   // refused in check_supported()
                break;
        }
    }

    sched::Timeline timeline() const {
        sched::Timeline result;
        const Clock::time_point epoch = *std::min_element(starts_.begin(), starts_.end());
        for (const auto& [begin, end] : task_times_) {
            result.tasks.push_back({nanoseconds(epoch, begin), nanoseconds(epoch, end)});
            result.makespan_ns = std::max(result.makespan_ns, result.tasks.back().end_ns);
        }
        return result;
    }

    // Every output block of the collective's contract holds what the inputs
    // of the last iteration say it must: a reduction element by element, a
    // copy byte by byte. A barrier (and an all-to-all collective of nothing)
    // has no data: every rank must have arrived (started the iteration)
    // before any rank left it.
    void verify(std::uint32_t last_iteration) {
        const sched::CollectiveSpec& spec = schedule_.spec;
        const int ranks = schedule_.rank_count();
        if (sched::synchronisation_only(spec)) {
            verify_synchronisation();
            return;
        }
        for (int rank = 0; rank < ranks; ++rank) {
            const int output = schedule_.output_of(rank);
            if (output >= 0 && options_.before_verify)
                options_.before_verify(rank, reinterpret_cast<double*>(memory_[output].get()),
                                       schedule_.buffer(output).bytes / sizeof(double));
        }
        const std::string what = fmt::format("({} {}, {} bytes)", sched::to_string(spec.collective), spec.algorithm, spec.bytes);
        for (const sched::RequiredBlock& block : sched::required_blocks(spec, ranks)) {
            const int output = schedule_.output_of(block.rank);
            if (output < 0 || schedule_.buffer(output).bytes < block.output_offset + block.bytes)
                throw VerificationError(fmt::format("verification failed: rank {} has no output of {} bytes {}", block.rank,
                                                    block.output_offset + block.bytes, what));
            const std::byte* bytes = memory_[output].get() + block.output_offset;
            if (block.sources.size() > 1) {
                const auto* values = reinterpret_cast<const double*>(bytes);
                for (std::size_t i = 0; i < block.bytes / sizeof(double); ++i) {
                    const std::size_t element = block.input_offset / sizeof(double) + i;
                    const double expected = reduced_value(ranks, element, last_iteration, spec.op);
                    if (values[i] != expected)
                        throw VerificationError(fmt::format(
                            "verification failed: rank {} element {} is {} but the {} of the inputs is {} {}", block.rank,
                            block.output_offset / sizeof(double) + i, values[i], sched::to_string(spec.op), expected, what));
                }
                continue;
            }
            for (std::size_t x = 0; x < block.bytes; ++x) {
                const std::uint8_t expected = input_byte(block.sources.front(), block.input_offset + x, last_iteration, spec.op);
                const auto got = static_cast<std::uint8_t>(bytes[x]);
                if (got != expected)
                    throw VerificationError(fmt::format(
                        "verification failed: rank {} byte {} is {:#04x} but rank {}'s input byte {} is {:#04x} {}",
                        block.rank, block.output_offset + x, got, block.sources.front(), block.input_offset + x, expected,
                        what));
            }
        }
    }

    void verify_synchronisation() const {
        const int ranks = schedule_.rank_count();
        for (std::size_t it = 0; it < arrivals_.size() / static_cast<std::size_t>(ranks); ++it) {
            const auto first = arrivals_.begin() + static_cast<std::ptrdiff_t>(it * ranks);
            const auto last_arrival = std::max_element(first, first + ranks);
            const auto left = departures_.begin() + static_cast<std::ptrdiff_t>(it * ranks);
            const auto first_departure = std::min_element(left, left + ranks);
            if (*first_departure < *last_arrival)
                throw VerificationError(fmt::format(
                    "verification failed: in iteration {} rank {} left the barrier before rank {} arrived ({} {})", it + 1,
                    first_departure - left, last_arrival - first, sched::to_string(schedule_.spec.collective),
                    schedule_.spec.algorithm));
        }
    }

    const sched::Schedule& schedule_;
    const ExecOptions& options_;
    MemoryBinding binding_;
    std::mutex binding_mutex_;
    std::vector<ThreadProgram> programs_;
    std::vector<int> flag_slot_;
    int flag_count_ = 0;
    std::unique_ptr<Flag[]> flags_;
    std::vector<std::shared_ptr<std::byte>> memory_;
    std::vector<double> iteration_ns_;  // [iteration][rank]
    std::vector<Clock::time_point> arrivals_, departures_;  // [iteration][rank]: start and end of each iteration
    std::vector<std::pair<Clock::time_point, Clock::time_point>> task_times_;
    std::vector<Clock::time_point> starts_;
    // Where compute tasks leave their result, so that their work is done.
    static thread_local double compute_sink_;
};

thread_local double Executor::compute_sink_ = 0;

}  // namespace

IterationStats summarize(std::vector<double> iteration_ns) {
    IterationStats stats;
    stats.iterations = static_cast<int>(iteration_ns.size());
    if (iteration_ns.empty()) return stats;
    std::sort(iteration_ns.begin(), iteration_ns.end());
    stats.median_ns = median_of_sorted(iteration_ns);
    stats.p10_ns = nearest_rank(iteration_ns, 0.10);
    stats.p90_ns = nearest_rank(iteration_ns, 0.90);
    stats.min_ns = iteration_ns.front();
    stats.max_ns = iteration_ns.back();
    return stats;
}

ExecResult run_on_threads(const sched::Schedule& schedule, const topo::Machine& machine, const ExecOptions& options) {
    if (options.warmup_iterations < 0 || options.timed_iterations < 1)
        throw UsageError(fmt::format("iterations must be >= 1 and warm-up >= 0 (got {} and {})", options.timed_iterations,
                                     options.warmup_iterations));
    return Executor(schedule, machine, options).run();
}

}  // namespace numacoll::exec

#include "calibrate/microbenchmarks.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>

#include "exec/cross_memory.hpp"
#include "exec/flag.hpp"
#include "exec/input_pattern.hpp"
#include "exec/kernels.hpp"
#include "exec/verification.hpp"

namespace numacoll::calibrate {

namespace {

using Buffer = std::shared_ptr<std::byte>;

// Keeps results that nothing else reads from being optimised away.
volatile double double_sink = 0;
volatile std::uint64_t index_sink = 0;

std::string pu_list(const std::vector<int>& pus) {
    std::string out;
    for (int pu : pus) out += fmt::format("{}{}", out.empty() ? "" : ",", pu);
    return out;
}

class FlagPingPong : public exec::IterationWork {
public:
    explicit FlagPingPong(int rounds) : rounds_(rounds) {}
    void prepare(int, std::uint32_t) override {}
    void run(int thread, std::uint32_t iteration, bool) override {
        const std::uint32_t base = (iteration - 1) * static_cast<std::uint32_t>(rounds_);
        for (std::uint32_t r = 1; r <= static_cast<std::uint32_t>(rounds_); ++r) {
            if (thread == 0) {
                ping_.publish(base + r);
                ping_.wake();
                pong_.wait_for(base + r);
            } else {
                ping_.wait_for(base + r);
                pong_.publish(base + r);
                pong_.wake();
            }
        }
    }
    bool completed(std::uint32_t iterations) const {
        const std::uint32_t last = iterations * static_cast<std::uint32_t>(rounds_);
        return ping_.generation.load() == last && pong_.generation.load() == last;
    }

private:
    int rounds_;
    exec::Flag ping_, pong_;
};

// Thread t writes the inputs listed for it before each iteration, then
// copies or reduces its jobs' sources into their destinations.
struct Job {
    std::vector<std::byte*> sources;  // one: a copy; two: a sum
    std::byte* destination = nullptr;
};

class CopyWork : public exec::IterationWork {
public:
    CopyWork(std::uint64_t bytes, std::vector<std::vector<std::pair<std::byte*, int>>> inputs, std::vector<Job> jobs)
        : bytes_(bytes), inputs_(std::move(inputs)), jobs_(std::move(jobs)) {}

    void prepare(int thread, std::uint32_t iteration) override {
        for (const auto& [input, rank] : inputs_[thread])
            exec::fill_input(input, bytes_, rank, iteration, sched::ReduceOp::sum);
    }
    void run(int thread, std::uint32_t, bool) override {
        const Job& job = jobs_[thread];
        if (!job.destination) return;
        if (job.sources.size() == 1) {
            std::memcpy(job.destination, job.sources[0], bytes_);
            return;
        }
        const double* sources[2] = {reinterpret_cast<const double*>(job.sources[0]),
                                    reinterpret_cast<const double*>(job.sources[1])};
        exec::reduce_into(reinterpret_cast<double*>(job.destination), {sources, 2}, bytes_ / sizeof(double),
                          sched::ReduceOp::sum);
    }

private:
    std::uint64_t bytes_;
    std::vector<std::vector<std::pair<std::byte*, int>>> inputs_;  // per thread: (input, rank it stands for)
    std::vector<Job> jobs_;                                        // per thread
};

class ChaseWork : public exec::IterationWork {
public:
    ChaseWork(const std::uint64_t* next, int steps) : next_(next), steps_(steps) {}
    void prepare(int, std::uint32_t) override {}
    void run(int, std::uint32_t, bool) override {
        std::uint64_t at = position_;
        for (int s = 0; s < steps_; ++s) at = next_[at * lines_stride];
        position_ = at;
        index_sink = at;
    }
    static constexpr std::uint64_t lines_stride = 8;  // one uint64 per 64-byte line

private:
    const std::uint64_t* next_;
    int steps_;
    std::uint64_t position_ = 0;
};

class ComputeWork : public exec::IterationWork {
public:
    explicit ComputeWork(double flops) : flops_(flops) {}
    void prepare(int, std::uint32_t) override {}
    void run(int, std::uint32_t, bool) override { double_sink = exec::compute_flops(flops_); }

private:
    double flops_;
};

// Folds two vectors of one datatype into a third with its kernel, inputs
// rewritten before each iteration.
class TypedReduceWork : public exec::IterationWork {
public:
    TypedReduceWork(std::byte* own, std::byte* other, std::byte* result, std::uint64_t bytes, sched::Datatype datatype,
                    sched::ReduceOp op)
        : own_(own), other_(other), result_(result), bytes_(bytes), datatype_(datatype), op_(op) {}
    void prepare(int, std::uint32_t iteration) override {
        exec::fill_input(own_, bytes_, 0, iteration, datatype_, op_);
        exec::fill_input(other_, bytes_, 1, iteration, datatype_, op_);
    }
    void run(int, std::uint32_t, bool) override {
        const std::byte* sources[2] = {own_, other_};
        exec::reduce_into(result_, {sources, 2}, bytes_ / sched::element_size(datatype_), datatype_, op_);
    }

private:
    std::byte *own_, *other_, *result_;
    std::uint64_t bytes_;
    sched::Datatype datatype_;
    sched::ReduceOp op_;
};

// Copies the thread's source into its destination through the kernel, as
// a process reads another's exposed buffer.
class SingleCopyWork : public exec::IterationWork {
public:
    SingleCopyWork(std::byte* source, std::byte* destination, std::uint64_t bytes)
        : source_(source), destination_(destination), bytes_(bytes) {}
    void prepare(int, std::uint32_t iteration) override {
        exec::fill_input(source_, bytes_, 0, iteration, sched::ReduceOp::sum);
    }
    void run(int, std::uint32_t, bool) override {
        if (!exec::read_process_memory(getpid(), reinterpret_cast<std::uintptr_t>(source_), destination_, bytes_))
            failed_ = true;
    }
    bool failed() const { return failed_; }

private:
    std::byte* source_;
    std::byte* destination_;
    std::uint64_t bytes_;
    bool failed_ = false;
};

[[noreturn]] void wrong(const std::string& what) {
    throw exec::VerificationError(fmt::format("calibration microbenchmark gave a wrong result: {}", what));
}

}  // namespace

Microbenchmarks::Microbenchmarks(const topo::Machine& machine, BenchmarkIterations iterations, bool keep_dram_buffers)
    : machine_(machine), iterations_(iterations), binding_(machine), keep_dram_buffers_(keep_dram_buffers) {}

exec::HarnessOptions Microbenchmarks::options(int timed) const {
    exec::HarnessOptions options;
    options.warmup_iterations = std::min(iterations_.warmup, std::max(1, timed / 5));
    options.timed_iterations = timed;
    return options;
}

int Microbenchmarks::numa_of_pu(int pu) const { return machine_.numa_of_core(machine_.core_of_pu(pu)); }

double Microbenchmarks::floor_ns(const std::vector<int>& pus, const std::vector<bool>& timed_threads) {
    const auto key = std::make_pair(pus, timed_threads);
    const auto found = floors_.find(key);
    if (found != floors_.end()) return found->second;
    return floors_[key] = exec::timing_floor_ns(pus, binding_, true, timed_threads);
}

Microbenchmarks::Timed Microbenchmarks::finish(Measurement measurement, const exec::HarnessResult& result,
                                               double units_per_iteration, const std::vector<int>& pus,
                                               const std::vector<bool>& timed_threads) {
    Timed timed;
    const double floor = floor_ns(pus, timed_threads);
    for (double ns : result.iteration_ns) timed.iteration_ns.push_back(std::max(0.0, ns - floor) / units_per_iteration);
    const TimeStats stats = summarize_times(timed.iteration_ns);
    measurement.time_ns = stats.median_ns;
    measurement.p10_ns = stats.p10_ns;
    measurement.p90_ns = stats.p90_ns;
    measurement.iterations = stats.iterations;
    pinned_ = pinned_ && result.threads_pinned;
    timed.measurement = measurement;
    return timed;
}

Microbenchmarks::Timed Microbenchmarks::flag(costs::Level level, PuPair pair) {
    auto work = std::make_unique<FlagPingPong>(iterations_.flag_rounds);  // the flags' lines on the heap, apart
    const exec::HarnessOptions harness = options(iterations_.timed);
    const auto result = exec::run_iterations({pair.writer_pu, pair.reader_pu}, binding_, harness, *work);
    if (!work->completed(static_cast<std::uint32_t>(result.iterations))) wrong("a flag missed a round");
    Measurement m{Microbenchmark::flag, level, 64, 1, 0, 0, 0, 0, pu_list({pair.writer_pu, pair.reader_pu})};
    return finish(m, result, 2.0 * iterations_.flag_rounds, {pair.writer_pu, pair.reader_pu});
}

Microbenchmarks::Timed Microbenchmarks::copy(costs::Level level, PuPair pair, std::uint64_t bytes) {
    Timed timed = contended_copy(level, {pair}, bytes);
    timed.measurement.kind = Microbenchmark::copy;
    return timed;
}

Microbenchmarks::Timed Microbenchmarks::contended_copy(costs::Level level, const std::vector<PuPair>& pairs,
                                                       std::uint64_t bytes) {
    // Threads: every PU that reads or writes, in order of first mention.
    std::vector<int> pus;
    const auto thread_of = [&](int pu) {
        auto at = std::find(pus.begin(), pus.end(), pu);
        if (at != pus.end()) return static_cast<int>(at - pus.begin());
        pus.push_back(pu);
        return static_cast<int>(pus.size()) - 1;
    };
    for (const PuPair& pair : pairs) thread_of(pair.reader_pu);
    for (const PuPair& pair : pairs) thread_of(pair.writer_pu);
    std::vector<std::vector<std::pair<std::byte*, int>>> inputs(pus.size());
    std::vector<Job> jobs(pus.size());
    std::vector<Buffer> memory;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        memory.push_back(binding_.allocate(bytes, numa_of_pu(pairs[k].writer_pu)));
        std::byte* source = memory.back().get();
        memory.push_back(binding_.allocate(bytes, numa_of_pu(pairs[k].reader_pu)));
        inputs[thread_of(pairs[k].writer_pu)].push_back({source, static_cast<int>(k)});
        jobs[thread_of(pairs[k].reader_pu)] = {{source}, memory.back().get()};
    }
    CopyWork work(bytes, inputs, jobs);
    exec::HarnessOptions harness = options(iterations_.timed);
    for (const Job& job : jobs) harness.timed_threads.push_back(job.destination != nullptr);  // readers only
    const auto result = exec::run_iterations(pus, binding_, harness, work);
    const auto last = static_cast<std::uint32_t>(result.iterations);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
        const std::byte* copied = jobs[thread_of(pairs[k].reader_pu)].destination;
        for (std::uint64_t i = 0; i < bytes; i += std::max<std::uint64_t>(1, bytes / 4096))
            if (static_cast<std::uint8_t>(copied[i]) != exec::input_byte(static_cast<int>(k), i, last, sched::ReduceOp::sum))
                wrong(fmt::format("copy {} byte {}", k, i));
    }
    std::vector<int> listed;
    for (const PuPair& pair : pairs) listed.push_back(pair.writer_pu), listed.push_back(pair.reader_pu);
    Measurement m{Microbenchmark::contended_copy, level, bytes, static_cast<int>(pairs.size()), 0, 0, 0, 0, pu_list(listed)};
    return finish(m, result, 1, pus, harness.timed_threads);
}

Microbenchmarks::Timed Microbenchmarks::reduce(costs::Level level, PuPair pair, std::uint64_t bytes) {
    const bool local = pair.writer_pu == pair.reader_pu;
    std::vector<int> pus = {pair.reader_pu};
    if (!local) pus.push_back(pair.writer_pu);
    Buffer own = binding_.allocate(bytes, numa_of_pu(pair.reader_pu));
    Buffer other = binding_.allocate(bytes, numa_of_pu(pair.writer_pu));
    Buffer sum = binding_.allocate(bytes, numa_of_pu(pair.reader_pu));
    std::vector<std::vector<std::pair<std::byte*, int>>> inputs(pus.size());
    inputs[0].push_back({own.get(), 0});
    inputs[local ? 0 : 1].push_back({other.get(), 1});
    std::vector<Job> jobs(pus.size());
    jobs[0] = {{own.get(), other.get()}, sum.get()};
    CopyWork work(bytes, inputs, jobs);
    exec::HarnessOptions harness = options(iterations_.timed);
    harness.timed_threads = {true, false};  // the reader; the writer only prepares
    harness.timed_threads.resize(pus.size());
    const auto result = exec::run_iterations(pus, binding_, harness, work);
    const auto last = static_cast<std::uint32_t>(result.iterations);
    const auto* values = reinterpret_cast<const double*>(sum.get());
    for (std::uint64_t e = 0; e < bytes / sizeof(double); e += std::max<std::uint64_t>(1, bytes / 8 / 4096))
        if (values[e] != exec::reduced_value(2, e, last, sched::ReduceOp::sum)) wrong(fmt::format("sum element {}", e));
    Measurement m{Microbenchmark::reduce, level, bytes, 1, 0, 0, 0, 0, pu_list({pair.writer_pu, pair.reader_pu})};
    return finish(m, result, 1, pus, harness.timed_threads);
}

void write_chase_cycle(std::uint64_t* next, std::uint64_t lines, std::uint64_t stride) {
    std::vector<std::uint64_t> order(lines);
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 random(12345);
    for (std::uint64_t i = lines - 1; i > 0 && i < lines; --i) std::swap(order[i], order[random() % i]);
    for (std::uint64_t i = 0; i < lines; ++i) next[order[i] * stride] = order[(i + 1) % lines];
}

Microbenchmarks::ChaseBuffer& Microbenchmarks::chase_buffer(std::uint64_t bytes, int numa) {
    if (!keep_dram_buffers_) chases_.clear();
    ChaseBuffer& buffer = chases_[{bytes, numa}];
    if (!buffer.memory) buffer.memory = binding_.allocate(bytes, numa);
    return buffer;
}

std::byte* Microbenchmarks::copy_pool(int numa, std::uint64_t bytes) {
    auto& [memory, size] = copy_pools_[numa];
    if (!memory || size < bytes) {
        memory.reset();  // before the larger one is touched
        memory = binding_.allocate(bytes, numa);
        size = bytes;
    }
    return memory.get();
}

Microbenchmarks::Timed Microbenchmarks::dram_chase(int pu, std::uint64_t buffer_bytes, int steps, int numa, int hops) {
    const std::uint64_t lines = buffer_bytes / 64;
    ChaseBuffer& buffer = chase_buffer(lines * 64, numa >= 0 ? numa : numa_of_pu(pu));
    auto* next = reinterpret_cast<std::uint64_t*>(buffer.memory.get());
    if (!buffer.prepared) {
        write_chase_cycle(next, lines, ChaseWork::lines_stride);
        buffer.prepared = true;  // a chase only reads it
    }
    ChaseWork work(next, steps);
    const auto result = exec::run_iterations({pu}, binding_, options(std::max(3, iterations_.timed / 10)), work);
    Measurement m{Microbenchmark::dram_chase, costs::Level::dram, 64, 1, 0, 0, 0, 0, std::to_string(pu), hops};
    return finish(m, result, steps, {pu});
}

Microbenchmarks::Timed Microbenchmarks::dram_copy(const std::vector<int>& pus, std::uint64_t bytes) {
    if (!keep_dram_buffers_) copy_pools_.clear();
    std::vector<std::vector<std::pair<std::byte*, int>>> inputs(pus.size());
    std::vector<Job> jobs(pus.size());
    // Each PU's source and destination, on its NUMA node: the streams of one
    // node take consecutive parts of its pool.
    std::map<int, std::uint64_t> taken_bytes;  // by NUMA node
    std::vector<std::uint64_t> offsets;
    for (int pu : pus) {
        offsets.push_back(taken_bytes[numa_of_pu(pu)]);
        taken_bytes[numa_of_pu(pu)] += 2 * bytes;
    }
    for (std::size_t t = 0; t < pus.size(); ++t) {
        std::byte* source = copy_pool(numa_of_pu(pus[t]), taken_bytes[numa_of_pu(pus[t])]) + offsets[t];
        inputs[t].push_back({source, static_cast<int>(t)});
        jobs[t] = {{source}, source + bytes};
    }
    CopyWork work(bytes, inputs, jobs);
    const auto result = exec::run_iterations(pus, binding_, options(std::max(3, iterations_.timed / 10)), work);
    const auto last = static_cast<std::uint32_t>(result.iterations);
    for (std::size_t t = 0; t < pus.size(); ++t)
        for (std::uint64_t i = 0; i < bytes; i += bytes / 1024)
            if (static_cast<std::uint8_t>(jobs[t].destination[i]) !=
                exec::input_byte(static_cast<int>(t), i, last, sched::ReduceOp::sum))
                wrong(fmt::format("DRAM copy {} byte {}", t, i));
    const bool contended = pus.size() > 1;
    Measurement m{contended ? Microbenchmark::contended_dram_copy : Microbenchmark::dram_copy,
                  costs::Level::dram, bytes, static_cast<int>(pus.size()), 0, 0, 0, 0, pu_list(pus)};
    return finish(m, result, 1, pus);
}

Microbenchmarks::Timed Microbenchmarks::compute(int pu, double flops) {
    ComputeWork work(flops);
    const auto result = exec::run_iterations({pu}, binding_, options(std::max(5, iterations_.timed / 4)), work);
    if (!(double_sink > 0)) wrong("compute work returned nothing");
    Measurement m{Microbenchmark::compute, costs::Level::local_cache, static_cast<std::uint64_t>(flops), 1, 0, 0, 0, 0,
                  std::to_string(pu)};
    return finish(m, result, 1, {pu});
}

Microbenchmarks::Timed Microbenchmarks::typed_reduce(int pu, std::uint64_t bytes, sched::Datatype datatype,
                                                     sched::ReduceOp op) {
    const std::uint64_t size = sched::element_size(datatype);
    bytes = bytes / size * size;
    const Buffer own = binding_.allocate(bytes, numa_of_pu(pu));
    const Buffer other = binding_.allocate(bytes, numa_of_pu(pu));
    const Buffer result = binding_.allocate(bytes, numa_of_pu(pu));
    TypedReduceWork work(own.get(), other.get(), result.get(), bytes, datatype, op);
    const auto timed = exec::run_iterations({pu}, binding_, options(iterations_.timed), work);
    const auto last = static_cast<std::uint32_t>(timed.iterations);
    std::vector<std::byte> expected(size);
    const std::uint64_t elements = bytes / size;
    for (std::uint64_t e = 0; e < elements; e += std::max<std::uint64_t>(1, elements / 4096)) {
        exec::reduced_elements(expected.data(), 2, e, 1, last, datatype, op);
        if (!exec::same_value(result.get() + e * size, expected.data(), datatype))
            wrong(fmt::format("{} {} element {}", sched::to_string(datatype), sched::to_string(op), e));
    }
    Measurement m{Microbenchmark::typed_reduce, costs::Level::local_cache, bytes, 1, 0, 0, 0, 0, std::to_string(pu)};
    m.datatype = datatype;
    return finish(m, timed, 1, {pu});
}

Microbenchmarks::Timed Microbenchmarks::single_copy(int pu, std::uint64_t bytes) {
    const Buffer source = binding_.allocate(bytes, numa_of_pu(pu));
    const Buffer destination = binding_.allocate(bytes, numa_of_pu(pu));
    SingleCopyWork work(source.get(), destination.get(), bytes);
    const auto result = exec::run_iterations({pu}, binding_, options(iterations_.timed), work);
    if (work.failed()) wrong("process_vm_readv did not copy every byte");
    const auto last = static_cast<std::uint32_t>(result.iterations);
    for (std::uint64_t i = 0; i < bytes; i += std::max<std::uint64_t>(1, bytes / 4096))
        if (static_cast<std::uint8_t>(destination.get()[i]) != exec::input_byte(0, i, last, sched::ReduceOp::sum))
            wrong(fmt::format("single copy byte {}", i));
    Measurement m{Microbenchmark::single_copy, costs::Level::local_cache, bytes, 1, 0, 0, 0, 0, std::to_string(pu)};
    return finish(m, result, 1, {pu});
}

bool Microbenchmarks::single_copy_allowed() { return exec::process_memory_readable(); }

}  // namespace numacoll::calibrate

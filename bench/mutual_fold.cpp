// numacoll_bench_mutual_fold [ROUNDS] [ITERATIONS]: what two threads pay when
// each folds its own vector with the other's at the same instant (the
// two-thread dissemination allreduce), against the same fold by one thread
// while the other idles (the baseline), a two-way copy of each other's vector
// (the calibration's contended copy) and two folds of private vectors.
// Every pattern runs through the executor's harness (pinned threads,
// NUMA-bound buffers, inputs rewritten and outputs cleared before each
// iteration, a common start), the patterns interleaved round by round.
// Prints per size and pattern the median, p10 and p90 of the rounds' pooled
// iterations and the median over the baseline's.
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "common/statistics.hpp"
#include "exec/harness.hpp"
#include "exec/input_pattern.hpp"
#include "exec/kernels.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

namespace {

enum class Pattern { one_fold, mutual_fold, mutual_copy, private_folds };

const char* name_of(Pattern pattern) {
    switch (pattern) {
        case Pattern::one_fold: return "one folds own+other's (baseline)";
        case Pattern::mutual_fold: return "both fold own+other's";
        case Pattern::mutual_copy: return "both copy other's";
        case Pattern::private_folds: return "both fold own+own";
    }
    return "?";
}

// Thread t owns inputs[t], spare[t] (a second private vector) and outputs[t].
class PatternWork : public exec::IterationWork {
public:
    PatternWork(Pattern pattern, std::size_t bytes, std::vector<double*> inputs, std::vector<double*> spare,
                std::vector<double*> outputs)
        : pattern_(pattern), bytes_(bytes), inputs_(std::move(inputs)), spare_(std::move(spare)),
          outputs_(std::move(outputs)) {}

    void prepare(int thread, std::uint32_t iteration) override {
        exec::fill_input(reinterpret_cast<std::byte*>(inputs_[thread]), bytes_, thread, iteration, sched::ReduceOp::sum);
        exec::fill_input(reinterpret_cast<std::byte*>(spare_[thread]), bytes_, thread + 2, iteration, sched::ReduceOp::sum);
        std::memset(outputs_[thread], 0xff, bytes_);
    }
    void run(int thread, std::uint32_t, bool) override {
        if (pattern_ == Pattern::one_fold && thread == 1) return;
        const double* other = inputs_[1 - thread];
        if (pattern_ == Pattern::mutual_copy) {
            std::memcpy(outputs_[thread], other, bytes_);
            return;
        }
        const double* sources[2] = {inputs_[thread], pattern_ == Pattern::private_folds ? spare_[thread] : other};
        exec::reduce_into(outputs_[thread], {sources, 2}, bytes_ / sizeof(double), sched::ReduceOp::sum);
    }

private:
    Pattern pattern_;
    std::size_t bytes_;
    std::vector<double*> inputs_, spare_, outputs_;
};

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
    const int iterations = argc > 2 ? std::atoi(argv[2]) : 200;
    if (rounds < 1 || iterations < 1) {
        fmt::print(stderr, "usage: numacoll_bench_mutual_fold [ROUNDS >= 1] [ITERATIONS >= 1]\n");
        return 2;
    }
    const topo::Machine machine = topo::load_live();
    if (machine.core_count() < 2) {
        fmt::print(stderr, "numacoll_bench_mutual_fold: needs two cores, this machine has {}\n", machine.core_count());
        return 1;
    }
    exec::MemoryBinding binding(machine);
    const std::vector<int> pus = {machine.core(0).pus.front(), machine.core(1).pus.front()};
    exec::HarnessOptions options;
    options.timed_iterations = iterations;
    const std::vector<Pattern> patterns = {Pattern::one_fold, Pattern::mutual_fold, Pattern::mutual_copy,
                                           Pattern::private_folds};
    fmt::print("bytes,pattern,median_ns,p10_ns,p90_ns,iterations,median_over_baseline\n");
    for (std::size_t bytes : {64u, 4096u, 65536u, 262144u}) {
        std::vector<std::shared_ptr<std::byte>> memory;
        auto vector_on = [&](int thread) {
            memory.push_back(binding.allocate(bytes, machine.numa_of_core(thread)));
            return reinterpret_cast<double*>(memory.back().get());
        };
        std::vector<double*> inputs, spare, outputs;
        for (int thread = 0; thread < 2; ++thread) {
            inputs.push_back(vector_on(thread));
            spare.push_back(vector_on(thread));
            outputs.push_back(vector_on(thread));
        }
        std::map<Pattern, std::vector<double>> pooled;
        for (int round = 0; round < rounds; ++round)
            for (Pattern pattern : patterns) {
                PatternWork work(pattern, bytes, inputs, spare, outputs);
                const exec::HarnessResult result = exec::run_iterations(pus, binding, options, work);
                pooled[pattern].insert(pooled[pattern].end(), result.iteration_ns.begin(), result.iteration_ns.end());
            }
        const double baseline = summarize_times(pooled[Pattern::one_fold]).median_ns;
        for (Pattern pattern : patterns) {
            const TimeStats stats = summarize_times(pooled[pattern]);
            fmt::print("{},{},{:.1f},{:.1f},{:.1f},{},{:.2f}\n", bytes, name_of(pattern), stats.median_ns, stats.p10_ns,
                       stats.p90_ns, stats.iterations, stats.median_ns / baseline);
        }
    }
    return 0;
}

// Every rank of an allreduce holds the same bits, also where the reduction
// rounds (floating sums and products, of complex types too). The engines'
// inputs are exact in any order (exec/input_pattern.hpp), so their
// verification cannot see a difference in rounding; here each schedule runs
// once, task by task in id order (a topological order: on a schedule the
// checker proves, any order an engine follows reads the same values) with
// the engines' own reduction kernels, over inputs that round, and every
// rank's output is compared byte by byte with rank 0's.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "../schedule_fixtures.hpp"
#include "exec/kernels.hpp"
#include "schedule/process_form.hpp"

using namespace numacoll;

namespace {

// Values that round when added or multiplied: mantissas full of bits,
// exponents spread over a few binades (products stay near 1).
void fill_rounding_values(std::byte* bytes, std::uint64_t size, sched::Datatype datatype, sched::ReduceOp op,
                          std::mt19937_64& random) {
    std::uniform_real_distribution<double> spread(-3.0, 3.0);
    std::uniform_real_distribution<double> near_one(0.9, 1.1);
    const auto next = [&] { return op == sched::ReduceOp::prod ? near_one(random) : std::exp2(spread(random)) / 3.0; };
    const bool single = datatype == sched::Datatype::float_ || datatype == sched::Datatype::c_float_complex;
    const std::size_t component = single ? sizeof(float) : sizeof(double);
    for (std::uint64_t offset = 0; offset + component <= size; offset += component) {
        if (single) {
            const auto value = static_cast<float>(next());
            std::memcpy(bytes + offset, &value, sizeof value);
        } else {
            const double value = next();
            std::memcpy(bytes + offset, &value, sizeof value);
        }
    }
}

// Runs the schedule's copies, messages and reductions in id order over
// buffers of bytes, the inputs filled with rounding values; returns every
// rank's output.
std::vector<std::vector<std::byte>> run_in_order(const sched::Schedule& schedule, std::uint64_t seed) {
    std::vector<std::vector<std::byte>> buffers;
    for (const sched::Buffer& buffer : schedule.buffers()) buffers.emplace_back(buffer.bytes);
    std::mt19937_64 random(seed);
    for (int rank = 0; rank < schedule.rank_count(); ++rank) {
        auto& input = buffers[schedule.input_of(rank)];
        fill_rounding_values(input.data(), input.size(), schedule.spec.datatype, schedule.spec.op, random);
    }
    const std::size_t element = sched::element_size(schedule.spec.datatype);
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.write.buffer < 0 || task.write.bytes == 0) continue;  // flags, waits, messages of nothing
        std::byte* destination = buffers[task.write.buffer].data() + task.write.offset;
        if (task.kind == sched::TaskKind::copy || task.kind == sched::TaskKind::net) {
            std::memmove(destination, buffers[task.reads[0].buffer].data() + task.reads[0].offset, task.write.bytes);
        } else if (task.kind == sched::TaskKind::reduce) {
            std::vector<const std::byte*> sources;
            for (const sched::Range& read : task.reads) sources.push_back(buffers[read.buffer].data() + read.offset);
            exec::reduce_into(destination, sources, task.write.bytes / element, schedule.spec.datatype,
                              schedule.spec.op);
        }
    }
    std::vector<std::vector<std::byte>> outputs;
    for (int rank = 0; rank < schedule.rank_count(); ++rank) outputs.push_back(buffers[schedule.output_of(rank)]);
    return outputs;
}

// The first rank whose output differs from rank 0's, or -1.
int first_differing_rank(const std::vector<std::vector<std::byte>>& outputs) {
    for (std::size_t rank = 1; rank < outputs.size(); ++rank)
        if (outputs[rank] != outputs[0]) return static_cast<int>(rank);
    return -1;
}

struct Variant {
    std::string algorithm;
    std::map<std::string, std::string> options;

    std::string name() const {
        std::string text = algorithm;
        for (const auto& [key, value] : options) text += fmt::format(" {}={}", key, value);
        return text;
    }
};

sched::Schedule allreduce(const std::string& topology, const Variant& variant, sched::Datatype datatype,
                          sched::ReduceOp op, std::uint64_t elements, int ranks, int nodes) {
    algo::LayoutOptions layout_options;
    layout_options.ranks_per_node = ranks;
    layout_options.nodes = nodes;
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::allreduce;
    spec.algorithm = variant.algorithm;
    spec.datatype = datatype;
    spec.op = op;
    spec.bytes = elements * sched::element_size(datatype);
    spec.options = variant.options;
    return algo::generate_schedule(spec, algo::make_layout(test::machine(topology), layout_options));
}

}  // namespace

TEST(AllreduceIdenticalResults, EveryRankHoldsTheSameBitsWhereTheReductionRounds) {
    const std::vector<Variant> variants = {
        {"tree", {{"arity", "2"}}},
        {"tree", {{"arity", "3"}, {"bcast", "nary"}}},
        {"tree", {{"internode", "binomial"}}},
        {"tree", {{"internode", "ring"}}},
        {"tree", {{"internode", "rabenseifner"}}},
        {"tiled", {{"internode", "ring"}}},
        {"tiled", {{"internode", "rabenseifner"}, {"bcast", "2stage"}}},
        {"tiled-naive", {{"internode", "binomial"}}},
        {"tiled-cyclic", {{"bcast", "2stage"}}},
        {"dissemination", {}},
        {"dissemination", {{"strip", "64"}}},
    };
    int compared = 0;
    for (const Variant& variant : variants)
        for (const auto& [datatype, op] : {std::pair{sched::Datatype::double_, sched::ReduceOp::sum},
                                           std::pair{sched::Datatype::float_, sched::ReduceOp::prod},
                                           std::pair{sched::Datatype::c_double_complex, sched::ReduceOp::prod}})
            for (const char* topology : {"westmere", "synthetic:Package:3 Core:5", "magnycours"})
                for (int nodes : {1, 2, 3, 4, 5})
                    for (int ranks : {1, 2, 3, 4, 5, 6, 7, 8, 12}) {
                        const sched::Schedule schedule = allreduce(topology, variant, datatype, op, 37, ranks, nodes);
                        for (const bool as_processes : {false, true}) {
                            const auto outputs =
                                run_in_order(as_processes ? sched::process_form(schedule) : schedule, 7 + ranks);
                            const int differing = first_differing_rank(outputs);
                            ASSERT_EQ(differing, -1) << fmt::format(
                                "allreduce {} on {}, {} ranks x {} nodes, {} {} ({}): rank {} differs from rank 0",
                                variant.name(), topology, ranks, nodes,
                                sched::to_string(op), sched::to_string(datatype),
                                as_processes ? "processes" : "threads", differing);
                            ++compared;
                        }
                    }
    EXPECT_GT(compared, 0);
}

// The check can fail: the paper's literal pairing, thread j taking thread
// (j - 2^i) mod p's partial, leaves each rank its own association of the
// sum, and the comparison above sees it.
TEST(AllreduceIdenticalResults, TheCyclicPairingGivesRanksTheirOwnRounding) {
    const sched::Schedule schedule = allreduce("westmere", {"dissemination", {{"pairing", "cyclic"}}},
                                               sched::Datatype::double_, sched::ReduceOp::sum, 37, 4, 1);
    EXPECT_NE(first_differing_rank(run_in_order(schedule, 11)), -1);
}

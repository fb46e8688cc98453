// A new algorithm written as a generator with numacoll's public API, then
// proven by the symbolic checker on every rank count of three machines,
// and simulated beside numacoll's own tree allreduce.
//
// The algorithm: every rank tells rank 0 that its input is ready; rank 0
// reduces all of them into its output and tells each rank, which copies
// the sum into its own output and says so; rank 0 leaves once all have.
// A version that forgets to tell the ranks before they copy is refused,
// with the checker's reason.
//
// Usage: linear_allreduce [BYTES] (default 65536)
#include <numacoll/numacoll.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

numacoll::Schedule linear_allreduce(const numacoll::Layout& layout, std::uint64_t bytes, bool tell_before_copy) {
    numacoll::ScheduleWriter writer(layout, {.collective = "allreduce", .algorithm = "linear", .bytes = bytes});
    const int ranks = layout.ranks();
    std::vector<int> inputs, outputs;
    for (int rank = 0; rank < ranks; ++rank) inputs.push_back(writer.add_input(rank, bytes));
    for (int rank = 0; rank < ranks; ++rank) outputs.push_back(writer.add_output(rank, bytes));

    std::vector<numacoll::Range> every_input;
    std::vector<int> inputs_ready;
    for (int rank = 0; rank < ranks; ++rank) {
        every_input.push_back({inputs[rank], 0, bytes});
        if (rank > 0) inputs_ready.push_back(writer.flag(rank, 0, {}, "input ready"));
    }
    const numacoll::Range sum{outputs[0], 0, bytes};
    const int reduced = writer.reduce(0, every_input, sum, inputs_ready, "sum");

    std::vector<int> copied;
    for (int rank = 1; rank < ranks; ++rank) {
        const int ready = tell_before_copy ? writer.flag(0, rank, {reduced}, "sum ready") : reduced;
        const int copy = writer.copy(rank, sum, {outputs[rank], 0, bytes}, {ready}, "copy the sum");
        copied.push_back(writer.flag(rank, 0, {copy}, "copied"));
    }
    if (!copied.empty()) writer.wait(0, copied, "everyone has it");
    return writer.finish();
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const std::uint64_t bytes = argc > 1 ? std::stoull(argv[1]) : 65536;
        int layouts = 0;
        for (const char* name : {"westmere", "magnycours", "synthetic:Package:3 Core:5"}) {
            const numacoll::Machine machine = numacoll::Machine::load(name);
            for (int ranks = 1; ranks <= machine.cores(); ++ranks) {
                const numacoll::Layout layout = numacoll::Layout::place(machine, {.ranks_per_node = ranks});
                const numacoll::Proof proof = linear_allreduce(layout, bytes, true).prove();
                if (!proof.holds) {
                    std::printf("linear allreduce fails on %d ranks of %s: %s\n", ranks, name,
                                proof.problems.front().c_str());
                    return 1;
                }
                ++layouts;
            }
        }
        std::printf("linear allreduce of %llu bytes: proven on %d layouts\n", static_cast<unsigned long long>(bytes),
                    layouts);

        const numacoll::Machine westmere = numacoll::Machine::load("westmere");
        const numacoll::Layout layout = numacoll::Layout::place(westmere);
        const numacoll::Proof broken = linear_allreduce(layout, bytes, false).prove();
        std::printf("without telling the ranks before they copy: %s\n",
                    broken.holds ? "holds (it should not)" : "refused");
        if (broken.holds) return 1;
        std::printf("  the checker says: %s\n", broken.problems.front().c_str());

        const numacoll::Params params = numacoll::Params::for_machine(westmere);
        const double linear_ns = numacoll::simulate(linear_allreduce(layout, bytes, true), westmere, params).row.time_ns;
        const double tree_ns =
            numacoll::simulate({.collective = "allreduce", .algorithm = "tree", .bytes = bytes}, layout, params).row.time_ns;
        std::printf("on %d ranks of westmere: linear %.1f ns, tree %.1f ns (linear / tree = %.2f)\n", layout.ranks(),
                    linear_ns, tree_ns, linear_ns / tree_ns);
        return 0;
    } catch (const numacoll::UsageError& error) {
        std::fprintf(stderr, "linear_allreduce: %s\n", error.what());
        return 2;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "linear_allreduce: %s\n", error.what());
        return 1;
    }
}

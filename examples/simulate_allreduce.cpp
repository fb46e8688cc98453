// Simulates an allreduce on two nodes of a bundled machine with numacoll's
// public API, and sets the simulation beside the algorithm's closed-form
// model and beside the same schedule generated, proven and simulated step
// by step.
//
// Usage: simulate_allreduce [BYTES [MACHINE [ALGORITHM]]]
//   (defaults: 1048576, westmere, tree)
#include <numacoll/numacoll.hpp>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
    try {
        const std::uint64_t bytes = argc > 1 ? std::stoull(argv[1]) : 1 << 20;
        const numacoll::Machine machine = numacoll::Machine::load(argc > 2 ? argv[2] : "westmere");
        const numacoll::Params params = numacoll::Params::for_machine(machine);
        const numacoll::Layout layout = numacoll::Layout::place(machine, {.nodes = 2});
        const numacoll::CollectiveSpec spec{
            .collective = "allreduce", .algorithm = argc > 3 ? argv[3] : "tree", .bytes = bytes};

        // Generated with its tasks planned beside, then simulated: the fast path.
        const numacoll::Simulation result = numacoll::simulate(spec, layout, params);
        std::printf("%s %s of %llu bytes on %d x %s (%d ranks, params %s): %d tasks\n", spec.collective.c_str(),
                    spec.algorithm.c_str(), static_cast<unsigned long long>(bytes), layout.nodes(),
                    machine.name().c_str(), layout.ranks(), params.origin().c_str(), result.row.tasks);
        std::printf("simulated: %.1f ns\n", result.row.time_ns);
        if (result.row.model_ns)
            std::printf("model: %.1f ns (%+.0f%% of the simulation)\n", *result.row.model_ns,
                        100.0 * (*result.row.model_ns / result.row.time_ns - 1.0));

        // The same, one step at a time: generate, prove, simulate the schedule.
        const numacoll::Schedule schedule = numacoll::Schedule::generate(spec, layout);
        const numacoll::Proof proof = schedule.prove();
        std::printf("proof: %s for %d outputs\n", proof.holds ? "holds" : proof.problems.front().c_str(),
                    proof.outputs_checked);
        const double again_ns = numacoll::simulate(schedule, machine, params).row.time_ns;
        std::printf("the schedule simulated on its own: %s\n", again_ns == result.row.time_ns ? "the same time" : "DIFFERS");
        return proof.holds && again_ns == result.row.time_ns ? 0 : 1;
    } catch (const numacoll::UsageError& error) {
        std::fprintf(stderr, "simulate_allreduce: %s\n", error.what());
        return 2;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "simulate_allreduce: %s\n", error.what());
        return 1;
    }
}

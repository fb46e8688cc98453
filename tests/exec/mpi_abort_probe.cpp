// Run by mpi_abort_test.sh under mpirun: the last node's first thread throws
// in the middle of a run, while the other processes wait for its messages.
// The job must end (every process, non-zero) with that node's line, not hang.
#include "exec/mpi_executor.hpp"

#include <cstdio>
#include <memory>
#include <stdexcept>

#include "algorithms/registry.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

int main(int argc, char** argv) {
    exec::MpiWorld world(&argc, &argv);
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("live"));
    algo::LayoutOptions layout;
    layout.nodes = world.size();
    layout.ranks_per_node = 1;
    sched::CollectiveSpec spec;
    spec.algorithm = "tree";
    spec.bytes = 4096;
    const sched::Schedule schedule = algo::generate_schedule(spec, algo::make_layout(machine, layout));
    exec::ExecOptions options;
    options.warmup_iterations = 1;
    options.timed_iterations = 1000000;  // long enough that only the failure can end it
    int arrivals = 0;
    options.before_arrival = [&](int thread) {
        if (world.rank() == world.size() - 1 && thread == 0 && ++arrivals == 3)
            throw std::runtime_error("deliberate failure in a rank's thread");
    };
    exec::run_on_mpi(schedule, *machine, options, world);
    std::puts("the run finished: the failure was not raised");
    return 0;
}

// numacoll baseline: the MPI library's own collectives, one rank per process
// (mpirun -np P numacoll baseline ...), timed and verified like numacoll's
// engines and written in the same CSV (engine mpi-native), so that a
// schedule's measurement has the library it would replace next to it.
#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/common.hpp"
#include "cli/mpi_agreement.hpp"
#include "cli/mpi_failures.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "exec/mpi_native.hpp"
#include "exec/ompi_tuned.hpp"
#include "results/result_row.hpp"

namespace numacoll::cli {

namespace {

struct BaselineOptions {
    std::string collective = "allreduce";
    std::string bytes = "8B:1MiB";
    int root = 0;
    std::string op = "sum";
    std::string datatype = "double";
    std::string ompi_algorithm;
    std::string ompi_segment;
    int iterations = exec::iterations_by_size;
    int warmup = exec::iterations_by_size_warmup;
    bool no_pin = false;
    std::string output = "-";
    bool quiet = false;
};

// Open MPI reads its MCA parameters from the environment at MPI_Init.
void force_ompi_algorithm(const BaselineOptions& options, sched::Collective collective) {
    if (options.ompi_algorithm.empty()) {
        if (!options.ompi_segment.empty()) throw UsageError("--ompi-segment needs --ompi-algorithm");
        return;
    }
    const exec::OmpiTunedAlgorithm& algorithm = exec::find_ompi_tuned_algorithm(collective, options.ompi_algorithm);
    ::setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 1);
    ::setenv(("OMPI_MCA_" + exec::ompi_algorithm_parameter(collective)).c_str(), algorithm.mca_value.c_str(), 1);
    if (!options.ompi_segment.empty()) {
        const std::uint64_t segment = parse_byte_size(options.ompi_segment, "--ompi-segment");
        ::setenv(("OMPI_MCA_" + exec::ompi_segment_parameter(collective)).c_str(), std::to_string(segment).c_str(), 1);
    }
}

int run_baseline(const BaselineOptions& options, const CLI::App& command) {
    // Everything that can be checked before MPI starts is, on every process alike.
    sched::CollectiveSpec base;
    base.collective = sched::parse_collective(options.collective);
    base.op = sched::parse_reduce_op(options.op);
    base.datatype = sched::parse_datatype(options.datatype);
    base.root = options.root;
    base.algorithm = options.ompi_algorithm.empty() ? "default" : options.ompi_algorithm;
    const std::vector<std::uint64_t> sizes = parse_byte_sizes(options.bytes, "--bytes");
    force_ompi_algorithm(options, base.collective);
    if (!options.ompi_algorithm.empty()) base.options["ompi_algorithm"] = options.ompi_algorithm;
    if (!options.ompi_segment.empty()) base.options["ompi_segment"] = options.ompi_segment;
    for (std::uint64_t bytes : sizes) {  // all but the root's range (it needs the world's size)
        sched::CollectiveSpec spec = base;
        spec.bytes = bytes;
        exec::check_native_spec(spec, 0);
    }

    // The process has one thread, which calls MPI (the harness runs the timed
    // calls on it): Open MPI 4.1 makes an 8-byte MPI_Allreduce about 80 ns
    // slower when initialised with any thread level above MPI_THREAD_SINGLE.
    const StartedMpi started = start_mpi(command, MPI_THREAD_SINGLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    std::unique_ptr<results::ResultWriter> output;
    std::shared_ptr<const topo::Machine> machine;
    if (const int code = agree_on(
            world,
            [&] {
                if (!options.ompi_algorithm.empty() && world.library().find("Open MPI") == std::string::npos)
                    throw UsageError(fmt::format("--ompi-algorithm forces Open MPI's coll/tuned; this MPI is {}",
                                                 world.library()));
                for (std::uint64_t bytes : sizes) {  // every point's shape, before the first is timed
                    sched::CollectiveSpec spec = base;
                    spec.bytes = bytes;
                    exec::check_native_spec(spec, world.size());
                }
                if (world.rank() == 0) output = std::make_unique<results::ResultWriter>(options.output);
                machine = std::make_shared<const topo::Machine>(topo::load_machine("live"));
            },
            "rank"))
        return code;
    exec::ExecOptions exec_options;
    exec_options.timed_iterations = options.iterations;
    exec_options.warmup_iterations = options.warmup;
    exec_options.pin_threads = !options.no_pin;
    results::Provenance provenance = results::current_provenance();
    provenance.mpi = world.describe();
    int done = 0;
    return run_agreed(
        world,
        [&] {
            for (std::uint64_t bytes : sizes) {
                sched::CollectiveSpec spec = base;
                spec.bytes = bytes;
                const exec::MpiExecResult result = exec::run_native_collective(spec, *machine, exec_options, world);
                const bool pinned_everywhere = world.true_everywhere(result.threads_pinned);
                const bool bound_everywhere = world.true_everywhere(result.memory_bound);
                ++done;
                on_writer(world, [&] {
                    results::ResultRow row = results::measured_row(exec::native_schedule(spec, world.size()),
                                                                   result.stats, pinned_everywhere, bound_everywhere);
                    row.engine = "mpi-native";
                    row.topology = machine->source;
                    row.provenance = provenance;
                    output->write(row);
                    if (!options.quiet)
                        std::cerr << fmt::format("[{}/{}] MPI_{} ({}) {} on {} processes: median {:.0f} ns (p10 "
                                                 "{:.0f}, p90 {:.0f}), verified\n",
                                                 done, sizes.size(), sched::to_string(spec.collective), spec.algorithm,
                                                 format_bytes(bytes), world.size(), result.stats.median_ns,
                                                 result.stats.p10_ns, result.stats.p90_ns);
                });
            }
            on_writer(world, [&] { output->finish(); });
        },
        "rank");
}

}  // namespace

CommandRun add_baseline_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "baseline", "time the MPI library's own collective, one rank per process (start it with mpirun -np P)");
    auto options = std::make_shared<BaselineOptions>();
    command->add_option("--collective,-c", options->collective,
                        "allreduce, reduce, bcast, barrier, scatter, gather, allgather, reduce_scatter or alltoall")
        ->capture_default_str();
    command->add_option("--bytes,-b", options->bytes, "sizes per rank: 8B:1MiB (doubling), a comma list, or both")
        ->capture_default_str();
    command->add_option("--root", options->root, "root rank of rooted collectives")->capture_default_str();
    command->add_option("--op", options->op, op_help)->capture_default_str();
    command->add_option("--datatype", options->datatype, datatype_help)->capture_default_str();
    command->add_option("--ompi-algorithm", options->ompi_algorithm,
                        "force one of Open MPI's coll/tuned algorithms, by numacoll's name (binomial, chain, "
                        "split-binary, ring, recursive-doubling, ...)");
    command->add_option("--ompi-segment", options->ompi_segment, "segment size of the forced algorithm (e.g. 64KiB)");
    add_iteration_options(*command, options->iterations, &options->warmup);
    command->add_flag("--no-pin", options->no_pin, "do not pin the processes to PUs");
    command->add_option("--output,-o", options->output, "result CSV, - for standard output")->capture_default_str();
    command->add_flag("--quiet,-q", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  mpirun -np 2 numacoll baseline -c allreduce -b 8B:1MiB -o native.csv\n"
        "  mpirun -np 4 numacoll baseline -c bcast --ompi-algorithm binomial -b 64KiB");
    return [options, command] { return run_baseline(*options, *command); };
}

}  // namespace numacoll::cli

// The interposition library against the MPI library it sits in front of,
// in one OSU-style MPI program: run with libnumacoll_mpi_*.so preloaded,
// MPI_Allreduce (and MPI_Bcast, MPI_Reduce, MPI_Barrier) is numacoll's and
// PMPI_Allreduce the MPI library's own, so the two are timed in the same
// processes, on the same buffers, interleaved block by block (which goes
// first alternates), size by size and round by round.
//
// A block is `iterations` calls, each after an MPI barrier (as OSU's
// collective benchmarks time them: a call's latency, not how many calls a
// root can pipeline back to back); its time per call is the slowest
// process's mean. Per (collective, size, side):
// the median over rounds, and the spread (lowest and highest round).
// Printed: numacoll / native time, so below 1 is numacoll faster.
//
// Usage: mpirun -np N -x LD_PRELOAD=libnumacoll_mpi_openmpi.so
//            numacoll_bench_interposed [ROUNDS=5] [ITERATIONS=200] [COLLECTIVES=allreduce,bcast,reduce,barrier] [SIZES=8,64,...]
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

enum class Side { numacoll, native };

double block_ns(const std::string& collective, Side side, std::vector<double>& in, std::vector<double>& out,
                int count, int iterations) {
    double total = 0;
    for (int k = 0; k < iterations; ++k) {
        PMPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        if (collective == "allreduce") {
            if (side == Side::numacoll)
                MPI_Allreduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else
                PMPI_Allreduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else if (collective == "reduce") {
            if (side == Side::numacoll)
                MPI_Reduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
            else
                PMPI_Reduce(in.data(), out.data(), count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
        } else if (collective == "bcast") {
            if (side == Side::numacoll)
                MPI_Bcast(in.data(), count * 8, MPI_BYTE, 0, MPI_COMM_WORLD);
            else
                PMPI_Bcast(in.data(), count * 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        } else {
            if (side == Side::numacoll)
                MPI_Barrier(MPI_COMM_WORLD);
            else
                PMPI_Barrier(MPI_COMM_WORLD);
        }
        total += MPI_Wtime() - start;
    }
    double mine = total * 1e9 / iterations, slowest = 0;
    PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
    const int iterations = argc > 2 ? std::max(1, std::atoi(argv[2])) : 200;
    const std::string wanted = argc > 3 ? argv[3] : "allreduce,bcast,reduce,barrier";
    std::vector<std::string> collectives;
    for (const char* name : {"allreduce", "bcast", "reduce", "barrier"})
        if (("," + wanted + ",").find(std::string(",") + name + ",") != std::string::npos) collectives.push_back(name);
    std::vector<long> sizes = {8, 64, 1024, 16384, 65536, 262144, 1048576, 4194304};
    if (argc > 4) {  // a comma-separated list of sizes in bytes, multiples of 8
        sizes.clear();
        for (std::string list = std::string(argv[4]) + ","; !list.empty(); list.erase(0, list.find(',') + 1))
            if (const long bytes = std::atol(list.c_str()); bytes > 0) sizes.push_back((bytes + 7) / 8 * 8);
    }
    if (rank == 0)
        std::printf("%d processes, %d rounds of %d calls per block (ns per call, slowest process)\n"
                    "%-10s %9s %12s %12s %8s   %s\n",
                    size, rounds, iterations, "collective", "bytes", "numacoll", "native", "ratio",
                    "spread numacoll | native");
    for (const std::string& collective : collectives) {
        for (long bytes : sizes) {
            if (collective == "barrier" && bytes != sizes.front()) break;
            const int count = static_cast<int>(bytes / 8);
            std::vector<double> in(static_cast<std::size_t>(count), 1.0), out(in.size(), 0.0);
            // Fewer calls per block for large sizes: the same time per block, roughly.
            const int calls = std::max(5, static_cast<int>(iterations * 1024 / std::max(1024L, bytes / 16)));
            block_ns(collective, Side::numacoll, in, out, count, 10);  // makes the schedule and segment
            block_ns(collective, Side::native, in, out, count, 10);
            std::vector<double> ours, theirs;
            for (int round = 0; round < rounds; ++round) {
                if (round % 2 == 0) {
                    ours.push_back(block_ns(collective, Side::numacoll, in, out, count, calls));
                    theirs.push_back(block_ns(collective, Side::native, in, out, count, calls));
                } else {
                    theirs.push_back(block_ns(collective, Side::native, in, out, count, calls));
                    ours.push_back(block_ns(collective, Side::numacoll, in, out, count, calls));
                }
            }
            if (rank == 0) {
                const double a = median(ours), b = median(theirs);
                std::printf("%-10s %9ld %12.0f %12.0f %8.2f   %.0f-%.0f | %.0f-%.0f\n", collective.c_str(),
                            collective == "barrier" ? 0L : bytes, a, b, a / b, *std::min_element(ours.begin(), ours.end()),
                            *std::max_element(ours.begin(), ours.end()), *std::min_element(theirs.begin(), theirs.end()),
                            *std::max_element(theirs.begin(), theirs.end()));
                std::fflush(stdout);
            }
        }
    }
    MPI_Finalize();
    return 0;
}

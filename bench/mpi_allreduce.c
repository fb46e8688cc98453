/* The Open MPI baseline for bench/allreduce_vs_openmpi.sh: MPI_Allreduce
 * (MPI_SUM of doubles) timed like `numacoll run`: each rank rewrites its
 * input before every iteration, a barrier outside the timed region, each
 * iteration timed separately, its time the maximum across ranks. The
 * maxima are taken once, after the last iteration: a reduction after every
 * iteration (as this driver once did) is another collective between two
 * barriers, and it made an 8-byte MPI_Allreduce 50-70 ns slower here.
 * Prints one CSV line: bytes,median_ns,p10_ns,p90_ns,min_ns,max_ns,iterations
 * Usage: mpirun -np 2 mpi_allreduce BYTES ITERATIONS WARMUP */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "latency_summary.h"

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc != 4) {
        if (rank == 0) fprintf(stderr, "usage: mpi_allreduce BYTES ITERATIONS WARMUP\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const long bytes = atol(argv[1]);
    const int iterations = atoi(argv[2]), warmup = atoi(argv[3]);
    const long count = bytes / (long)sizeof(double);
    double* input = malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
    double* output = malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
    double* times = malloc((size_t)iterations * sizeof(double));
    for (int it = 0; it < warmup + iterations; ++it) {
        for (long i = 0; i < count; ++i) input[i] = (double)((rank * 7 + i * 3 + it) % 16) * 0.25;
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        MPI_Allreduce(input, output, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        double elapsed = (MPI_Wtime() - start) * 1e9;
        if (it >= warmup) times[it - warmup] = elapsed;
    }
    MPI_Allreduce(MPI_IN_PLACE, times, iterations, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0) {
        print_latency_summary(bytes, times, iterations);
    }
    free(input);
    free(output);
    free(times);
    MPI_Finalize();
    return 0;
}

/* The SMPI side of bench/sim_scale.sh: one MPI_Allreduce (MPI_SUM of
 * doubles) of BYTES per rank, as SimGrid's SMPI simulates it; the script
 * times the whole smpirun. Usage: smpirun ... smpi_allreduce BYTES */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    MPI_Init(&argc, &argv);
    if (argc != 2) {
        fprintf(stderr, "usage: smpi_allreduce BYTES\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    const long count = atol(argv[1]) / (long)sizeof(double);
    double* input = calloc((size_t)(count > 0 ? count : 1), sizeof(double));
    double* output = calloc((size_t)(count > 0 ? count : 1), sizeof(double));
    MPI_Allreduce(input, output, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    free(input);
    free(output);
    MPI_Finalize();
    return 0;
}

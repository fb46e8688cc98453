/* The summary line both C baselines print, computed as `numacoll run` does:
 * median, nearest-rank p10 and p90, min and max of per-iteration times.
 * Prints: bytes,median_ns,p10_ns,p90_ns,min_ns,max_ns,iterations */
#pragma once
#include <stdio.h>
#include <stdlib.h>

static int compare_doubles(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static double nearest_rank(const double* sorted, int count, double fraction) {
    int rank = (int)(fraction * count + 0.999999);
    if (rank < 1) rank = 1;
    if (rank > count) rank = count;
    return sorted[rank - 1];
}

/* Sorts `times_ns` in place. */
static void print_latency_summary(long bytes, double* times_ns, int count) {
    qsort(times_ns, (size_t)count, sizeof(double), compare_doubles);
    const double median = count % 2 ? times_ns[count / 2] : (times_ns[count / 2 - 1] + times_ns[count / 2]) / 2;
    printf("%ld,%.1f,%.1f,%.1f,%.1f,%.1f,%d\n", bytes, median, nearest_rank(times_ns, count, 0.1),
           nearest_rank(times_ns, count, 0.9), times_ns[0], times_ns[count - 1], count);
}

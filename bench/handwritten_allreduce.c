/* A hand-written 2-thread allreduce, inputs rewritten before each call:
 * each pinned thread sums both inputs
 * into its own output. No tree and one flag per thread: the floor a
 * thread-based allreduce on two cores is measured against, run interleaved
 * with `numacoll run` by bench/allreduce_vs_openmpi.sh because the machine's
 * speed drifts over minutes.
 *
 * Timed like `numacoll run`: each thread rewrites its input, a barrier
 * outside the timed region, each iteration timed separately, its time the
 * maximum across threads. Inside the timed region each thread announces its
 * input with a flag and waits for the other's, as a collective that cannot
 * count on a barrier before it must. The last iteration's outputs are checked.
 * Prints one CSV line: bytes,median_ns,p10_ns,p90_ns,min_ns,max_ns,iterations
 * Usage: handwritten_allreduce BYTES ITERATIONS WARMUP */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "latency_summary.h"

enum { thread_count = 2 };

struct shared_state {
    long count;
    int iterations, warmup;
    double* inputs[thread_count];
    double* outputs[thread_count];
    double* elapsed_ns[thread_count];  // per thread, per iteration
    _Atomic unsigned long arrived;     // sense-free barrier: a counter of arrivals
};

// "My input of iteration n is ready": one cache line per thread.
struct ready_flag {
    _Alignas(64) _Atomic int iteration;
};
static struct ready_flag ready[thread_count];

static struct shared_state state;

static void barrier(unsigned long* generation) {
    *generation += thread_count;
    atomic_fetch_add_explicit(&state.arrived, 1, memory_order_acq_rel);
    while (atomic_load_explicit(&state.arrived, memory_order_acquire) < *generation) {
    }
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double input_value(int thread, long i, int iteration) {
    return (double)((thread * 7 + i * 3 + iteration) % 16) * 0.25;
}

static void* run_thread(void* argument) {
    const int me = (int)(long)argument;
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(me, &cpus);
    if (pthread_setaffinity_np(pthread_self(), sizeof cpus, &cpus) != 0) {
        fprintf(stderr, "handwritten_allreduce: cannot pin thread %d to core %d\n", me, me);
        exit(1);
    }
    const long count = state.count;
    // First touch by the owner: its pages live on its NUMA node.
    double* input = malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
    double* output = malloc((size_t)(count > 0 ? count : 1) * sizeof(double));
    for (long i = 0; i < count; ++i) output[i] = 0;
    state.inputs[me] = input;
    state.outputs[me] = output;
    unsigned long generation = 0;
    barrier(&generation);
    const double* a = state.inputs[0];
    const double* b = state.inputs[1];
    for (int it = 0; it < state.warmup + state.iterations; ++it) {
        for (long i = 0; i < count; ++i) input[i] = input_value(me, i, it);
        barrier(&generation);
        const double start = now_ns();
        atomic_store_explicit(&ready[me].iteration, it + 1, memory_order_release);
        while (atomic_load_explicit(&ready[1 - me].iteration, memory_order_acquire) < it + 1) {
        }
        for (long i = 0; i < count; ++i) output[i] = a[i] + b[i];
        const double end = now_ns();
        if (it >= state.warmup) state.elapsed_ns[me][it - state.warmup] = end - start;
        barrier(&generation);  // nobody rewrites an input the other still reads
    }
    return NULL;
}

// A whole non-negative number, or -1.
static long whole_number(const char* text) {
    char* end = NULL;
    const long value = strtol(text, &end, 10);
    return (end == text || *end != '\0' || value < 0) ? -1 : value;
}

int main(int argc, char** argv) {
    const long bytes = argc == 4 ? whole_number(argv[1]) : -1;
    const long iterations = argc == 4 ? whole_number(argv[2]) : -1;
    const long warmup = argc == 4 ? whole_number(argv[3]) : -1;
    if (bytes < 0 || iterations < 1 || warmup < 0) {
        fprintf(stderr, "usage: handwritten_allreduce BYTES ITERATIONS WARMUP\n");
        return 2;
    }
    state.count = bytes / (long)sizeof(double);
    state.iterations = (int)iterations;
    state.warmup = (int)warmup;
    for (int t = 0; t < thread_count; ++t) state.elapsed_ns[t] = malloc((size_t)state.iterations * sizeof(double));
    pthread_t threads[thread_count];
    for (long t = 0; t < thread_count; ++t) pthread_create(&threads[t], NULL, run_thread, (void*)t);
    for (int t = 0; t < thread_count; ++t) pthread_join(threads[t], NULL);

    const int last = state.warmup + state.iterations - 1;
    for (int t = 0; t < thread_count; ++t)
        for (long i = 0; i < state.count; ++i)
            if (state.outputs[t][i] != input_value(0, i, last) + input_value(1, i, last)) {
                fprintf(stderr, "handwritten_allreduce: wrong result: thread %d element %ld\n", t, i);
                return 1;
            }
    double* times = malloc((size_t)state.iterations * sizeof(double));
    for (int it = 0; it < state.iterations; ++it)
        times[it] = state.elapsed_ns[0][it] > state.elapsed_ns[1][it] ? state.elapsed_ns[0][it] : state.elapsed_ns[1][it];
    print_latency_summary(bytes, times, state.iterations);
    return 0;
}

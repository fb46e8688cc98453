// The fork gate: a lock that numacoll's own threads hold while they work
// beside a thread that may fork(), so that the child never starts with a
// lock of theirs taken.
//
// A child of a threaded process starts with one thread and a copy of every
// lock as it stood at fork(); a lock another thread held then stays held in
// the child forever. glibc's malloc takes its arenas' locks across fork(),
// but other allocators do not: GCC 12's AddressSanitizer (libasan.so.8 has
// no fork handler) can leave the simulation's child of a spread sweep's
// process 0 waiting forever on an allocator lock its server thread held,
// and its parent with it (such a sweep once ran into ctest's time limit
// under the sanitizers).
//
// Invariants: a thread that works beside a forking one holds the gate
// whenever it runs numacoll's code or MPI's, and lets it go only while it
// sleeps; fork() is called with the gate held (fork_holding_gate), and the
// child never takes it. Threads of libraries (MPI's progress threads) are
// outside the gate: they sleep in the kernel nearly all the time.
#pragma once

#include <mutex>

#include <sys/types.h>

namespace numacoll {

std::mutex& fork_gate();

// fork(), once no thread holding the gate is between two of its sleeps.
pid_t fork_holding_gate();

}  // namespace numacoll

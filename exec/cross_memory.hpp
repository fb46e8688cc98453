// Reading another process's memory through the kernel: Linux's cross-memory
// attach (process_vm_readv), one copy from the owner's pages into the
// caller's. The process form's single copy (exec/process_transport.hpp), its
// check before a run (exec/process_executor.hpp) and calibrate's measurement
// of it (calibrate/microbenchmarks.hpp) all go through here, so that what
// is measured is what runs.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace numacoll::exec {

// Copies `bytes` from `address` in process `process` to `into`, in as many
// calls as the kernel needs (it may stop short). False, with errno set, when
// the kernel refuses or moves nothing.
bool read_process_memory(pid_t process, std::uintptr_t address, std::byte* into, std::uint64_t bytes);

// Whether this system lets a process read memory that way (tried on the
// caller's own).
bool process_memory_readable();

}  // namespace numacoll::exec

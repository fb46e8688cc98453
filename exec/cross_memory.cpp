#include "exec/cross_memory.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

namespace numacoll::exec {

bool read_process_memory(pid_t process, std::uintptr_t address, std::byte* into, std::uint64_t bytes) {
    std::uint64_t done = 0;
    while (done < bytes) {
        iovec local{into + done, bytes - done};
        iovec remote{reinterpret_cast<void*>(address + done), bytes - done};
        const ssize_t moved = process_vm_readv(process, &local, 1, &remote, 1, 0);
        if (moved <= 0) {
            if (moved == 0) errno = EFAULT;  // nothing moved: the range is not the owner's
            return false;
        }
        done += static_cast<std::uint64_t>(moved);
    }
    return true;
}

bool process_memory_readable() {
    const std::byte from{1};
    std::byte to{};
    return read_process_memory(getpid(), reinterpret_cast<std::uintptr_t>(&from), &to, 1);
}

}  // namespace numacoll::exec

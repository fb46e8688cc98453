#include "common/fork_gate.hpp"

#include <unistd.h>

namespace numacoll {

std::mutex& fork_gate() {
    static std::mutex gate;
    return gate;
}

pid_t fork_holding_gate() {
    const std::lock_guard held(fork_gate());
    return ::fork();  // the child's copy of the gate is let go with `held`, as the parent's
}

}  // namespace numacoll

// The fork gate: fork() waits while another thread holds it, and goes on
// once it is let go; the child starts and ends normally.
#include "common/fork_gate.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

using namespace numacoll;

TEST(ForkGate, ForkWaitsWhileAnotherThreadHoldsTheGate) {
    std::unique_lock held(fork_gate());
    std::atomic<pid_t> child{0};
    std::thread forking([&] {
        const pid_t pid = fork_holding_gate();
        if (pid == 0) ::_exit(7);
        child = pid;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(child.load(), 0) << "fork() went ahead while the gate was held";
    held.unlock();
    forking.join();
    ASSERT_GT(child.load(), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child.load(), &status, 0), child.load());
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 7);
    // Let go by the fork as well: another thread takes it at once.
    EXPECT_TRUE(fork_gate().try_lock());
    fork_gate().unlock();
}

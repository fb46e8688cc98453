// How topologies/load.cpp drives hwloc: a topology read from a description
// (bundled or XML file, synthetic) leaves hwloc's discovery plugins closed
// while the process has one thread, discovering this machine opens them,
// and the environment is left as it was. Each load runs in a forked process
// with HWLOC_PLUGINS_VERBOSE set, so that hwloc says on stderr which plugins
// it opened; skipped where hwloc has no plugins installed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <string>
#include <thread>

#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

// What `action` writes on stderr, run in a child process with hwloc's plugin log on.
std::string plugin_log_of(const std::function<void()>& action) {
    int fds[2];
    if (::pipe(fds) != 0) return "pipe failed";
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(fds[1], 2);
        ::close(fds[0]);
        ::close(fds[1]);
        ::setenv("HWLOC_PLUGINS_VERBOSE", "1", 1);
        try {
            action();
        } catch (const std::exception& error) {
            std::fprintf(stderr, "failed: %s\n", error.what());
        }
        std::fflush(stderr);
        std::_Exit(0);
    }
    ::close(fds[1]);
    std::string log;
    char buffer[4096];
    for (ssize_t got; (got = ::read(fds[0], buffer, sizeof buffer)) > 0;) log.append(buffer, static_cast<std::size_t>(got));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    return log;
}

bool opened(const std::string& log, const std::string& plugin) {
    return log.find("`" + plugin + "' ready") != std::string::npos;
}

bool left_closed(const std::string& log, const std::string& plugin) {
    return log.find("`" + plugin + "' is blacklisted") != std::string::npos;
}

// Prints the variable as the process sees it after the load.
void print_blacklist() {
    const char* value = std::getenv("HWLOC_PLUGINS_BLACKLIST");
    std::fprintf(stderr, "after: [%s]\n", value ? value : "unset");
}

class TopoLoad : public ::testing::Test {
protected:
    void SetUp() override {
        ::unsetenv("HWLOC_PLUGINS_BLACKLIST");
        live_log_ = plugin_log_of([] { load_live(); });
        if (!opened(live_log_, "hwloc_pci")) GTEST_SKIP() << "hwloc has no PCI plugin here:\n" << live_log_;
    }
    std::string live_log_;
};

TEST_F(TopoLoad, DiscoveringThisMachineOpensHwlocsPlugins) {
    EXPECT_FALSE(left_closed(live_log_, "hwloc_pci")) << live_log_;
}

TEST_F(TopoLoad, ADescriptionIsReadWithoutDiscoveryPluginsAndTheEnvironmentIsKept) {
    for (const std::string spec : {"synthetic:Package:2 Core:8", "westmere"}) {
        const std::string log = plugin_log_of([&] {
            load_machine(spec);
            print_blacklist();
        });
        EXPECT_TRUE(left_closed(log, "hwloc_pci")) << spec << ":\n" << log;
        EXPECT_FALSE(opened(log, "hwloc_pci")) << spec << ":\n" << log;
        EXPECT_FALSE(opened(log, "hwloc_gl")) << spec << ":\n" << log;
        EXPECT_NE(log.find("after: [unset]"), std::string::npos) << spec << ":\n" << log;
        EXPECT_EQ(log.find("failed"), std::string::npos) << spec << ":\n" << log;
    }
}

TEST_F(TopoLoad, BesideAnotherThreadTheEnvironmentIsLeftAlone) {
    // setenv is not safe while another thread may read the environment.
    const std::string log = plugin_log_of([] {
        std::promise<void> loaded;
        std::thread waiting([future = loaded.get_future()]() mutable { future.wait(); });
        load_machine("synthetic:Package:2 Core:8");
        print_blacklist();
        loaded.set_value();
        waiting.join();
    });
    EXPECT_TRUE(opened(log, "hwloc_pci")) << log;
    EXPECT_NE(log.find("after: [unset]"), std::string::npos) << log;
}

TEST_F(TopoLoad, AUsersOwnBlacklistIsTheOneHwlocReads) {
    const std::string log = plugin_log_of([] {
        ::setenv("HWLOC_PLUGINS_BLACKLIST", "hwloc_gl", 1);
        load_machine("synthetic:Package:2 Core:8");
        print_blacklist();
    });
    EXPECT_TRUE(opened(log, "hwloc_pci")) << log;
    EXPECT_NE(log.find("after: [hwloc_gl]"), std::string::npos) << log;
}

}  // namespace
}  // namespace numacoll::topo

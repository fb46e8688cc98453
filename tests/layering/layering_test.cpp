// The engines know no generator, and the build says so:
// - linking the engines and the validation pulls no object file of the
//   generators' library (the link map of numacoll_engine_link_probe);
// - the include check that every build runs refuses an engine that
//   includes the registry, or a model that includes a generator.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include "../support/files.hpp"

namespace fs = std::filesystem;

namespace {

using numacoll::test_support::slurp;

// Runs the include check on `tree`; returns its exit status and output.
std::pair<int, std::string> check_tree(const fs::path& tree) {
    const std::string command = std::string(NUMACOLL_CMAKE) + " -DSOURCE_DIR=" + tree.string() + " -P " +
                                NUMACOLL_LAYERING_SCRIPT + " 2>&1";
    std::string output;
    FILE* pipe = ::popen(command.c_str(), "r");
    char buffer[512];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) output.append(buffer, n);
    const int status = ::pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

void write(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
}

}  // namespace

TEST(Layering, LinkingTheEnginesPullsNoGenerator) {
    const std::string map = slurp(NUMACOLL_ENGINES_MAP);
    ASSERT_FALSE(map.empty()) << "no link map at " << NUMACOLL_ENGINES_MAP;
    // The map names the archive members it pulled (a source's object, or a
    // batch's in a unity build): the engines are there...
    EXPECT_NE(map.find("libnumacoll_sim.a("), std::string::npos);
    EXPECT_NE(map.find("libnumacoll_exec_core.a("), std::string::npos);
    EXPECT_NE(map.find("libnumacoll_schedule.a("), std::string::npos);
    // ...and nothing of the generators' library is.
    EXPECT_EQ(map.find("libnumacoll_algorithms.a"), std::string::npos);
}

TEST(Layering, TheIncludeCheckPassesThisTreeAndRefusesACrossing) {
    const auto [status, output] = check_tree(NUMACOLL_SOURCE_DIR);
    EXPECT_EQ(status, 0) << output;

    const fs::path bad = fs::temp_directory_path() / ("numacoll-layering-" + std::to_string(::getpid()));
    fs::remove_all(bad);
    write(bad / "sim/engine.cpp", "#include \"schedule/schedule.hpp\"\n#include \"algorithms/registry.hpp\"\n");
    write(bad / "models/shape.cpp", "#include \"algorithms/layout.hpp\"\n#include \"algorithms/patterns/strips.hpp\"\n");
    const auto [refused, why] = check_tree(bad);
    EXPECT_NE(refused, 0);
    EXPECT_NE(why.find("sim/engine.cpp includes algorithms/registry.hpp"), std::string::npos) << why;
    EXPECT_NE(why.find("models/shape.cpp includes algorithms/patterns/strips.hpp"), std::string::npos) << why;
    EXPECT_EQ(why.find("algorithms/layout.hpp"), std::string::npos) << "a model may read a layout: " << why;
    fs::remove_all(bad);
}

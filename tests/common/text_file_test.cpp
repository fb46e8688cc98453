// Reading inputs: a file over its cap is refused by its size; a device or a
// pipe that never ends is refused once the cap is read, not read until
// memory runs out; NUMACOLL_MAX_INPUT_BYTES moves every cap.
#include "common/text_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "common/error.hpp"

using namespace numacoll;

namespace {

std::filesystem::path scratch_file(const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("numacoll-text-file-" + std::to_string(::getpid()));
    std::ofstream(path) << text;
    return path;
}

}  // namespace

TEST(TextFile, ReadsAFileWithinItsCap) {
    const auto path = scratch_file(std::string(100, 'x'));
    EXPECT_EQ(read_text_file(path.string(), "schedule", 100).size(), 100u);
    std::filesystem::remove(path);
}

TEST(TextFile, RefusesAFileOverItsCapByItsSize) {
    const auto path = scratch_file(std::string(101, 'x'));
    try {
        read_text_file(path.string(), "schedule", 100);
        ADD_FAILURE() << "an oversized file was read";
    } catch (const InputError& error) {
        const std::string what = error.what();
        EXPECT_NE(what.find("schedule '" + path.string() + "' holds more than 100B"), std::string::npos) << what;
        EXPECT_NE(what.find("NUMACOLL_MAX_INPUT_BYTES"), std::string::npos) << what;
    }
    std::filesystem::remove(path);
}

TEST(TextFile, StopsReadingADeviceThatNeverEndsAtTheCap) {
    if (!std::filesystem::exists("/dev/zero")) GTEST_SKIP() << "no /dev/zero here";
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(read_text_file("/dev/zero", "topology file", topology_file_cap_bytes), InputError);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));  // 64 MiB, not gigabytes
}

TEST(TextFile, TheEnvironmentMovesEveryCap) {
    const auto path = scratch_file(std::string(2000, 'x'));
    ::setenv("NUMACOLL_MAX_INPUT_BYTES", "1KiB", 1);
    EXPECT_THROW(read_text_file(path.string(), "params", params_file_cap_bytes), InputError);
    ::setenv("NUMACOLL_MAX_INPUT_BYTES", "4KiB", 1);
    EXPECT_EQ(read_text_file(path.string(), "params", 100).size(), 2000u);
    ::setenv("NUMACOLL_MAX_INPUT_BYTES", "lots", 1);
    EXPECT_THROW(read_text_file(path.string(), "params", 100), UsageError);
    ::unsetenv("NUMACOLL_MAX_INPUT_BYTES");
    std::filesystem::remove(path);
}

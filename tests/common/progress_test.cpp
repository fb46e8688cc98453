// ProgressReport: silent at first, then one line now and then, and a last
// line with the total once it has spoken.
#include "common/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>

using namespace numacoll;

namespace {

std::string contents(std::FILE* file) {
    std::fflush(file);
    std::rewind(file);
    std::string text;
    for (int c; (c = std::fgetc(file)) != EOF;) text.push_back(static_cast<char>(c));
    return text;
}

}  // namespace

TEST(ProgressReport, SaysHowFarHowFastAndTheTotal) {
    std::FILE* out = std::tmpfile();
    ASSERT_NE(out, nullptr);
    {
        ProgressReport report("simulating", "tasks", 10000, {std::chrono::milliseconds(0), std::chrono::milliseconds(0), out});
        for (std::size_t done = 1; done <= 8192; ++done) report.advance(done);
    }
    const std::string text = contents(out);
    EXPECT_NE(text.find("simulating: 4096 tasks of 10000 (41%), "), std::string::npos) << text;
    EXPECT_NE(text.find("tasks/s, about "), std::string::npos) << text;
    EXPECT_NE(text.find("simulating: 8192 tasks in "), std::string::npos) << text;
    std::fclose(out);
}

// Half the units done but a hundredth of the work: the end is reckoned from
// the work, not from the count.
TEST(ProgressReport, UnitsOfUnequalCostReckonTheEndFromTheirWork) {
    std::FILE* out = std::tmpfile();
    ASSERT_NE(out, nullptr);
    {
        ProgressReport report("tune", "timings", 100, {std::chrono::milliseconds(0), std::chrono::milliseconds(0), out});
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        report.advance_each(50, 1.0, 100.0);
    }
    const std::string text = contents(out);
    const auto at = text.find("about ");
    ASSERT_NE(at, std::string::npos) << text;
    // 50 ms for 1% of the work: about 5 s left (counting units, 0 s).
    EXPECT_GE(std::stod(text.substr(at + 6)), 4.0) << text;
    EXPECT_NE(text.find("tune: 50 timings of 100 (50%)"), std::string::npos) << text;
    std::fclose(out);
}

TEST(ProgressReport, ShortWorkAndQuietRunsSayNothing) {
    std::FILE* out = std::tmpfile();
    ASSERT_NE(out, nullptr);
    {
        ProgressReport report("generating", "tasks", 0, {std::chrono::hours(1), std::chrono::milliseconds(0), out});
        for (std::size_t done = 1; done <= 10000; ++done) report.advance(done);
    }
    set_progress_reports(false);
    {
        ProgressReport report("generating", "tasks", 0, {std::chrono::milliseconds(0), std::chrono::milliseconds(0), out});
        for (std::size_t done = 1; done <= 10000; ++done) report.advance(done);
    }
    set_progress_reports(true);
    EXPECT_EQ(contents(out), "");
    std::fclose(out);
}

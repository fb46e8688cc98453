// ProgressReport: silent at first, then one line now and then, and a last
// line with the total once it has spoken.
#include "common/progress.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

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

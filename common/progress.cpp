#include "common/progress.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace numacoll {

namespace {

bool& enabled_flag() {
    static bool enabled = [] {
        const char* setting = std::getenv("NUMACOLL_PROGRESS");
        return setting == nullptr || std::strcmp(setting, "0") != 0;
    }();
    return enabled;
}

}  // namespace

void reached_stage(const char* stage) {
    const char* pause_at = std::getenv("NUMACOLL_PAUSE_AT");
    if (pause_at == nullptr || std::strcmp(pause_at, stage) != 0) return;
    std::fprintf(stderr, "numacoll: paused at %s\n", stage);
    std::fflush(stderr);
    std::this_thread::sleep_for(std::chrono::seconds(60));
}

void set_progress_reports(bool enabled) { enabled_flag() = enabled; }
bool progress_reports() { return enabled_flag(); }

ProgressReport::ProgressReport(std::string what, std::string unit, std::size_t expected_total, ProgressTiming timing)
    : what_(std::move(what)), unit_(std::move(unit)), expected_(expected_total), timing_(timing),
      started_(std::chrono::steady_clock::now()), last_print_(started_) {}

ProgressReport::~ProgressReport() {
    if (!printed_) return;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    fmt::print(timing_.out, "{}: {} {} in {:.1f} s\n", what_, done_, unit_, seconds);
    std::fflush(timing_.out);
}

void ProgressReport::maybe_print() {
    if (!progress_reports()) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - started_ < timing_.quiet_start || now - last_print_ < timing_.between_lines) return;
    last_print_ = now;
    printed_ = true;
    const double seconds = std::chrono::duration<double>(now - started_).count();
    const double rate = done_ / seconds;
    std::string line = fmt::format("{}: {} {}", what_, done_, unit_);
    // An estimate can fall short: past it, the count alone.
    if (expected_ > 0 && expected_ >= done_) line += fmt::format(" of {} ({:.0f}%)", expected_, 100.0 * done_ / expected_);
    line += fmt::format(", {:.0f} {}/s", rate, unit_);
    if (work_total_ > 0) {
        if (work_done_ > 0 && work_done_ < work_total_)
            line += fmt::format(", about {:.0f} s left", seconds * (work_total_ - work_done_) / work_done_);
    } else if (expected_ > done_ && rate > 0) {
        line += fmt::format(", about {:.0f} s left", (expected_ - done_) / rate);
    }
    fmt::print(timing_.out, "{}\n", line);
    std::fflush(timing_.out);
}

}  // namespace numacoll

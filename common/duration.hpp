// Durations as people write them: "2500" (ns), "2500ns", "2.5us", "3ms",
// "1s". Used where a command takes an amount of time (computation, the
// interval between progress calls).
#pragma once

#include <string>

namespace numacoll {

// Nanoseconds. Throws UsageError naming `what` for anything that is not a
// duration, for negative values and for more than an hour.
double parse_duration_ns(const std::string& text, const std::string& what = "duration");

// "2.5us", "3ms", "800ns": the largest unit that keeps the value at 1 or more.
std::string format_duration(double ns);

}  // namespace numacoll

#include "common/duration.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "common/error.hpp"

namespace numacoll {

namespace {

constexpr double max_duration_ns = 3600e9;

}  // namespace

double parse_duration_ns(const std::string& text, const std::string& what) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [rest, error] = std::from_chars(text.data(), end, value);
    const std::string unit(rest, end);
    double scale = 0;
    if (unit.empty() || unit == "ns") scale = 1;
    else if (unit == "us") scale = 1e3;
    else if (unit == "ms") scale = 1e6;
    else if (unit == "s") scale = 1e9;
    if (error != std::errc{} || rest == text.data() || scale == 0 || !std::isfinite(value))
        throw UsageError(fmt::format("{} '{}' is not a duration (e.g. 2500, 2500ns, 2.5us, 3ms, 1s)", what, text));
    const double ns = value * scale;
    if (ns < 0 || ns > max_duration_ns)
        throw UsageError(fmt::format("{} '{}' must be from 0 to 1 hour", what, text));
    return ns;
}

std::string format_duration(double ns) {
    if (ns >= 1e9) return fmt::format("{:g}s", ns / 1e9);
    if (ns >= 1e6) return fmt::format("{:g}ms", ns / 1e6);
    if (ns >= 1e3) return fmt::format("{:g}us", ns / 1e3);
    return fmt::format("{:g}ns", ns);
}

}  // namespace numacoll

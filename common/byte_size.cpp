#include "common/byte_size.hpp"

#include <algorithm>

#include <fmt/format.h>

#include <cctype>
#include <limits>

#include "common/error.hpp"

namespace numacoll {

namespace {

std::uint64_t unit_multiplier(std::string unit) {
    for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (unit.empty() || unit == "B") return 1;
    if (unit == "K" || unit == "KB" || unit == "KIB") return 1ull << 10;
    if (unit == "M" || unit == "MB" || unit == "MIB") return 1ull << 20;
    if (unit == "G" || unit == "GB" || unit == "GIB") return 1ull << 30;
    return 0;
}

std::string trim(const std::string& text) {
    auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

}  // namespace

std::uint64_t parse_byte_size(const std::string& raw, const std::string& what) {
    const std::string text = trim(raw);
    if (!text.empty() && text[0] == '-')
        throw UsageError(fmt::format("{} '{}' is negative: sizes are byte counts >= 0", what, raw));
    std::size_t digits = 0;
    while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
    const std::uint64_t multiplier = unit_multiplier(text.substr(digits));
    if (digits == 0 || multiplier == 0)
        throw UsageError(fmt::format("{} '{}' is not a size: expected e.g. 64, 8B, 4KiB, 16MiB", what, raw));
    std::uint64_t value = 0;
    for (std::size_t i = 0; i < digits; ++i) {
        const std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
            throw UsageError(fmt::format("{} '{}' is too large", what, raw));
        value = value * 10 + digit;
    }
    if (value > std::numeric_limits<std::uint64_t>::max() / multiplier)
        throw UsageError(fmt::format("{} '{}' is too large", what, raw));
    return value * multiplier;
}

std::vector<std::uint64_t> parse_byte_sizes(const std::string& text, const std::string& what) {
    std::vector<std::uint64_t> sizes;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        std::string item = trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (item.empty()) throw UsageError(fmt::format("{} '{}' has an empty entry", what, text));
        if (auto colon = item.find(':'); colon != std::string::npos) {
            std::uint64_t first = parse_byte_size(item.substr(0, colon), what);
            std::uint64_t last = parse_byte_size(item.substr(colon + 1), what);
            if (first == 0 || first > last)
                throw UsageError(
                    fmt::format("{} range '{}' must go up from a non-zero size, e.g. 8B:16MiB", what, item));
            for (std::uint64_t size = first; size <= last; size *= 2) {
                sizes.push_back(size);
                if (size > last / 2) break;
            }
        } else {
            sizes.push_back(parse_byte_size(item, what));
        }
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    // A size twice would be measured twice and reported as two points.
    std::vector<std::uint64_t> sorted = sizes;
    std::sort(sorted.begin(), sorted.end());
    if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
        throw UsageError(fmt::format("{} '{}' lists {} more than once", what, text, format_bytes(*twice)));
    return sizes;
}

std::string format_bytes(std::uint64_t bytes) {
    if (bytes >= (1ull << 30) && bytes % (1ull << 30) == 0) return fmt::format("{}GiB", bytes >> 30);
    if (bytes >= (1ull << 20) && bytes % (1ull << 20) == 0) return fmt::format("{}MiB", bytes >> 20);
    if (bytes >= (1ull << 10) && bytes % (1ull << 10) == 0) return fmt::format("{}KiB", bytes >> 10);
    return fmt::format("{}B", bytes);
}

}  // namespace numacoll

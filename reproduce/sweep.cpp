#include "reproduce/sweep.hpp"

#include <fmt/format.h>

#include <cmath>

namespace numacoll::reproduce {

std::vector<std::uint64_t> doubling(std::uint64_t lo, std::uint64_t hi) {
    std::vector<std::uint64_t> sizes;
    for (std::uint64_t size = lo; size <= hi; size *= 2) sizes.push_back(size);
    return sizes;
}

Variant algorithm(const std::string& name) {
    return {name, [name](Setting& setting) { setting.algorithm = name; }};
}

Variant with_option(const std::string& label, const std::string& key, const std::string& value) {
    return {label, [key, value](Setting& setting) { setting.options[key] = value; }};
}

std::string Sweep::best(std::size_t i) const {
    std::string winner;
    for (const auto& label : labels)
        if (winner.empty() || ns.at(label)[i] < ns.at(winner)[i]) winner = label;
    return winner;
}

std::vector<Series> Sweep::series_us() const {
    std::vector<Series> result;
    for (const auto& label : labels) {
        Series series{label, {}, {}};
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            series.x.push_back(static_cast<double>(sizes[i]));
            series.y.push_back(ns.at(label)[i] / 1000);
        }
        result.push_back(series);
    }
    return result;
}

Sweep sweep(Experiment& experiment, const Setting& base, const std::vector<Variant>& variants,
            const std::vector<std::uint64_t>& sizes) {
    Sweep result;
    result.sizes = sizes;
    for (const Variant& variant : variants) {
        result.labels.push_back(variant.label);
        auto& times = result.ns[variant.label];
        for (std::uint64_t bytes : sizes) {
            Setting setting = base;
            setting.bytes = bytes;
            variant.apply(setting);
            times.push_back(experiment.time_ns(setting));
        }
    }
    return result;
}

std::optional<double> crossover_bytes(const Sweep& sweep, const std::string& first, const std::string& later) {
    const auto& a = sweep.ns.at(first);
    const auto& b = sweep.ns.at(later);
    for (std::size_t i = 1; i < sweep.sizes.size(); ++i) {
        if (!(b[i] < a[i])) continue;
        if (b[i - 1] < a[i - 1]) return std::nullopt;  // `later` was ahead from the start
        // log(size) where the log-ratio of the two times crosses zero.
        const double r0 = std::log(b[i - 1] / a[i - 1]), r1 = std::log(b[i] / a[i]);
        const double x0 = std::log(static_cast<double>(sweep.sizes[i - 1]));
        const double x1 = std::log(static_cast<double>(sweep.sizes[i]));
        return std::exp(x0 + (x1 - x0) * r0 / (r0 - r1));
    }
    return std::nullopt;
}

std::string bytes_text(double bytes) {
    if (bytes >= 1024.0 * 1024) return fmt::format("{:.3g} MiB", bytes / (1024.0 * 1024));
    if (bytes >= 1024) return fmt::format("{:.3g} KiB", bytes / 1024);
    return fmt::format("{:.0f} B", bytes);
}

std::string percent(double ratio) { return fmt::format("{:+.0f}%", (ratio - 1) * 100); }

std::string best_count(const Sweep& sweep, const std::string& label, int* count) {
    int wins = 0;
    for (std::size_t i = 0; i < sweep.sizes.size(); ++i) wins += sweep.best(i) == label;
    if (count) *count = wins;
    return fmt::format("{} of {} sizes", wins, sweep.sizes.size());
}

}  // namespace numacoll::reproduce

// Helpers the findings share: size ranges, sweeps of several variants of one
// setting over sizes, and the verdict rules of findings.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reproduce/findings.hpp"

namespace numacoll::reproduce {

// lo, 2 lo, 4 lo, ... up to hi.
std::vector<std::uint64_t> doubling(std::uint64_t lo, std::uint64_t hi);

struct Variant {
    std::string label;
    std::function<void(Setting&)> apply;
};
Variant algorithm(const std::string& name);
Variant with_option(const std::string& label, const std::string& key, const std::string& value);

struct Sweep {
    std::vector<std::uint64_t> sizes;
    std::vector<std::string> labels;
    std::map<std::string, std::vector<double>> ns;  // label -> time per size
    // The label with the smallest time at size index i.
    std::string best(std::size_t i) const;
    // Time series for a figure: x = bytes, y = µs.
    std::vector<Series> series_us() const;
};
Sweep sweep(Experiment& experiment, const Setting& base, const std::vector<Variant>& variants,
            const std::vector<std::uint64_t>& sizes);

// Where `later` first becomes faster than `first`, interpolated geometrically
// between the two sizes around the switch; nullopt if it never does.
std::optional<double> crossover_bytes(const Sweep& sweep, const std::string& first, const std::string& later);

std::string bytes_text(double bytes);  // "16 KiB", "3.2 KiB"
std::string percent(double ratio);     // 1.25 -> "+25%"

// How many sizes `label` is the best at, as "k of n".
std::string best_count(const Sweep& sweep, const std::string& label, int* count = nullptr);

}  // namespace numacoll::reproduce

#include "schedule/options.hpp"

#include <fmt/format.h>

#include "common/byte_size.hpp"
#include "common/error.hpp"

namespace numacoll::sched {

OptionReader::OptionReader(const CollectiveSpec& spec, std::string algorithm, std::vector<OptionInfo> known)
    : spec_(spec), algorithm_(std::move(algorithm)), known_(std::move(known)) {}

std::string OptionReader::text(const std::string& name) const {
    if (auto it = spec_.options.find(name); it != spec_.options.end()) return it->second;
    for (const auto& option : known_)
        if (option.name == name) return option.default_value;
    throw UsageError(fmt::format("algorithm '{}' needs option {}, which is not set", algorithm_, name));
}

int OptionReader::integer(const std::string& name, int min_value) const {
    const std::string value = text(name);
    try {
        std::size_t used = 0;
        int parsed = std::stoi(value, &used);
        if (used == value.size() && parsed >= min_value) return parsed;
    } catch (const std::exception&) {
    }
    throw UsageError(fmt::format("option {} of algorithm '{}' must be an integer >= {} (got '{}')", name, algorithm_,
                                 min_value, value));
}

std::uint64_t OptionReader::bytes(const std::string& name) const {
    return parse_byte_size(text(name), fmt::format("option {} of algorithm '{}'", name, algorithm_));
}

std::string OptionReader::choice(const std::string& name, const std::vector<std::string>& allowed) const {
    const std::string value = text(name);
    std::string list;
    for (const auto& candidate : allowed) {
        if (candidate == value) return value;
        list += (list.empty() ? "" : ", ") + candidate;
    }
    throw UsageError(
        fmt::format("option {} of algorithm '{}' must be one of {} (got '{}')", name, algorithm_, list, value));
}

}  // namespace numacoll::sched

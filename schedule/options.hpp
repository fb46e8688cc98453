// An algorithm's options, as a CollectiveSpec carries them (key=value text):
// what each one is called, its default and what it does (OptionInfo), and
// typed reading with errors that name the option and the algorithm
// (OptionReader). Generators and closed-form models read options through
// the same reader, so they agree on what a value means.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

struct OptionInfo {
    std::string name;
    std::string default_value;
    std::string help;
    // The values the algorithm proofs try beside the default: every value
    // of a choice, a few of a count. The chunk sizes (strip, segment) and
    // the ping-pong's peer are tried by the proofs' own rules instead.
    std::vector<std::string> values{};
};

class OptionReader {
public:
    // `known`: the algorithm's options; their defaults stand in for what
    // the spec leaves out. `algorithm` names it in errors.
    OptionReader(const CollectiveSpec& spec, std::string algorithm, std::vector<OptionInfo> known = {});

    // UsageError when the option is neither in the spec nor known.
    std::string text(const std::string& name) const;
    int integer(const std::string& name, int min_value) const;
    std::uint64_t bytes(const std::string& name) const;
    std::string choice(const std::string& name, const std::vector<std::string>& allowed) const;

private:
    const CollectiveSpec& spec_;
    std::string algorithm_;
    std::vector<OptionInfo> known_;
};

}  // namespace numacoll::sched

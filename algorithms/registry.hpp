// The algorithm registry: (collective, name) -> generator.
//
// One algorithm per file, a folder per collective (algorithms/allreduce/...).
// A generator turns a CollectiveSpec and a Layout into a Schedule and knows
// nothing about the engines that will run it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "algorithms/ir.hpp"

namespace numacoll::algo {

struct OptionInfo {
    std::string name;
    std::string default_value;
    std::string help;
};

struct AlgorithmInfo {
    Collective collective;
    std::string name;
    std::string summary;  // one line: what it does and when to use it
    std::string source;   // paper and section it comes from
    std::vector<OptionInfo> options;
    std::function<Schedule(const CollectiveSpec&, const Layout&)> generate;
};

const std::vector<AlgorithmInfo>& algorithm_registry();

// Throws UsageError naming the algorithms that exist for that collective.
const AlgorithmInfo& find_algorithm(Collective collective, const std::string& name);

// Looks the algorithm up, checks the spec (sizes, root, option names and
// values), fills every option's default into spec.options, generates, and
// records provenance (numacoll version, topology, layout).
Schedule generate_schedule(CollectiveSpec spec, const Layout& layout);

// Reads an algorithm's options with their defaults; UsageError on bad values.
class OptionReader {
public:
    OptionReader(const CollectiveSpec& spec, const AlgorithmInfo& info) : spec_(spec), info_(info) {}
    std::string text(const std::string& name) const;
    int integer(const std::string& name, int min_value) const;
    std::uint64_t bytes(const std::string& name) const;
    std::string choice(const std::string& name, const std::vector<std::string>& allowed) const;

private:
    const CollectiveSpec& spec_;
    const AlgorithmInfo& info_;
};

}  // namespace numacoll::algo

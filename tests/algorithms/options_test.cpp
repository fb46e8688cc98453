// Every option an algorithm declares changes its schedule somewhere: an
// option that an algorithm accepts and ignores would be echoed into result
// files as if it had been applied.
#include <gtest/gtest.h>

#include <optional>
#include <sstream>

#include "common/error.hpp"
#include "schedule/schedule_io.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

// Values other than the defaults to try, per option name. An option missing
// here fails the test: add the values that should make a difference.
const std::map<std::string, std::vector<std::string>>& alternatives() {
    static const std::map<std::string, std::vector<std::string>> values = {
        {"arity", {"2", "3"}},
        {"bcast", {"1stage", "2stage", "nary"}},
        {"strip", {"1KiB", "off"}},
        {"internode", {"recursive-doubling", "ring", "rabenseifner", "binomial"}},
        {"segment", {"0", "16KiB"}},
        {"fanout", {"2", "4"}},
        {"radix", {"2", "3"}},
        {"leader", {"default", "nic", "rank-order"}},
        {"intra", {"linear", "binomial", "chain", "pipeline", "binary"}},
        {"stages", {"1stage", "2stage"}},
        {"peer", {"next", "2", "3"}},
        {"pairing", {"butterfly", "cyclic"}},
        {"requests", {"0", "1", "3"}},
    };
    return values;
}

struct Setting {
    const char* topology;
    int nodes;
    std::uint64_t bytes;
    int root;
};

// The schedule's buffers and tasks as text (not its spec and options, which
// always differ), or "" when the algorithm refuses the setting.
std::string schedule_text(const algo::AlgorithmInfo& info, const Setting& setting,
                          std::map<std::string, std::string> options) {
    algo::LayoutOptions layout;
    layout.nodes = setting.nodes;
    sched::CollectiveSpec spec;
    spec.collective = info.collective;
    spec.algorithm = info.name;
    spec.bytes = info.collective == sched::Collective::barrier ? 0 : setting.bytes;
    spec.root = setting.root;
    spec.options = std::move(options);
    std::string text;
    try {
        text = sched::to_text(algo::generate_schedule(spec, algo::make_layout(test::machine(setting.topology), layout)));
    } catch (const UsageError&) {
        return "";
    }
    std::string body;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("option ", 0) != 0 && line.rfind("spec ", 0) != 0) body += line + "\n";
    return body;
}

// Does `option`=`value` change the schedule of some setting, with the other
// options at their defaults or one of them set to another value (an option
// may matter only together with another, as --arity with --bcast nary)?
// nullopt when no setting accepts the value.
std::optional<bool> changes_something(const algo::AlgorithmInfo& info, const sched::OptionInfo& option,
                                      const std::string& value) {
    // westmere's and magnycours's NICs sit next to rank 0: roots elsewhere,
    // and opteron8218's NIC on NUMA node 1, make leader election matter.
    static const std::vector<Setting> settings = {
        {"westmere", 1, 4096, 0},          {"magnycours", 1, 4096, 0},          {"magnycours", 3, 4096, 13},
        {"opteron8218", 2, 4096, 0},       {"westmere", 2, 256 << 10, 7},       {"magnycours", 2, 256 << 10, 13},
        {"opteron8218", 2, 1 << 20, 0}};
    std::vector<std::map<std::string, std::string>> companions = {{}};
    for (const sched::OptionInfo& other : info.options)
        if (other.name != option.name)
            for (const std::string& other_value : alternatives().at(other.name))
                if (other_value != other.default_value) companions.push_back({{other.name, other_value}});
    bool accepted = false;
    for (const auto& companion : companions)
        for (const Setting& setting : settings) {
            const std::string without = schedule_text(info, setting, companion);
            auto options = companion;
            options[option.name] = value;
            const std::string with = schedule_text(info, setting, options);
            if (without.empty() || with.empty()) continue;
            accepted = true;
            if (with != without) return true;
        }
    if (!accepted) return std::nullopt;
    return false;
}

}  // namespace

TEST(Options, EveryDeclaredValueChangesTheScheduleSomewhere) {
    for (const algo::AlgorithmInfo& info : algo::algorithm_registry())
        for (const sched::OptionInfo& option : info.options)
            ASSERT_TRUE(alternatives().count(option.name)) << option.name << ": no values to try for this option";
    for (const algo::AlgorithmInfo& info : algo::algorithm_registry()) {
        for (const sched::OptionInfo& option : info.options) {
            SCOPED_TRACE(std::string(sched::to_string(info.collective)) + " " + info.name + " --" + option.name);
            int accepted = 0;
            for (const std::string& value : alternatives().at(option.name)) {
                if (value == option.default_value) continue;
                const std::optional<bool> changed = changes_something(info, option, value);
                if (!changed) continue;
                ++accepted;
                EXPECT_TRUE(*changed) << "--" << option.name << " " << value << " is accepted and changes nothing";
            }
            EXPECT_GT(accepted, 0) << "no value other than the default is accepted";
        }
    }
}

TEST(Options, TwoStageBroadcastStagesEveryTiledVariantOnOneNode) {
    // The one-node broadcast of tiled-naive and tiled-cyclic stages by the
    // machine's sockets too: a socket master copies the tiles, its
    // socket-mates copy from it.
    for (const char* algorithm : {"tiled", "tiled-naive", "tiled-cyclic"}) {
        SCOPED_TRACE(algorithm);
        const sched::Schedule schedule =
            test::schedule("magnycours", sched::Collective::allreduce, algorithm, 4096, 0, 1, 0, {{"bcast", "2stage"}});
        int local_copies = 0;
        for (int id = 0; id < schedule.task_count(); ++id)
            if (schedule.task(id).kind == sched::TaskKind::copy &&
                schedule.task(id).label.text().find("bcast2:local") != std::string::npos)
                ++local_copies;
        EXPECT_GE(local_copies, 3 * 3) << "three socket-mates of each staged socket copy from their master";
    }
}

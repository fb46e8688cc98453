#include "cli/mpi_agreement.hpp"

#include <fmt/format.h>

#include <climits>
#include <iostream>
#include <map>

#include "cli/mpi_failures.hpp"
#include "common/error.hpp"
#include "numacoll/version.hpp"

extern char** environ;

namespace numacoll::cli {

namespace {

// "LENGTH:TEXT" for each key and value: any bytes survive.
std::string encode(const ResolvedCommand& items) {
    std::string text;
    for (const auto& [key, value] : items) text += fmt::format("{}:{}{}:{}", key.size(), key, value.size(), value);
    return text;
}

ResolvedCommand decode(const std::string& text) {
    ResolvedCommand items;
    std::size_t at = 0;
    const auto field = [&]() -> std::string {
        const auto colon = text.find(':', at);
        if (colon == std::string::npos) throw Error("the agreement's text is damaged");
        const std::size_t length = std::stoul(text.substr(at, colon - at));
        if (colon + 1 + length > text.size()) throw Error("the agreement's text is damaged");
        std::string value = text.substr(colon + 1, length);
        at = colon + 1 + length;
        return value;
    };
    while (at < text.size()) {
        std::string key = field();
        items.emplace_back(std::move(key), field());
    }
    return items;
}

// A value as the line shows it: quoted, or what its absence means for `key`.
std::string shown(const std::string& key, const std::string& value) {
    if (value.empty()) return key.starts_with("NUMACOLL_") ? "not set" : "not given";
    return "'" + (value.size() > 80 ? value.substr(0, 77) + "..." : value) + "'";
}

std::string ranks_list(const std::vector<int>& ranks) {
    std::string text;
    for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) text += (i ? ", " : "") + std::to_string(ranks[i]);
    if (ranks.size() > 8) text += fmt::format(" and {} more", ranks.size() - 8);
    return text;
}

}  // namespace

bool joins_mpi_under_launcher(const std::string& name) {
    for (const char* command : {"run", "baseline", "tune", "validate", "overlap", "calibrate", "sim", "whatif", "reproduce"})
        if (name == command) return true;
    return false;
}

ResolvedCommand resolve_command(const CLI::App& command) {
    ResolvedCommand items;
    items.emplace_back("numacoll's version", numacoll::version_and_revision);
    items.emplace_back("the command", command.get_name());
    for (const CLI::Option* option : command.get_options()) {
        const std::string name = option->get_name();
        if (name == "--help" || name == "-h") continue;
        std::string value;
        if (option->count() > 0) {
            for (const std::string& result : option->results()) value += (value.empty() ? "" : " ") + result;
        } else {
            value = option->get_default_str();
        }
        items.emplace_back(name, value);
    }
    std::map<std::string, std::string> variables;  // sorted, so that every process lists them alike
    for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
        const std::string text(*entry);
        const auto equals = text.find('=');
        if (text.starts_with("NUMACOLL_") && equals != std::string::npos)
            variables[text.substr(0, equals)] = text.substr(equals + 1);
    }
    for (auto& [name, value] : variables) items.emplace_back(name, value);
    return items;
}

int agree_on_command(const exec::MpiWorld& world, int failure_code, const std::string& failure_line,
                     const ResolvedCommand& mine) {
    const exec::MpiWorld::Agreement failed = world.agree(failure_code);
    if (failed.code != 0) {
        if (world.rank() == failed.first_failing_process) std::cerr << failure_line << std::endl;
        return failed.code;
    }
    const ResolvedCommand first = decode(world.text_of_process_zero(encode(mine)));
    // Process 0's items in its order, then this process's own extras; a
    // missing one reads as "not set".
    std::map<std::string, std::string> own(mine.begin(), mine.end());
    std::vector<std::pair<std::string, std::pair<std::string, std::string>>> compared;  // key, (process 0's, mine)
    for (const auto& [key, value] : first) {
        const auto found = own.find(key);
        compared.push_back({key, {value, found == own.end() ? "" : found->second}});
        if (found != own.end()) own.erase(found);
    }
    for (const auto& [key, value] : mine)
        if (own.count(key)) compared.push_back({key, {"", value}});
    int differs_at = INT_MAX;
    for (std::size_t i = 0; i < compared.size() && differs_at == INT_MAX; ++i)
        if (compared[i].second.first != compared[i].second.second) differs_at = static_cast<int>(i);
    const auto [first_difference, reporter] = world.smallest_with_process(differs_at);
    if (first_difference == INT_MAX) return 0;
    const std::vector<int> differing = world.gather_everywhere(differs_at != INT_MAX ? 1 : 0);
    if (world.rank() == reporter) {
        std::vector<int> ranks;
        for (std::size_t r = 0; r < differing.size(); ++r)
            if (differing[r]) ranks.push_back(static_cast<int>(r));
        const auto& [key, values] = compared[static_cast<std::size_t>(first_difference)];
        std::cerr << fmt::format("numacoll: the MPI processes were started differently: {} is {} on rank 0 and {} on "
                                 "rank {}{}; start every process with the same command line and NUMACOLL_ variables",
                                 key, shown(key, values.first), shown(key, values.second), reporter,
                                 ranks.size() > 1 ? fmt::format(" (ranks {} differ from rank 0)", ranks_list(ranks))
                                                  : std::string())
                  << std::endl;
    }
    return 2;
}

StartedMpi start_mpi(const CLI::App& command, int thread_level) {
    StartedMpi started;
    started.world = std::make_unique<exec::MpiWorld>(nullptr, nullptr, thread_level);
    started.exit_code = agree_on_command(*started.world, 0, "", resolve_command(command));
    return started;
}

StartedMpi start_mpi_if_launched(const CLI::App& command, int thread_level) {
    return exec::MpiWorld::launched_by_mpirun() ? start_mpi(command, thread_level) : StartedMpi{};
}

int fail_in_agreement(int exit_code, const std::string& line) {
    const exec::MpiWorld world(nullptr, nullptr, MPI_THREAD_SINGLE);
    return agree_on_command(world, exit_code, line, {});
}

int agree_to_run_alone(const CLI::App& command, const std::string& what) {
    if (!exec::MpiWorld::launched_by_mpirun()) return 0;
    const StartedMpi started = start_mpi(command, MPI_THREAD_SINGLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld& world = *started.world;
    return agree_on(world, [&] {
        if (world.size() > 1)
            throw UsageError(fmt::format("{}: the launcher started {} processes", what, world.size()));
    });
}

}  // namespace numacoll::cli

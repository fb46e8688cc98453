// numacoll merge DIR... -o OUT: joins the folders of a sweep's shards (each
// written by the same command with --shard K/N) into the folder one whole
// run writes. It checks that the folders are every shard of one sweep,
// each whole, then reruns the sweep's command into OUT with their points,
// so that nothing is computed again and the files are those of a whole run.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "cli/commands.hpp"
#include "cli/sweep_spreading.hpp"
#include "common/error.hpp"
#include "spread/point_journal.hpp"

namespace numacoll::cli {

namespace {

namespace fs = std::filesystem;

struct MergeOptions {
    std::vector<std::string> shards;
    std::string folder;
    bool quiet = false;  // read by main.cpp
};

spread::JournalContents read_shard(const std::string& folder) {
    const fs::path journal = fs::path(folder) / spread::journal_name;
    std::error_code error;
    if (!fs::is_regular_file(journal, error))
        throw InputError(fmt::format("'{}' is not a shard's folder: it holds no {} (a run with --shard K/N writes one)",
                                     folder, spread::journal_name));
    return spread::read_journal(journal.string());
}

int run_merge(const MergeOptions& options) {
    std::vector<spread::JournalContents> shards;
    for (const std::string& folder : options.shards) shards.push_back(read_shard(folder));
    const spread::JournalHead& first = shards.front().head;
    std::map<int, std::string> folder_of_shard;
    std::size_t points = 0;
    for (std::size_t i = 0; i < shards.size(); ++i) {
        const spread::JournalHead& head = shards[i].head;
        const std::string& folder = options.shards[i];
        if (const std::string differs = spread::difference(first, head); !differs.empty())
            throw UsageError(fmt::format("'{}' and '{}' are shards of different sweeps: {}", options.shards[0], folder,
                                         differs));
        if (head.shard.count != first.shard.count)
            throw UsageError(fmt::format("'{}' is shard {} of {} and '{}' shard {} of {}: the shards of one sweep split "
                                         "it alike",
                                         options.shards[0], first.shard.index, first.shard.count, folder,
                                         head.shard.index, head.shard.count));
        if (!shards[i].ended)
            throw UsageError(fmt::format("'{}' is a shard that did not finish ({} of its points are in): run its "
                                         "command again with --resume into that folder",
                                         folder, shards[i].results.size()));
        if (const auto [at, fresh] = folder_of_shard.emplace(head.shard.index, folder); !fresh)
            throw UsageError(fmt::format("'{}' and '{}' are both shard {} of {}", at->second, folder, head.shard.index,
                                         head.shard.count));
        points += shards[i].results.size();
    }
    if (static_cast<int>(folder_of_shard.size()) != first.shard.count) {
        std::string missing;
        for (int k = 1; k <= first.shard.count; ++k)
            if (!folder_of_shard.count(k)) missing += fmt::format("{}{}", missing.empty() ? "" : ", ", k);
        throw UsageError(fmt::format("the sweep has {} shards and {} are given: shard {} of {} missing",
                                     first.shard.count, folder_of_shard.size(), missing, first.shard.count));
    }
    if (points != first.points)
        throw UsageError(fmt::format("the shards hold {} points of the sweep's {}", points, first.points));
    if (first.command.empty()) throw InputError(fmt::format("'{}' names no command", options.shards[0]));

    // The sweep's own command, into OUT, with the shards' points.
    std::vector<std::string> words = {"numacoll"};
    words.insert(words.end(), first.command.begin(), first.command.end());
    words.push_back("--output-dir=" + options.folder);
    for (const std::string& folder : options.shards) words.push_back("--rows-from=" + folder);
    if (options.quiet) words.push_back("--quiet");
    std::vector<char*> argv;
    for (std::string& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    ::execv("/proc/self/exe", argv.data());
    throw Error(fmt::format("cannot run numacoll {} again: {}", first.command.front(), std::strerror(errno)));
}

}  // namespace

CommandRun add_merge_command(CLI::App& app) {
    auto* command = app.add_subcommand(
        "merge", "join the folders of a sweep's shards (--shard K/N) into the folder a whole run writes");
    auto options = std::make_shared<MergeOptions>();
    command->add_option("shards", options->shards, "the shards' folders, every shard of one sweep once")->required();
    command->add_option("--output-dir,-o,--output", options->folder, "the folder of the whole run")->required();
    command->add_flag("-q,--quiet", options->quiet, "no progress on stderr");
    command->footer(
        "Examples:\n"
        "  for k in 1 2 3; do numacoll tune -t westmere -c bcast --nodes 1,2 --shard $k/3 -o part-$k; done\n"
        "  numacoll merge part-1 part-2 part-3 -o tuned");
    return [options] { return run_merge(*options); };
}

}  // namespace numacoll::cli

#include "cli/sweep_spreading.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <iostream>
#include <set>

#include "cli/mpi_agreement.hpp"
#include "cli/mpi_failures.hpp"
#include "common/error.hpp"
#include "common/progress.hpp"
#include "exec/mpi_world.hpp"
#include "numacoll/version.hpp"

namespace numacoll::cli {

namespace fs = std::filesystem;

namespace {

// Options that do not change which points a sweep computes, nor what they give.
bool shapes_no_point(const std::string& name) {
    if (name.empty()) return true;  // the hidden --rows-from resolves without a name
    for (const char* other : {"--output-dir", "--shard", "--resume", "--rows-from", "--quiet", "--help"})
        if (name == other) return true;
    return false;
}

spread::Shard shard_of(const SpreadOptions& options) {
    return options.shard.empty() ? spread::Shard{} : spread::parse_shard(options.shard);
}

// The sweep's identity: the command and every option that shapes its
// points, as every process of a job resolved them (cli/mpi_agreement.hpp),
// and the words that rerun it.
spread::JournalHead head_of(const CLI::App& command, const std::vector<std::string>& keys, const spread::Shard& shard) {
    spread::JournalHead head;
    head.version = numacoll::version_and_revision;
    head.points = keys.size();
    head.fingerprint = spread::fingerprint_of(keys);
    head.shard = shard;
    for (const auto& [name, value] : resolve_command(command)) {
        if (name == "numacoll's version" || name.starts_with("NUMACOLL_") || shapes_no_point(name)) continue;
        head.signature += fmt::format("{}={};", name, value);
    }
    head.command.push_back(command.get_name());
    std::vector<std::string> positionals;
    for (const CLI::Option* option : command.get_options()) {
        if (option->count() == 0 || shapes_no_point(option->get_name()) || option->check_lname("rows-from")) continue;
        if (!option->nonpositional()) {
            for (const std::string& value : option->results()) positionals.push_back(value);
            continue;
        }
        const std::string name = option->get_lnames().empty() ? "-" + option->get_snames().front()
                                                               : "--" + option->get_lnames().front();
        if (option->get_expected_max() == 0) {
            for (std::size_t i = 0; i < option->count(); ++i) head.command.push_back(name);
            continue;
        }
        for (const std::string& value : option->results()) head.command.push_back(name + "=" + value);
    }
    head.command.insert(head.command.end(), positionals.begin(), positionals.end());
    return head;
}

// The points the folders of a stopped run left in `folder_path`: its
// unfinished-PID folders and a killed run's staging folders.
std::map<std::size_t, std::string> leftovers_in(const std::string& folder_path, const spread::JournalHead& head) {
    std::map<std::size_t, std::string> finished;
    std::error_code error;
    if (!fs::is_directory(folder_path, error)) return finished;
    std::vector<fs::path> journals;
    for (const auto& entry : fs::directory_iterator(folder_path, error)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with("unfinished-") && !name.starts_with(".numacoll-run-")) continue;
        const fs::path journal = entry.path() / spread::journal_name;
        if (fs::is_regular_file(journal, error)) journals.push_back(journal);
    }
    std::sort(journals.begin(), journals.end());
    for (const fs::path& journal : journals) {
        const spread::JournalContents contents = spread::read_journal(journal.string());
        std::string differs = spread::difference(head, contents.head);
        if (differs.empty() && (contents.head.shard.index != head.shard.index || contents.head.shard.count != head.shard.count))
            differs = fmt::format("it is shard {}/{}", contents.head.shard.index, contents.head.shard.count);
        if (!differs.empty())
            throw UsageError(fmt::format("--resume: '{}' holds the points of another sweep ({}): resume with the "
                                         "command that made it, or remove it",
                                         journal.parent_path().string(), differs));
        for (const auto& [point, result] : contents.results) finished.emplace(point, result);
    }
    if (journals.empty() && progress_reports())
        std::cerr << fmt::format("numacoll: --resume: '{}' holds no unfinished points; computing every point\n",
                                 folder_path);
    return finished;
}

// The points of the shards numacoll merge hands over.
std::map<std::size_t, std::string> rows_of_shards(const std::vector<std::string>& folders,
                                                  const spread::JournalHead& head) {
    std::map<std::size_t, std::string> finished;
    for (const std::string& folder : folders) {
        const spread::JournalContents contents = spread::read_journal((fs::path(folder) / spread::journal_name).string());
        if (const std::string differs = spread::difference(head, contents.head); !differs.empty())
            throw UsageError(fmt::format("'{}' holds the points of another sweep: {}", folder, differs));
        for (const auto& [point, result] : contents.results) finished.emplace(point, result);
    }
    return finished;
}

}  // namespace

void add_spread_options(CLI::App& command, SpreadOptions& options) {
    command.add_option("--shard", options.shard,
                       "K/N: compute only the K-th of N deterministic shares of the points, into this folder "
                       "(numacoll merge joins the N folders; for Slurm job arrays and plain shells)");
    command.add_flag("--resume", options.resume,
                     "take the points a stopped run into the same folder finished, and compute only the others");
    // numacoll merge's hand-over: the shards whose points make the whole sweep.
    command.add_option("--rows-from", options.rows_from)->group("");
}

int run_sweep(const CLI::App& command, const SpreadOptions& options, const std::string& folder_path,
              const std::function<SweepPoints(bool writes)>& setup,
              const std::function<std::unique_ptr<OutputFolder>()>& open_folder,
              const std::function<void(OutputFolder& folder, const std::vector<std::string>& results)>& write) {
    const StartedMpi started = start_mpi_if_launched(command, MPI_THREAD_MULTIPLE);
    if (started.exit_code != 0) return started.exit_code;
    const exec::MpiWorld* world = started.world.get();
    const bool writer = world == nullptr || world->rank() == 0;

    SweepPoints points;
    spread::Shard shard;
    std::map<std::size_t, std::string> finished;
    std::unique_ptr<OutputFolder> folder;
    std::unique_ptr<spread::PointJournal> journal;
    const auto prepare = [&] {
        shard = shard_of(options);
        if (world != nullptr && world->size() > 1 && !shard.whole())
            throw UsageError(fmt::format("--shard {} splits a sweep between runs without MPI; under mpirun the {} "
                                         "processes share it: leave --shard out",
                                         options.shard, world->size()));
        if (options.resume && !options.rows_from.empty())
            throw UsageError("--resume takes the points of a stopped run; numacoll merge joins shards: not both");
        points = setup(writer);
        if (points.keys.size() != points.expected_cost.size())
            throw Error(fmt::format("{} points with {} estimates", points.keys.size(), points.expected_cost.size()));
        if (!writer) return;
        const spread::JournalHead head = head_of(command, points.keys, shard);
        if (options.resume) finished = leftovers_in(folder_path, head);
        if (!options.rows_from.empty()) finished = rows_of_shards(options.rows_from, head);
        folder = open_folder();
        journal = std::make_unique<spread::PointJournal>(
            shard.whole() ? folder->working_file(spread::journal_name) : folder->file(spread::journal_name), head);
    };
    const auto work = [&] {
        spread::SpreadRequest request;
        request.expected_cost = points.expected_cost;
        request.finished = std::move(finished);
        request.shard = shard;
        request.world = world;
        request.journal = journal.get();
        request.progress_what = points.progress_what;
        request.progress_unit = points.progress_unit;
        request.rows_kept_in = folder_path;
        if (writer && progress_reports() && !request.finished.empty())
            std::cerr << fmt::format("{}: {} points already finished, taken as they are\n", points.progress_what,
                                     request.finished.size());
        reached_stage("simulating");
        const std::vector<std::optional<std::string>> results = spread::compute_points(request, points.compute);
        const auto finish = [&] {
            if (!shard.whole()) {
                const std::size_t mine = spread::points_of_shard(points.expected_cost, shard).size();
                journal->finish(mine);
                journal.reset();
                folder->commit();
                std::cout << fmt::format("shard {} of {}: {} of the sweep's {} points; numacoll merge joins the {} "
                                         "shard folders into the whole run's\n{}\n",
                                         shard.index, shard.count, mine, points.keys.size(), shard.count,
                                         folder->final_path(spread::journal_name));
                return;
            }
            std::vector<std::string> texts;
            texts.reserve(results.size());
            for (std::size_t point = 0; point < results.size(); ++point) {
                if (!results[point]) throw Error(fmt::format("point {} of the sweep has no result", point));
                texts.push_back(*results[point]);
            }
            journal.reset();
            write(*folder, texts);
        };
        if (world == nullptr) return finish();
        on_writer(*world, finish);
    };
    return prepare_then_run(world, prepare, work, "process");
}

}  // namespace numacoll::cli

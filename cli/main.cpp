// numacoll: the command line. Errors become one line on stderr and an exit
// code: 2 for usage and input errors, 1 for failed checks and other failures.
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "cli/mpi_agreement.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/progress.hpp"
#include "exec/mpi_world.hpp"
#include "numacoll/version.hpp"
#include "sim/engine.hpp"

namespace {

int run_command_line(int argc, char** argv);

// Ends the process with `code` once the command line has run: its output is
// flushed and its simulating children reaped (registered with
// at_quick_exit too), and nothing of numacoll's is left to a static
// destructor. The libraries' own (ns-3's, SimGrid's, Open MPI's) took about
// 2 ms of every run; they are skipped. Under a sanitizer the process exits
// normally, so that LeakSanitizer still checks it.
[[noreturn]] void end_process(int code) {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    std::exit(code);
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
    std::exit(code);
#else
    std::quick_exit(code);
#endif
#else
    std::quick_exit(code);
#endif
}

}  // namespace

int main(int argc, char** argv) { end_process(run_command_line(argc, argv)); }

namespace {

// Levenshtein distance: the fewest letters added, removed or changed.
std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// For the first --word of the command line that `command` does not take, the
// option it most likely meant: "; did you mean --algorithm?", or "" when none
// is within a few letters.
std::string did_you_mean(const CLI::App& command, int argc, char** argv) {
    std::vector<std::string> names;
    for (const CLI::Option* option : command.get_options())
        for (const std::string& name : option->get_lnames()) names.push_back(name);
    for (int i = 2; i < argc; ++i) {
        const std::string word = argv[i];
        if (word.size() < 3 || word.compare(0, 2, "--") != 0) continue;
        const std::size_t equals = word.find('=');
        const std::string name = word.substr(2, equals == std::string::npos ? std::string::npos : equals - 2);
        if (std::find(names.begin(), names.end(), name) != names.end()) continue;
        std::string best;
        std::size_t best_distance = std::max<std::size_t>(2, name.size() / 4) + 1;
        for (const std::string& candidate : names)
            if (const std::size_t distance = edit_distance(name, candidate); distance < best_distance) {
                best = candidate;
                best_distance = distance;
            }
        return best.empty() ? "" : fmt::format("; did you mean --{}?", best);
    }
    return "";
}

int run_command_line(int argc, char** argv) {
    // Ctrl-C leaves no temporary file behind, and keeps a sweep's finished rows.
    numacoll::install_interrupt_cleanup();
    CLI::App app{"numacoll: design, simulate and execute MPI collective algorithms on NUMA machines"};
    app.require_subcommand(1);
    app.set_version_flag("--version", fmt::format("numacoll {}\n{}", numacoll::version_and_revision,
                                                  numacoll::sim::simgrid_description()));
    std::vector<std::pair<CLI::App*, numacoll::cli::CommandRun>> commands;
    auto remember = [&](numacoll::cli::CommandRun run) { commands.emplace_back(app.get_subcommands({}).back(), run); };
    remember(numacoll::cli::add_topo_command(app));
    remember(numacoll::cli::add_dag_command(app));
    remember(numacoll::cli::add_sim_command(app));
    remember(numacoll::cli::add_model_command(app));
    remember(numacoll::cli::add_run_command(app));
    remember(numacoll::cli::add_baseline_command(app));
    remember(numacoll::cli::add_calibrate_command(app));
    remember(numacoll::cli::add_validate_command(app));
    remember(numacoll::cli::add_plot_command(app));
    remember(numacoll::cli::add_reproduce_command(app));
    remember(numacoll::cli::add_tune_command(app));
    remember(numacoll::cli::add_whatif_command(app));
    remember(numacoll::cli::add_overlap_command(app));
    remember(numacoll::cli::add_mpi_report_command(app));
    remember(numacoll::cli::add_merge_command(app));
    remember(numacoll::cli::add_demo_command(app));

    // Under mpirun, a command that takes part in MPI and fails before MPI
    // starts says so in the agreement the others meet it in
    // (cli/mpi_agreement.hpp): the first process that failed says why, and
    // every process exits with its code. Any other command fails alike on
    // every process: rank 0 says why, the others only exit with the code.
    // (Once MPI runs, the commands that use it report their own failures.)
    const bool under_launcher = numacoll::exec::MpiWorld::launched_by_mpirun();
    const bool joins_mpi = under_launcher && argc > 1 && numacoll::cli::joins_mpi_under_launcher(argv[1]);
    const bool reports_errors = numacoll::exec::MpiWorld::launcher_rank() <= 0;
    auto report = [&](const std::string& line) {
        if (reports_errors) std::cerr << line << "\n";
    };
    auto fail = [&](const std::string& line, int code) {
        if (joins_mpi && !numacoll::exec::MpiWorld::started()) {
            try {
                return numacoll::cli::fail_in_agreement(code, line);
            } catch (const std::exception&) {  // no MPI to agree in: say it here
            }
            std::cerr << line << "\n";
            return code;
        }
        report(line);
        return code;
    };
    // Whatever a command printed must have reached its standard output (a
    // full disk, a closed pipe): else one line and exit 1.
    auto output_reached = [&](int code) {
        errno = 0;
        std::cout.flush();
        if (std::cout) return code;
        report(fmt::format("numacoll: cannot write standard output{}", errno != 0 ? std::string(": ") + std::strerror(errno) : ""));
        return code == 0 ? 1 : code;
    };
    try {
        // CLI11 reads an unknown first word as a missing subcommand; say what it is.
        if (argc > 1 && argv[1][0] != '-') {
            std::string known;
            bool found = false;
            for (auto& [command, run] : commands) {
                found = found || command->get_name() == argv[1];
                known += (known.empty() ? "" : ", ") + command->get_name();
            }
            if (!found) throw numacoll::UsageError(fmt::format("unknown command '{}': expected one of {}", argv[1], known));
        }
        app.parse(argc, argv);
        for (auto& [command, run] : commands)
            if (command->parsed()) {
                // --quiet silences the progress of generation and simulation too.
                const CLI::Option* quiet = command->get_option_no_throw("--quiet");
                if (quiet != nullptr && quiet->count() > 0) numacoll::set_progress_reports(false);
                return output_reached(run());
            }
        return 2;
    } catch (const CLI::ParseError& error) {
        if (error.get_exit_code() == 0) return output_reached(app.exit(error));  // --help, --version
        std::string message = error.what();
        if (auto newline = message.find('\n'); newline != std::string::npos) message.resize(newline);
        if (dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr && argc > 1)
            for (auto& [command, run] : commands)
                if (command->get_name() == argv[1]) message += did_you_mean(*command, argc, argv);
        return fail("numacoll: " + message + " (see --help)", 2);
    } catch (const numacoll::UsageError& error) {
        return fail(std::string("numacoll: ") + error.what(), 2);
    } catch (const numacoll::Error& error) {
        return fail(std::string("numacoll: ") + error.what(), 1);
    } catch (const std::exception& error) {
        return fail(std::string("numacoll: unexpected error: ") + error.what(), 1);
    }
}

}  // namespace

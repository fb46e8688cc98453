// The numacoll subcommands. Each registers itself on the root CLI::App and
// returns what to run when it was chosen; that returns the exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace numacoll::cli {

using CommandRun = std::function<int()>;



CommandRun add_topo_command(CLI::App& app);
CommandRun add_dag_command(CLI::App& app);
CommandRun add_sim_command(CLI::App& app);
CommandRun add_model_command(CLI::App& app);
CommandRun add_run_command(CLI::App& app);
CommandRun add_baseline_command(CLI::App& app);
CommandRun add_validate_command(CLI::App& app);
CommandRun add_plot_command(CLI::App& app);
CommandRun add_demo_command(CLI::App& app);
CommandRun add_reproduce_command(CLI::App& app);
CommandRun add_calibrate_command(CLI::App& app);
CommandRun add_tune_command(CLI::App& app);
CommandRun add_whatif_command(CLI::App& app);
CommandRun add_overlap_command(CLI::App& app);
CommandRun add_mpi_report_command(CLI::App& app);
CommandRun add_merge_command(CLI::App& app);

}  // namespace numacoll::cli

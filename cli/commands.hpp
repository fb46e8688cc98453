// The numacoll subcommands. Each registers itself on the root CLI::App and
// returns what to run when it was chosen; that returns the exit code.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "algorithms/schedule.hpp"

namespace numacoll::cli {

using CommandRun = std::function<int()>;

struct AlgorithmOptions;
// Every algorithm of --algorithm at every size of --bytes.
std::vector<algo::CollectiveSpec> sweep_specs(const AlgorithmOptions& algorithm, const std::string& bytes);

CommandRun add_topo_command(CLI::App& app);
CommandRun add_dag_command(CLI::App& app);
CommandRun add_sim_command(CLI::App& app);
CommandRun add_run_command(CLI::App& app);
CommandRun add_validate_command(CLI::App& app);
CommandRun add_plot_command(CLI::App& app);
CommandRun add_demo_command(CLI::App& app);

}  // namespace numacoll::cli

// Starting MPI for a command that runs on every process of a job (run,
// baseline, tune, validate, overlap, calibrate, and the sweeps sim, whatif
// and reproduce spread): the agreement comes first.
//
// Processes started with different command lines (mpirun's MPMD ':' syntax,
// a job script that differs per rank) would run different sweeps and wait
// for each other forever, or time one collective with another's root. So
// right after MPI_Init every process compares what it resolved with
// process 0's: numacoll's version, the command, every option's value (as
// given, else its default) and the NUMACOLL_ variables of the environment.
// A difference ends every process with exit 2, through MPI_Finalize, after
// one line from the lowest process that differs, naming the option, both
// values and the processes that differ. A process whose command line failed
// before MPI started takes part too, with its failure: every process ends
// with its code, after its line.
//
// Invariant: the agreement is the first communication of every process in
// MPI_COMM_WORLD after MPI_Init (MpiWorld's constructor's split aside), on
// every path, so that processes on different paths still meet in it.
#pragma once

#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "exec/mpi_world.hpp"

namespace numacoll::cli {

// Whether the command named `name` (the first word of the command line)
// takes part in MPI whenever a launcher started it.
bool joins_mpi_under_launcher(const std::string& name);

// What this process resolved of its command line, in order: (what, value).
using ResolvedCommand = std::vector<std::pair<std::string, std::string>>;
ResolvedCommand resolve_command(const CLI::App& command);

// The agreement itself: `failure_code` (0, or the code of this process's
// failure, whose line is `failure_line`) and `mine`. Returns 0 when every
// process resolved the same and none failed, else the exit code every
// process returns (its line said by one process).
int agree_on_command(const exec::MpiWorld& world, int failure_code, const std::string& failure_line,
                     const ResolvedCommand& mine);

// MPI_Init asking for `thread_level`, then the agreement on `command`.
struct StartedMpi {
    std::unique_ptr<exec::MpiWorld> world;
    int exit_code = 0;  // not 0: the processes disagree (the world ends with this object)
};
StartedMpi start_mpi(const CLI::App& command, int thread_level);
// start_mpi under mpirun or srun; without a launcher, no world and 0.
StartedMpi start_mpi_if_launched(const CLI::App& command, int thread_level);

// For a command line that failed before MPI started, under a launcher, in a
// command that joins MPI: takes part in the agreement with the failure and
// returns the exit code every process agrees on.
int fail_in_agreement(int exit_code, const std::string& line);

// For a command whose engine runs in this one process (threads, sim,
// model) under a launcher: the agreement, then a refusal when the launcher
// started more than one process (`what` names the engine and says what to
// use instead). 0 when the command may go on, MPI finished; without a
// launcher, 0 at once.
int agree_to_run_alone(const CLI::App& command, const std::string& what);

}  // namespace numacoll::cli

// How a command that runs on every process of an MPI job (run --engine mpi,
// baseline, validate --engine mpi) ends when something fails, so that no
// process is left waiting and the user reads one line per failure:
// - what every process checks before the work (arguments, outputs,
//   layouts) is agreed: every process learns the largest exit code, and the
//   first process that failed says why;
// - in the work, a failure the engine agrees on (a wrong result: the
//   process that found it throws, the others get exec::PeerFailure) is
//   reported by the process that found it, and so is a failure to write
//   the results (on_writer); anything else is one process's alone and ends
//   the job through MPI_Abort with that process's line.
#pragma once

#include <functional>
#include <string>

#include "common/error.hpp"
#include "exec/mpi_world.hpp"

namespace numacoll::cli {

// One line on stderr: "numacoll: node K: what" (without "node K" for a lone
// process); `unit` names what a process stands for ("node", "rank").
void say_from_process(const exec::MpiWorld& world, const std::string& what, const char* unit = "node");

// Runs `setup` on every process and agrees on how it went: 0, or the exit
// code every process returns (2 for a usage error).
int agree_on(const exec::MpiWorld& world, const std::function<void()>& setup, const char* unit = "node");

// Runs `work` (the engine's collective calls) and returns the exit code.
int run_agreed(const exec::MpiWorld& world, const std::function<void()>& work, const char* unit = "node");

// `prepare`, then `work`: in this process alone when `world` is null (a
// failure propagates), else on every process, as agree_on and run_agreed.
int prepare_then_run(const exec::MpiWorld* world, const std::function<void()>& prepare,
                     const std::function<void()>& work, const char* unit = "node");

// A failure every process knows of, thrown by the process that says why.
class AgreedFailure : public Error {
public:
    AgreedFailure(const std::string& what, int exit_code) : Error(what), exit_code(exit_code) {}
    int exit_code;
};

// Runs `write` (what one process writes: rows, a folder) on process
// `writer` alone, and agrees on how it went: when it failed, that process
// throws AgreedFailure and the others exec::PeerFailure, which run_agreed
// turns into its exit code on every process (no MPI_Abort).
void on_writer(const exec::MpiWorld& world, const std::function<void()>& write, int writer = 0);

}  // namespace numacoll::cli

// Ranks as MPI processes go where the user's launcher put them: the layout
// of a one-node run lists the PUs the processes are bound to (mpirun
// --bind-to core, srun --cpu-bind, a job script's taskset), rather than
// pinning them elsewhere against the launcher.
//
// Invariant: every process of the world calls it at the same point, and all
// leave with the same options.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/common.hpp"
#include "exec/mpi_world.hpp"

namespace numacoll::cli {

// When some process is bound and neither --pus nor --placement says
// otherwise, on one node (several nodes on one host are laid side by side
// instead), with pinning: `pus` (the layout's list) gets the PUs the
// processes run on (exec::pus_from_launcher_bindings) and `followed` is set;
// processes bound to fewer PUs than they are are refused (one rank per PU).
// `topology`: the machine option. Collective over the world; 0, or the exit
// code every process returns.
int follow_launcher_binding(const exec::MpiWorld& world, const CLI::App& command, const std::string& topology,
                            bool pin, int nodes, std::vector<int>& pus, bool& followed, const char* unit);

}  // namespace numacoll::cli

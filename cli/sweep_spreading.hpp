// How the commands that sweep simulated or modelled points (tune, whatif,
// reproduce)
// spread them (spread/distribution.hpp):
// - under mpirun or srun, over every process the launcher started: process
//   0 writes exactly the files a lone process writes;
// - with --shard K/N, this run computes its share alone and its folder holds
//   only those points (sweep-points.tsv); `numacoll merge` joins the shards;
// - with --resume, the points a stopped run into the same folder finished
//   (its unfinished-PID folder, or the staging folder of a killed run) are
//   taken as they are, and only the others computed.
//
// A journal belongs to one sweep: numacoll's version, the command and every
// option that shapes its points (not the output folder, --shard, --resume,
// --quiet), and a fingerprint of the points themselves (so a changed machine
// or params file is a different sweep). Rows of another sweep are refused
// with one line, never mixed in.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/output_folder.hpp"
#include "spread/distribution.hpp"

namespace numacoll::cli {

struct SpreadOptions {
    std::string shard;                   // "K/N"; empty: the whole sweep
    bool resume = false;
    std::vector<std::string> rows_from;  // shard folders whose points are taken (numacoll merge)
};

// --shard, --resume and the hidden --rows-from.
void add_spread_options(CLI::App& command, SpreadOptions& options);

// A command's sweep, once set up.
struct SweepPoints {
    std::vector<std::string> keys;      // what each point is, in point order
    std::vector<double> expected_cost;  // per point (estimated tasks)
    spread::ComputePoint compute;       // a point's result as text
    std::string progress_what = "sweep";
    std::string progress_unit = "points";
};

// Runs a sweeping command:
// - `setup(writes)` on every process (`writes`: this one writes the files),
//   checking everything before any point is computed;
// - `open_folder()` on the writer, once the leftovers to resume are read;
// - the points, spread;
// - `write(folder, results)` on the writer, every point's result known (a
//   whole sweep): the command's files, committed. A shard commits its points.
// Failures before the points are agreed on (every process ends with one
// code, one line); during them, see spread/distribution.hpp.
int run_sweep(const CLI::App& command, const SpreadOptions& options, const std::string& folder_path,
              const std::function<SweepPoints(bool writes)>& setup,
              const std::function<std::unique_ptr<OutputFolder>()>& open_folder,
              const std::function<void(OutputFolder& folder, const std::vector<std::string>& results)>& write);

}  // namespace numacoll::cli

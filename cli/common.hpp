// Pieces every numacoll subcommand shares: the machine, layout and algorithm
// options, sweeps, and loading schedules.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "common/output_folder.hpp"
#include "costs/params.hpp"
#include "schedule/schedule.hpp"
#include "topologies/machine.hpp"

namespace numacoll::cli {

// --topology, --nodes, --ranks, --placement, --pus
struct MachineOptions {
    std::string topology;
    int nodes = 1;
    int ranks_per_node = 0;
    std::string placement = "compact";
    std::vector<int> pus;
    bool from_launcher = false;  // pus are where the launcher bound MPI processes (cli/launcher_placement.hpp)
    bool oversubscribe = false;  // this machine: more ranks than PUs, on purpose
    bool no_pin = false;         // this machine: threads not pinned to their PUs

    // `ranks_names`: the names of the ranks-per-node option (the execution
    // commands call ranks threads, and take both names).
    void add_to(CLI::App& command, const std::string& default_topology, bool with_layout,
                const std::string& ranks_names = "--ranks,-p");
    std::shared_ptr<const topo::Machine> load() const;
    // compact, scatter, list (--pus given) or launcher.
    std::string placement_name() const { return from_launcher ? "launcher" : pus.empty() ? placement : "list"; }
    // The execution commands that run on this machine alone (validate,
    // demo): --topology (live, or a saved export of this machine), the ranks
    // per node as --threads/-P or --ranks/-p, --oversubscribe, --placement,
    // --pus and --no-pin.
    void add_this_machine_to(CLI::App& command, const std::string& ranks_help);
    // live_layout() of these options, on `nodes` nodes.
    algo::Layout layout_here(int nodes = 1) const;
    // `offer_oversubscribe`: the command has --oversubscribe (the refusal of
    // too many ranks names it).
    algo::Layout layout(std::shared_ptr<const topo::Machine> machine, bool oversubscribe = false,
                        bool offer_oversubscribe = false) const;

private:
    std::function<bool()> placement_given_;  // whether --placement was on the command line
};

// The most nodes a layout may have: far above the clusters anyone builds.
// Below it, what refuses a layout too large is its rank count (layout.cpp)
// and the schedule's estimated tasks and memory, both before generating.
inline constexpr int max_nodes = 1 << 20;

// --collective, --algorithm, --root, --op, --datatype and the algorithm options (the
// common ones as flags, see algorithm_option_flags(); any other as
// --option key=value).
struct AlgorithmOptions {
    std::string collective = "allreduce";
    std::string algorithm = "tree";
    int root = 0;
    std::string op = "sum";
    std::string datatype = "double";
    std::string ranks_as = "threads";  // or processes: sched::process_form of a thread schedule
    bool single_copy = false;          // the process form's single copy (--single-copy)
    std::map<std::string, std::string> flagged;  // option name -> value given with its flag
    std::vector<std::string> extra_options;

    // `many`: --algorithm takes a comma list; `rank_forms`: the command
    // takes --ranks-as (it makes the process form of what it generates).
    void add_to(CLI::App& command, bool many, bool rank_forms = false);
    // The spec for one size (algorithm = the whole --algorithm text).
    sched::CollectiveSpec spec(std::uint64_t bytes) const;
    // Whether --ranks-as asks for processes.
    bool as_processes() const;
    // `generated` in the form --ranks-as asks for: with processes, a schedule
    // of threads becomes its process form (one whose ranks are processes
    // exchanging messages stays as it is).
    sched::Schedule in_rank_form(sched::Schedule generated) const;
};

// Algorithm options that have a flag of their own (--NAME VALUE): name -> help.
const std::vector<std::pair<std::string, std::string>>& algorithm_option_flags();
// The help texts of --op and --datatype.
extern const char* const op_help;
extern const char* const datatype_help;
// How to pass an algorithm option on the command line: "--arity" or "--option fanout=".
std::string option_syntax(const std::string& name);

// "a,b,c" -> {a, b, c}; UsageError naming `what` on an empty entry.
std::vector<std::string> split_list(const std::string& text, const std::string& what);

// The machine the execution commands run on: hwloc's discovery ("live"), or
// a saved description of this machine (an lstopo export, "-" for standard
// input) that describes the same hardware (UsageError saying how it differs
// otherwise); the file then names the machine in the results.
std::shared_ptr<const topo::Machine> load_this_machine(const std::string& spec);

// This machine (`nodes` of it, as `topology` describes it: see
// load_this_machine), with `threads` ranks per node (0: one per core) placed
// compact, scatter, or on the logical PUs `pus`; UsageError for a negative
// count or more threads than PUs without `oversubscribe`.
algo::Layout live_layout(int threads, bool oversubscribe, const std::string& placement = "compact",
                         const std::vector<int>& pus = {}, int nodes = 1, const std::string& topology = "live");

// When `params` are the generic fallback, says so on stderr (naming the
// command and the machine) unless quiet: predictions then describe a
// typical server, not this machine.
void announce_generic_params(const costs::Params& params, const topo::Machine& machine, const std::string& command,
                             bool quiet);

// Every algorithm of --algorithm at every size of --bytes.
std::vector<sched::CollectiveSpec> sweep_specs(const AlgorithmOptions& algorithm, const std::string& bytes);

// A schedule file, text or JSON (told apart by its first character).
// load_schedule wants exactly one; load_schedules takes a file holding
// several collectives run one after another (schedule_io.hpp).
sched::Schedule load_schedule(const std::string& path);
std::vector<sched::Schedule> load_schedules(const std::string& path);

// -q/--quiet on a command that prints no progress of its own: the progress
// reports of long work (common/progress.hpp) stay silent. Every command
// takes -q; those with notes of their own add their own flag.
void add_quiet_flag(CLI::App& command);

// UsageError when an option that shapes a generated schedule (layout,
// collective, algorithm and its options, sizes) is given with --from.
void refuse_generation_options_with_from(CLI::App& command);

// UsageError when `schedule` (read from `path`) does not fit `machine`: the
// checks of algo::layout_of_schedule.
void check_schedule_fits(const sched::Schedule& schedule, std::shared_ptr<const topo::Machine> machine,
                         const std::string& path);

// -n/--iterations and --warmup (when `warmup` is not null), with their
// ranges; their defaults are exec::iterations_by_size(_warmup), the same
// for every command that executes.
void add_iteration_options(CLI::App& command, int& iterations, int* warmup);

// The cost model's last-level-cache domain of each rank of `schedule` on
// `machine` (what the DOT picture clusters by).
std::vector<int> llc_domains_of_ranks(const sched::Schedule& schedule, const topo::Machine& machine);

// A path a command reads or writes, by the option that names it.
struct CommandPath {
    std::string option;  // "-o", "--trace", "--params"...
    std::string path;
    bool output = false;
};

// UsageError when an output and another path of `paths` (an output or an
// input) name the same file, symlinks followed; inputs that are no file
// (a bundled name, "live") and empty paths are left out. "-" is standard
// output for an output, standard input for an input.
void check_distinct_paths(const std::vector<CommandPath>& paths);

// A folder command's output folder (common/output_folder.hpp), its manifest
// headed by the command and this run's provenance; UsageError when an input
// of `inputs` is a file of the folder's earlier run, which the run would
// replace or remove.
std::unique_ptr<OutputFolder> open_output_folder(const std::string& path, const std::string& command,
                                                 const std::vector<CommandPath>& inputs = {},
                                                 OutputFolder::Scope scope = {});

}  // namespace numacoll::cli

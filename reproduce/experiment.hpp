// reproduce::Experiment: simulates one setting of a paper's experiment (a
// machine, its parameters, a layout, a collective) and remembers the result,
// so that findings that share settings simulate them once; and says which
// `numacoll sim` command gives the same number.
//
// Invariant: a setting's time is what `numacoll sim` prints for its command
// (the same generator, platform and engine).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"
#include "sim/platform_model.hpp"
#include "topologies/machine.hpp"

namespace numacoll::reproduce {

struct Setting {
    std::string topology;        // bundled name, synthetic:..., or a file
    std::string params;          // "" = the machine's own
    int nodes = 1;
    int ranks_per_node = 0;      // 0 = one per core
    std::vector<int> pus;        // placement list (logical PUs), empty = compact
    sched::Collective collective = sched::Collective::allreduce;
    std::string algorithm = "tree";
    std::uint64_t bytes = 8;
    int root = 0;
    std::map<std::string, std::string> options;
};

// The `numacoll sim` command line that simulates `settings` (one size each,
// or several sizes of otherwise equal settings).
std::string sim_command(const Setting& setting, const std::vector<std::uint64_t>& sizes = {},
                        const std::vector<std::string>& algorithms = {});

// UsageError when `substitute` cannot stand for bundled machine `name` in
// its findings: fewer packages or NUMA nodes than `name` has (the findings
// compare sockets and NUMA distances), or, for opteron8218, fewer NICs (the
// NUIOA findings place processes near it). `path` names it in the message.
// The PUs a finding names are checked as its settings are laid out.
void check_substitute(const std::string& name, const std::string& path, const topo::Machine& substitute);

// What identifies a setting's simulation (its time is a function of it).
std::string setting_key(const Setting& setting);

class Experiment {
public:
    // `check_only`: nothing is simulated; each setting is checked as `numacoll
    // sim` checks one before generating it (its layout, sizes, root, the task
    // bound's estimate) and counted, and time_ns returns the estimate's task
    // count (a lower bound) in its place, so that the findings' code runs
    // through: a run's settings are all checked before it starts. Nothing of
    // it is a result.
    explicit Experiment(bool quiet, bool check_only = false) : quiet_(quiet), check_only_(check_only) {}

    // Simulates machine `name` (a bundled one) from `topology` instead (an
    // hwloc XML export of a real node), with `name`'s parameters.
    void substitute(const std::string& name, const std::string& topology) { substitutes_[name] = topology; }
    // The setting as it is simulated: substitutions applied.
    Setting resolved(Setting setting) const;

    // Simulated time of one collective, in ns.
    double time_ns(const Setting& setting);
    // The simulations the findings needed (each distinct setting once).
    std::size_t simulations() const { return simulations_; }

    // A checking experiment's settings, resolved, in the order first asked
    // for, each with its task estimate: what a run simulates, which
    // processes of an MPI job can share out (cli/sweep_spreading.hpp).
    const std::vector<std::pair<Setting, double>>& checked_settings() const { return checked_; }
    // A setting's time simulated elsewhere (another process, a journal):
    // time_ns returns it without simulating, and counts it once it is asked for.
    void know(const Setting& resolved_setting, double ns) { known_[setting_key(resolved_setting)] = ns; }

private:
    const sim::PlatformModel& platform(const Setting& setting);
    std::shared_ptr<const topo::Machine> machine(const std::string& topology);

    bool quiet_;
    bool check_only_;
    std::size_t simulations_ = 0;
    std::map<std::string, std::shared_ptr<const topo::Machine>> machines_;
    std::map<std::string, std::unique_ptr<sim::PlatformModel>> platforms_;
    std::map<std::string, double> times_;
    std::map<std::string, double> known_;
    std::vector<std::pair<Setting, double>> checked_;
    std::map<std::string, std::string> substitutes_;
};

}  // namespace numacoll::reproduce

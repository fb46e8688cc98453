// numacoll/machine.hpp: where a collective runs. A Machine is one node's
// topology as hwloc describes it; Params are the cost figures the simulator
// and the closed-form models charge on it (bundled, from a file, or
// measured here by calibrate()); a Layout places ranks on the cores of one
// or more such nodes.
//
// Invariants: every object holds a complete, checked value (the loaders
// throw numacoll::UsageError or InputError otherwise), and copies share it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace numacoll {

namespace topo {
struct Machine;
}
namespace costs {
struct Params;
}
namespace algo {
struct Layout;
}
namespace api {
struct Access;
}

class Machine {
public:
    // "westmere", "magnycours", "opteron8218", "haswell" (bundled), "live"
    // (this machine, through hwloc), "synthetic:Package:2 Core:8" (hwloc's
    // synthetic description), or the path of an hwloc XML file.
    static Machine load(const std::string& spec);
    static std::vector<std::string> bundled_names();

    const std::string& name() const;
    const std::string& source() const;
    int cores() const;
    int pus() const;
    int packages() const;
    int numa_nodes() const;
    // Loaded by hwloc from the machine this process runs on (what execute() needs).
    bool is_this_system() const;
    // The summary `numacoll topo` prints.
    std::string describe() const;

private:
    friend struct api::Access;
    Machine() = default;  // made by the functions above only
    std::shared_ptr<const topo::Machine> machine_;
};

class Params {
public:
    // `spec` names a bundled set (westmere, magnycours, opteron8218, haswell,
    // generic) or a JSON file; empty: the set bundled for `machine`, else
    // the generic one (generic() says so).
    static Params for_machine(const Machine& machine, const std::string& spec = "");

    // Measures `live` (Machine::load("live")) with the microbenchmarks and
    // fits a set on top of `base`; `quick` takes under a minute. Each line
    // of progress goes to `progress` when given.
    static Params calibrate(const Machine& live, bool quick, const std::string& base = "generic",
                            const std::function<void(const std::string& line)>& progress = {});

    // "bundled:westmere", a file path, or "calibrated:HOST".
    const std::string& origin() const;
    bool generic() const;
    // The file format Params::for_machine(machine, FILE) reads back.
    std::string to_json() const;

private:
    friend struct api::Access;
    Params() = default;  // made by the functions above only
    std::shared_ptr<const costs::Params> params_;
};

struct LayoutOptions {
    int nodes = 1;
    int ranks_per_node = 0;             // 0: one rank per core
    std::string placement = "compact";  // compact, scatter or list
    std::vector<int> pus{};             // logical PUs, for placement "list"
    bool oversubscribe = false;         // more ranks than PUs, wrapped around them
};

struct RankPlace {
    int node = 0;
    int core = 0;  // logical indices on the rank's node
    int pu = 0;
    int numa = -1;
    int package = -1;
};

class Layout {
public:
    // UsageError for impossible requests (more ranks than PUs, no nodes...).
    static Layout place(const Machine& machine, const LayoutOptions& options = {});

    int ranks() const;
    int nodes() const;
    int ranks_per_node() const;
    RankPlace rank(int rank) const;
    Machine machine() const;

private:
    friend struct api::Access;
    Layout() = default;  // made by the functions above only
    std::shared_ptr<const algo::Layout> layout_;
};

}  // namespace numacoll

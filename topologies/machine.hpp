// topo::Machine: the hardware tree of one node, as hwloc describes it.
//
// Invariants:
// - objects[0] is the Machine object; every other object has a parent whose
//   index is smaller than its own (objects are stored in depth-first order).
// - Logical indexes (hwloc's L#, dense, per kind, in topology order) and OS
//   indexes (P#, as the operating system numbers them, possibly sparse or
//   unknown = -1) are never mixed: fields say which one they hold.
// - cores[i] is the object index of the core with logical index i; the same
//   for pus, packages and numa_nodes. Caches are grouped per level.
// - Every core has at least one PU. Every PU belongs to exactly one core
//   (machines whose hwloc description lacks Core objects get one core per PU,
//   with subtype "synthetic" and os_index -1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace numacoll::topo {

enum class ObjectKind { machine, package, group, numa_node, die, cache, core, pu };

const char* to_string(ObjectKind kind);

struct Object {
    ObjectKind kind = ObjectKind::machine;
    int logical_index = 0;   // hwloc L#, dense per kind (per cache level for caches)
    int os_index = -1;       // hwloc P#, -1 when unknown
    int parent = -1;         // index into Machine::objects, -1 for the root
    std::vector<int> children;  // indexes into Machine::objects (NUMA nodes included)
    // Caches only: level (1, 2, 3...), unified/data/instruction, sizes.
    int cache_level = 0;
    std::string cache_type;          // "unified", "data" or "instruction"
    std::uint64_t cache_bytes = 0;
    int cache_line_bytes = 0;
    // NUMA nodes only: local memory.
    std::uint64_t memory_bytes = 0;
    // Logical core indexes and logical PU indexes below (or sharing) this object.
    // For a NUMA node: the cores local to it.
    std::vector<int> cores;
    std::vector<int> pus;
    std::string subtype;  // hwloc subtype or name, e.g. "Die", "Core Complex"
};

enum class IoKind { network, openfabrics, gpu, other };

const char* to_string(IoKind kind);

// An I/O device (hwloc OS device) with its locality.
struct IoDevice {
    IoKind kind = IoKind::other;
    std::string name;         // OS name, e.g. "ib0", "mlx4_0", "cuda0"
    std::string subtype;      // hwloc subtype, e.g. "OpenFabrics", "CUDA"
    std::string pci_busid;    // "0000:02:00.0" when behind a PCI device, else ""
    // Locality, from hwloc's first non-I/O ancestor of the device: -1 when that
    // ancestor spans the whole machine and the machine has several of them.
    int numa_node = -1;       // logical index of the nearest NUMA node, -1 if unknown
    int package = -1;         // logical index of the package it hangs below, -1 if unknown
    std::vector<int> local_cores;  // logical cores of its locality (empty if unknown)
};

// NUMA distance matrix (hwloc "NUMALatency" or v1 latency matrix), relative
// values such as 10/16/22, row-major over numa_nodes (logical order).
// When hwloc holds several latency matrices, the one named "NUMALatency" wins,
// else hwloc's first; a matrix that misses some NUMA node is left out.
struct Distances {
    std::string name;  // e.g. "NUMALatency"
    int count = 0;
    std::vector<double> values;  // count * count
    double at(int from_numa, int to_numa) const { return values[from_numa * count + to_numa]; }
};

struct Machine {
    std::string name;    // bundled name, file name, "synthetic" or "live"
    std::string source;  // the spec it was loaded from ("live (...)" when hwloc was told to read another machine)
    // Loaded by hwloc's discovery of the machine this process runs on: false
    // for files and synthetic descriptions, and for "live" when an hwloc
    // override (HWLOC_XMLFILE, HWLOC_SYNTHETIC, HWLOC_FSROOT...) made hwloc
    // describe another machine; pinning to it would then be meaningless.
    bool this_system = false;
    std::string cpu_model;  // hwloc CPUModel info when known

    std::vector<Object> objects;
    std::vector<int> packages;
    std::vector<int> groups;
    std::vector<int> numa_nodes;
    std::vector<int> dies;
    std::vector<int> cores;
    std::vector<int> pus;
    std::vector<int> cache_levels;  // levels present, ascending, e.g. {1, 2, 3}
    std::vector<IoDevice> io_devices;
    std::optional<Distances> distances;

    // What names this machine in outputs, and loads it again: the spec it was
    // loaded from, else its name.
    const std::string& label() const { return source.empty() ? name : source; }

    int core_count() const { return static_cast<int>(cores.size()); }
    int pu_count() const { return static_cast<int>(pus.size()); }
    const Object& core(int logical) const { return objects[cores[logical]]; }
    const Object& pu(int logical) const { return objects[pus[logical]]; }

    // Caches of one level (data or unified; instruction caches excluded), logical order.
    std::vector<int> caches_at_level(int level) const;
    // The largest cache level present (0 when there are no caches).
    int last_level_cache() const;

    // Logical index of the package / NUMA node / die of a logical core, -1 if none.
    int package_of_core(int core) const;
    int numa_of_core(int core) const;
    int die_of_core(int core) const;
    // Object index of the cache of that level holding the core, -1 if none.
    int cache_of_core(int core, int level) const;
    // The core's PUs (logical indexes), in logical order.
    const std::vector<int>& pus_of_core(int core) const { return this->core(core).pus; }
    // Logical index of the core of a logical PU.
    int core_of_pu(int pu) const;

    // Chain of object indexes from the core up to the machine (the core first).
    std::vector<int> ancestors_of_core(int core) const;

    // Network interfaces (network or OpenFabrics devices).
    std::vector<const IoDevice*> nics() const;
};

// Where to load a Machine from. The spec grammar, as the CLI accepts it:
//   "live"                    this machine, through hwloc's native discovery
//   "synthetic:DESCRIPTION"   an hwloc synthetic description (quotes optional)
//   a bundled name            "westmere", "magnycours" (see bundled_names())
//   "-"                       hwloc XML read from standard input
//   anything else             a path to an hwloc XML file (v1 or v2 format)
// Throws InputError (missing/unreadable/malformed/unsupported file) or
// UsageError (bad synthetic description, unknown name that is not a file).
Machine load_machine(const std::string& spec);

Machine load_live();
Machine load_xml_file(const std::string& path);
// XML text already in memory; `label` names it in messages and as the
// machine's name and source.
Machine load_xml_text(const std::string& text, const std::string& label);
// hwloc requires PU as the last synthetic level; a description that ends
// above it (e.g. "Package:7 Core:1") gets one PU per leaf object.
Machine load_synthetic(const std::string& description);
Machine load_bundled(const std::string& name);

std::vector<std::string> bundled_names();

// How two descriptions differ as hardware (PUs, their OS indexes and cores,
// cores, packages, NUMA nodes), in a few words; empty when they describe
// the same machine (a saved hwloc export of this machine and its discovery).
std::string hardware_difference(const Machine& first, const Machine& second);

// Human-readable multi-line summary (what `numacoll topo` prints).
std::string describe(const Machine& machine);
// JSON text of the whole model (what `numacoll topo --json` prints).
std::string to_json(const Machine& machine);

}  // namespace numacoll::topo

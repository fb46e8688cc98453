// tune::whatif: machines that do not exist, made from one that does by
// changing one or two of its properties, and where the best algorithm moves
// across them.
//
// A variant changes machine keys, node keys or params keys:
// - machine keys, through an hwloc synthetic description of a regular node:
//   `packages`, `numa_per_package`, `llc_per_package` (last-level caches per
//   package, a multiple of numa_per_package: each NUMA node holds whole
//   caches), `cores_per_llc`; and `nic_numa`, the NUMA node the NIC hangs
//   off (a NIC placed there, replacing the machine's own);
// - `nodes`, the number of such nodes;
// - any figure of the params file by its path, e.g.
//   `levels.other_socket.bandwidth_bytes_per_ns` (its value replaced, its
//   source saying so).
// The machine keys of the base come from the base machine, which must then
// be regular (every package alike); the results name each variant's
// synthetic description, so that `numacoll sim -t "synthetic:..."` runs it.
//
// The crossover of a variant is the first swept size at which the best
// algorithm is no longer the best algorithm at the smallest size.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "costs/params.hpp"
#include "topologies/machine.hpp"

namespace numacoll::tune {

struct NodeShape {
    int packages = 1;
    int numa_per_package = 1;
    int llc_per_package = 1;
    int cores_per_llc = 1;
    int nic_numa = 0;
    int nodes = 1;
};

// The shape of a regular machine: UsageError naming what is irregular.
NodeShape shape_of(const topo::Machine& machine);

// "Package:2 NUMANode:1 L3Cache:4 Core:16": the hwloc synthetic description.
std::string synthetic_description(const NodeShape& shape);

// The machine of a shape: hwloc's synthetic machine with a NIC on
// shape.nic_numa (UsageError when that NUMA node does not exist).
topo::Machine machine_of(const NodeShape& shape);

struct VaryKey {
    std::string key;                 // "cores_per_llc", or a params path
    std::vector<std::string> values;  // as given
    bool machine_key() const;        // a key of NodeShape (nodes included)
};

// "cores_per_llc=4,8,16": UsageError for a malformed item, an unknown
// machine key, or a value out of range.
VaryKey parse_vary(const std::string& text);

// The shape with `key` set (a machine key); UsageError for a bad value.
NodeShape with_key(NodeShape shape, const std::string& key, const std::string& value);

// The params with the figure at `path` replaced: UsageError when the path
// names no figure of the file, or the value is not a positive number.
costs::Params with_figure(const costs::Params& params, const std::string& path, const std::string& value);

// The first size whose best algorithm differs from the smallest size's;
// none when one algorithm wins everywhere. `best` is in ascending sizes.
std::optional<std::size_t> first_crossover(const std::vector<std::string>& best);

}  // namespace numacoll::tune

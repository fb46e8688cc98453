// Leader election for leader-based collectives (NUIOA paper, section 3.2).
//
// A leader represents its node on the network. Two rules:
// - default: the leader has the root's local rank (Open MPI's hierarchical
//   component does this, so the leaders' load follows the root);
// - nic: the leader is a rank on the NUMA node of the node's network
//   interface, read from hwloc's I/O locality, because receiving far from
//   the NIC makes the data cross the memory interconnect twice. With several
//   NICs, the one nearest the default leader is used (same NUMA node first,
//   then the smallest NUMA distance). Among the ranks near that NIC the one
//   with the root's local rank is kept if it qualifies, else the lowest.
// A node without a NIC, or with no rank near it, falls back to default.
// Nodes are identical copies of one machine, so the rule gives the same
// local rank on every node; the root's own node is led by the root.
#pragma once

#include <string>

#include "algorithms/ir.hpp"
#include "algorithms/layout.hpp"

namespace numacoll::algo {

enum class LeaderRule { default_rank, nic };

LeaderRule parse_leader_rule(const std::string& text);  // "default", "nic"
OptionInfo leader_option();
// The rule an algorithm's leader_option() asks for; UsageError naming the algorithm on a bad value.
LeaderRule read_leader_rule(const OptionReader& reader);

// The local rank that leads every node but the root's.
int leader_local_rank(const Layout& layout, int root, LeaderRule rule);

// The global rank that leads `node`: the root on its own node.
int node_leader(const Layout& layout, int root, LeaderRule rule, int node);

}  // namespace numacoll::algo

// Flat, Open MPI-style algorithms on any group of ranks (Goglin et al.,
// hierarchical communicators, section 6: the six broadcasts and six
// reductions whose hierarchical versions the paper measures). They see the
// group as a list of ranks, the root first, and ignore where the ranks are:
// that is what makes them flat. The hierarchical versions (hier-X) run the
// same code on each level's roots group.
//
// Shapes, as Open MPI's coll/tuned builds them:
// - linear: the root talks to every other rank;
// - chain: `fanout` chains hang from the root (pipeline: one chain);
// - binary: a balanced binary tree in group order, level by level
//   (ompi_coll_base_topo_build_tree, fanout 2: 0 -> 1, 2; 1 -> 3, 5; 2 -> 4, 6);
// - binomial: a binomial tree in group order, each position's children
//   above its highest bit (ompi_coll_base_topo_build_bmtree, the broadcast's);
// - in_order_binomial: each position's children below its lowest set bit
//   (ompi_coll_base_topo_build_in_order_bmtree, the reduction's);
// - knomial: a k-nomial tree of radix `fanout`, each position's children
//   pos + r k^j for the levels below its lowest nonzero digit in base k,
//   the highest level first (ompi_coll_base_topo_build_kmtree, Open MPI's
//   knomial broadcast).
// Children always come after their parent in group order, so a walk in
// group order is a topological order of the tree.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "algorithms/patterns/point_to_point.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

enum class FlatShape { linear, chain, binary, binomial, in_order_binomial, knomial };

struct FlatTree {
    std::vector<int> ranks;                  // global ranks, the root first
    std::vector<int> parent;                 // by position; -1 for the root
    std::vector<std::vector<int>> children;  // by position, in sending order
};

FlatTree make_flat_tree(FlatShape shape, std::vector<int> ranks, int fanout);

// The chunk flows from the root down the tree; every rank receives it into home(rank).
void flat_tree_bcast(PointToPoint& p2p, const FlatTree& tree, ChunkState& state, const HomeOf& home);

// Every rank folds its children's partials into home(rank), leaves first; the
// root ends up with the reduction of the group.
void flat_tree_reduce(PointToPoint& p2p, const FlatTree& tree, ChunkState& state, const HomeOf& home);

// Split-binary broadcast: each half of the chunk goes down one subtree of
// the root's binary tree, then ranks of the two subtrees swap halves in
// pairs; a rank left without a partner gets its missing half from the root.
void split_binary_bcast(PointToPoint& p2p, const std::vector<int>& ranks, ChunkState& state, const HomeOf& home);

// In-order binary reduction: a binary tree over the group in ascending rank
// order where every rank folds left subtree, itself, right subtree in that
// order (correct for non-commutative operators); the tree's top then sends
// the result into the root's home. (The root's own partial in the tree may
// sit in that home too: the top's result depends on it, so it has been read
// before it is overwritten.)
void in_order_binary_reduce(PointToPoint& p2p, std::vector<int> ranks, int root, ChunkState& state,
                            const HomeOf& home);

// The flat algorithms by name, for bcast and reduce.
enum class FlatAlgorithm { linear, chain, pipeline, split_binary, binary, binomial, in_order_binary, knomial };
struct FlatAlgorithmInfo {
    FlatAlgorithm algorithm;
    std::string name;
    std::string summary;
};
const std::vector<FlatAlgorithmInfo>& flat_bcast_algorithms();
const std::vector<FlatAlgorithmInfo>& flat_reduce_algorithms();

// The options of a flat algorithm: the segment size, fanout for chain, radix for knomial.
std::vector<OptionInfo> flat_options(FlatAlgorithm algorithm, bool reduction);

// The registry entry of a flat bcast/reduce or of its hier- version: name,
// summary, source and options; the caller adds its own options and generate.
AlgorithmInfo flat_algorithm_info(Collective collective, const FlatAlgorithmInfo& flat, bool hierarchical);
// The segment option in bytes, cut down to whole elements of `element` bytes
// (1: any count of bytes).
std::uint64_t segment_bytes(const OptionReader& reader, std::uint64_t element);

// Runs flat algorithm `algorithm` over `group` (root first) for one chunk.
// `home(rank)` is where a rank keeps the chunk; for reductions the root's
// home holds the result and others' homes are temps.
void run_flat_bcast(FlatAlgorithm algorithm, int fanout, PointToPoint& p2p, const std::vector<int>& group,
                    ChunkState& state, const HomeOf& home);
void run_flat_reduce(FlatAlgorithm algorithm, int fanout, PointToPoint& p2p, const std::vector<int>& group,
                     ChunkState& state, const HomeOf& home);

}  // namespace numacoll::algo

#include "algorithms/patterns/flat_trees.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.hpp"

namespace numacoll::algo {

FlatTree make_flat_tree(FlatShape shape, std::vector<int> ranks, int fanout) {
    const int count = static_cast<int>(ranks.size());
    FlatTree tree;
    tree.ranks = std::move(ranks);
    tree.parent.assign(count, -1);
    tree.children.resize(count);
    const auto link = [&](int parent, int child) {
        tree.parent[child] = parent;
        tree.children[parent].push_back(child);
    };
    switch (shape) {
        case FlatShape::linear:
            for (int pos = 1; pos < count; ++pos) link(0, pos);
            break;
        case FlatShape::chain: {
            // `fanout` chains of nearly equal length over positions 1..count-1.
            const int others = count - 1;
            const int chains = std::max(1, std::min(fanout, others));
            int pos = 1;
            for (int chain = 0; chain < chains; ++chain) {
                const int length = others / chains + (chain < others % chains ? 1 : 0);
                for (int k = 0; k < length; ++k, ++pos) link(k == 0 ? 0 : pos - 1, pos);
            }
            break;
        }
        case FlatShape::binary:
            // Open MPI's ompi_coll_base_topo_build_tree with fanout 2: the
            // positions of level L (2^L - 1 .. 2^(L+1) - 2) have their
            // children 2^L and 2^(L+1) further on, so 0 -> 1, 2; 1 -> 3, 5;
            // 2 -> 4, 6 (not the heap's 1 -> 3, 4).
            for (int pos = 0, level_size = 1, level_end = 1; pos < count; ++pos) {
                if (pos == level_end) level_size *= 2, level_end += level_size;
                for (int child : {pos + level_size, pos + 2 * level_size})
                    if (child < count) link(pos, child);
            }
            break;
        case FlatShape::binomial:
            // Open MPI's ompi_coll_base_topo_build_bmtree (its binomial
            // broadcast): the children of position i are i + 2^k for every
            // 2^k above i, smallest first: 0 -> 1, 2, 4, ...; 1 -> 3, 5, ...
            for (int pos = 0; pos < count; ++pos) {
                int mask = 1;
                while (mask <= pos) mask <<= 1;
                for (; pos + mask < count; mask <<= 1) link(pos, pos + mask);
            }
            break;
        case FlatShape::knomial: {
            const int radix = std::max(2, fanout);
            for (int pos = 0; pos < count; ++pos) {
                long mask = 1;  // pos's level: its lowest nonzero digit in base `radix` (the root: above every rank)
                while (mask < count && pos % (radix * mask) == 0) mask *= radix;
                for (mask /= radix; mask > 0; mask /= radix)
                    for (int r = 1; r < radix; ++r)
                        if (pos + r * mask < count) link(pos, static_cast<int>(pos + r * mask));
            }
            break;
        }
        case FlatShape::in_order_binomial:
            // Children of position i are i + 2^k for every 2^k below i's lowest set
            // bit (ompi_coll_base_topo_build_in_order_bmtree: its binomial
            // reduction and gather); the largest subtree is served first.
            for (int pos = 0; pos < count; ++pos) {
                int limit = 1;
                while (limit < count && (pos & limit) == 0) limit <<= 1;
                for (int mask = limit >> 1; mask >= 1; mask >>= 1)
                    if (pos + mask < count) link(pos, pos + mask);
            }
            break;
    }
    return tree;
}

void flat_tree_bcast(PointToPoint& p2p, const FlatTree& tree, ChunkState& state, const HomeOf& home) {
    for (std::size_t pos = 0; pos < tree.ranks.size(); ++pos)
        for (int child : tree.children[pos])
            p2p.deliver(state, tree.ranks[pos], tree.ranks[child], home(tree.ranks[child]),
                        fmt::format("bcast{}-{}", tree.ranks[pos], tree.ranks[child]));
}

void flat_tree_reduce(PointToPoint& p2p, const FlatTree& tree, ChunkState& state, const HomeOf& home) {
    // Deepest positions first: a rank folds into its parent once its own children are in.
    for (int pos = static_cast<int>(tree.ranks.size()) - 1; pos >= 1; --pos) {
        const int parent = tree.ranks[tree.parent[pos]];
        p2p.fold(state, tree.ranks[pos], parent, home(parent), false,
                 fmt::format("reduce{}-{}", tree.ranks[pos], parent));
    }
}

void split_binary_bcast(PointToPoint& p2p, const std::vector<int>& ranks, ChunkState& state, const HomeOf& home) {
    const FlatTree tree = make_flat_tree(FlatShape::binary, ranks, 2);
    const int count = static_cast<int>(ranks.size());
    // Which subtree of the root (0: left, 1: right) each position is in, in group order.
    std::vector<int> side(count, -1);
    std::vector<int> members[2];
    for (int pos = 1; pos < count; ++pos) {
        side[pos] = pos <= 2 ? pos - 1 : side[tree.parent[pos]];
        members[side[pos]].push_back(pos);
    }
    // Halves on element boundaries, as MPI cuts a count of its datatype.
    const std::uint64_t element = element_bytes(p2p.builder().spec());
    const std::uint64_t first_bytes = state.bytes / 2 - (state.bytes / 2) % element;
    ChunkState half[2] = {state, state};
    half[0].bytes = first_bytes;
    half[1].offset = state.offset + first_bytes;
    half[1].bytes = state.bytes - first_bytes;
    for (int h = 0; h < 2; ++h) {
        half[h].tag = state.tag + (h == 0 ? "a" : "b");
        for (auto& range : half[h].partial)
            if (range.buffer >= 0) range = {range.buffer, half[h].offset, half[h].bytes};
    }
    const auto home_of_half = [&](int h) {
        return [&, h](int rank) {
            const Range whole = home(rank);
            return Range{whole.buffer, half[h].offset, half[h].bytes};
        };
    };
    // Down the tree: half h only inside subtree h.
    for (int pos = 0; pos < count; ++pos)
        for (int child : tree.children[pos]) {
            const int h = side[child];
            p2p.deliver(half[h], ranks[pos], ranks[child], home_of_half(h)(ranks[child]),
                        fmt::format("split{}-{}", ranks[pos], ranks[child]));
        }
    // Swap: the k-th rank of each subtree gives its half to the k-th of the other.
    for (int h = 0; h < 2; ++h)
        for (std::size_t k = 0; k < members[1 - h].size(); ++k) {
            const int receiver = ranks[members[1 - h][k]];
            const int giver = k < members[h].size() ? ranks[members[h][k]] : ranks[0];
            p2p.deliver(half[h], giver, receiver, home_of_half(h)(receiver),
                        fmt::format("swap{}-{}", giver, receiver));
        }
    // The chunk is where both halves are; it is ready when both are.
    for (int pos = 0; pos < count; ++pos) {
        const int rank = ranks[pos];
        if (pos > 0) state.partial[rank] = home(rank);
        std::vector<int> ready = half[0].ready[rank];
        for (int task : half[1].ready[rank])
            if (std::find(ready.begin(), ready.end(), task) == ready.end()) ready.push_back(task);
        state.ready[rank] = ready;
    }
}

namespace {

// Reduces positions [lo, hi) of `ranks` in order into their middle rank; returns it.
int in_order_subtree(PointToPoint& p2p, const std::vector<int>& ranks, int lo, int hi, ChunkState& state,
                     const HomeOf& home) {
    const int mid = lo + (hi - lo) / 2;
    const int me = ranks[mid];
    if (mid > lo) {
        const int left = in_order_subtree(p2p, ranks, lo, mid, state, home);
        p2p.fold(state, left, me, home(me), true, fmt::format("inorder{}-{}", left, me));
    }
    if (mid + 1 < hi) {
        const int right = in_order_subtree(p2p, ranks, mid + 1, hi, state, home);
        p2p.fold(state, right, me, home(me), false, fmt::format("inorder{}-{}", right, me));
    }
    return me;
}

}  // namespace

void in_order_binary_reduce(PointToPoint& p2p, std::vector<int> ranks, int root, ChunkState& state,
                            const HomeOf& home) {
    std::sort(ranks.begin(), ranks.end());
    const int top = in_order_subtree(p2p, ranks, 0, static_cast<int>(ranks.size()), state, home);
    if (top != root) p2p.deliver(state, top, root, home(root), fmt::format("inorder-result{}-{}", top, root));
}

const std::vector<FlatAlgorithmInfo>& flat_bcast_algorithms() {
    static const std::vector<FlatAlgorithmInfo> list = {
        {FlatAlgorithm::linear, "linear", "the root sends to every rank; few ranks, small vectors"},
        {FlatAlgorithm::chain, "chain", "segments flow down `fanout` chains from the root; large vectors"},
        {FlatAlgorithm::pipeline, "pipeline", "segments flow down one chain; large vectors, many segments"},
        {FlatAlgorithm::split_binary, "split-binary",
         "each half down one side of a binary tree, then the sides swap halves; medium and large vectors"},
        {FlatAlgorithm::binary, "binary", "balanced binary tree, segmented; medium vectors"},
        {FlatAlgorithm::binomial, "binomial", "binomial tree, log2 p steps; small vectors"},
        {FlatAlgorithm::knomial, "knomial", "k-nomial tree of `radix`, log_k p steps of k - 1 children; small vectors"},
    };
    return list;
}

const std::vector<FlatAlgorithmInfo>& flat_reduce_algorithms() {
    static const std::vector<FlatAlgorithmInfo> list = {
        {FlatAlgorithm::linear, "linear", "the root folds every rank's vector in turn; few ranks"},
        {FlatAlgorithm::chain, "chain", "segments are folded along `fanout` chains toward the root; large vectors"},
        {FlatAlgorithm::pipeline, "pipeline", "segments are folded along one chain; large vectors"},
        {FlatAlgorithm::binary, "binary", "balanced binary tree, segmented; medium vectors"},
        {FlatAlgorithm::binomial, "binomial", "binomial tree, log2 p steps; small vectors"},
        {FlatAlgorithm::in_order_binary, "in-order-binary",
         "binary tree folding in rank order, for non-commutative operators"},
    };
    return list;
}

std::vector<OptionInfo> flat_options(FlatAlgorithm algorithm, bool reduction) {
    const bool pipelined = algorithm == FlatAlgorithm::chain || algorithm == FlatAlgorithm::pipeline;
    std::vector<OptionInfo> options = {
        {"segment", pipelined ? "64KiB" : "0",
         std::string("segment size for pipelining, 0 = unsegmented") + (reduction ? " (whole elements)" : "")}};
    if (algorithm == FlatAlgorithm::chain) options.push_back({"fanout", "4", "number of chains from the root (>= 1)", {"1", "2"}});
    // Open MPI's coll_tuned_bcast_knomial_radix, 4 by default.
    if (algorithm == FlatAlgorithm::knomial) options.push_back({"radix", "4", "children per level, k (>= 2)", {"2", "3"}});
    return options;
}

AlgorithmInfo flat_algorithm_info(Collective collective, const FlatAlgorithmInfo& flat, bool hierarchical) {
    const bool reduction = collective == Collective::reduce;
    AlgorithmInfo info;
    info.collective = collective;
    info.name = (hierarchical ? "hier-" : "") + flat.name;
    info.ranks = RankKind::process;
    info.options = flat_options(flat.algorithm, reduction);
    if (hierarchical) {
        info.summary = reduction
                           ? fmt::format("{} on each level's roots group, bottom-up (caches, packages, network)", flat.name)
                           : fmt::format("{} on each level's roots group, top-down; one copy enters each group", flat.name);
        info.source = fmt::format("Goglin et al., hierarchical communicators, sections 3.2.3 and 6 (Figures {})",
                                  reduction ? "8-10" : "5-7");
    } else {
        info.summary = flat.summary;
        info.source = "Open MPI coll/tuned, as measured in Goglin et al., section 6";
    }
    return info;
}

std::uint64_t segment_bytes(const OptionReader& reader, std::uint64_t element) {
    std::uint64_t bytes = reader.bytes("segment");
    if (element <= 1 || bytes == 0) return bytes;
    bytes -= bytes % element;
    if (bytes == 0)
        throw UsageError(fmt::format("option segment of a reduction must be 0 or at least {} bytes (got '{}')",
                                     element, reader.text("segment")));
    return bytes;
}

namespace {

// Open MPI builds the binomial broadcast's tree one way and the binomial
// reduction's another (ompi/mca/coll/base/coll_base_topo.c).
FlatShape shape_of(FlatAlgorithm algorithm, bool bcast) {
    switch (algorithm) {
        case FlatAlgorithm::linear: return FlatShape::linear;
        case FlatAlgorithm::chain:
        case FlatAlgorithm::pipeline: return FlatShape::chain;
        case FlatAlgorithm::binomial: return bcast ? FlatShape::binomial : FlatShape::in_order_binomial;
        case FlatAlgorithm::knomial: return FlatShape::knomial;
        default: return FlatShape::binary;
    }
}

int fanout_of(FlatAlgorithm algorithm, int fanout) { return algorithm == FlatAlgorithm::pipeline ? 1 : fanout; }

}  // namespace

void run_flat_bcast(FlatAlgorithm algorithm, int fanout, PointToPoint& p2p, const std::vector<int>& group,
                    ChunkState& state, const HomeOf& home) {
    if (algorithm == FlatAlgorithm::split_binary) return split_binary_bcast(p2p, group, state, home);
    flat_tree_bcast(p2p, make_flat_tree(shape_of(algorithm, true), group, fanout_of(algorithm, fanout)), state, home);
}

void run_flat_reduce(FlatAlgorithm algorithm, int fanout, PointToPoint& p2p, const std::vector<int>& group,
                     ChunkState& state, const HomeOf& home) {
    if (algorithm == FlatAlgorithm::in_order_binary) return in_order_binary_reduce(p2p, group, group.front(), state, home);
    flat_tree_reduce(p2p, make_flat_tree(shape_of(algorithm, false), group, fanout_of(algorithm, fanout)), state, home);
}

}  // namespace numacoll::algo

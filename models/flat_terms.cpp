#include "models/flat_terms.hpp"

#include <algorithm>
#include <functional>

namespace numacoll::models {

std::vector<int> flat_tree_children(FlatTreeShape shape, int p, int fanout, int pos) {
    std::vector<int> children;
    switch (shape) {
        case FlatTreeShape::linear:
            if (pos == 0)
                for (int child = 1; child < p; ++child) children.push_back(child);
            break;
        case FlatTreeShape::chain: {
            // `fanout` chains of nearly equal length over positions 1..p-1.
            const int others = p - 1, chains = std::max(1, std::min(fanout, others));
            int first = 1;
            for (int chain = 0; chain < chains; ++chain) {
                const int length = others / chains + (chain < others % chains ? 1 : 0);
                if (length == 0) continue;
                if (pos == 0) children.push_back(first);
                if (pos >= first && pos < first + length - 1) children.push_back(pos + 1);
                first += length;
            }
            break;
        }
        case FlatTreeShape::binary:
            for (int child = 2 * pos + 1; child <= 2 * pos + 2 && child < p; ++child) children.push_back(child);
            break;
        case FlatTreeShape::knomial: {  // as algorithms/patterns/flat_trees.cpp builds it; fanout is the radix
            const int radix = std::max(2, fanout);
            long mask = 1;
            while (mask < p && pos % (radix * mask) == 0) mask *= radix;
            for (mask /= radix; mask > 0; mask /= radix)
                for (int r = 1; r < radix; ++r)
                    if (pos + r * mask < p) children.push_back(static_cast<int>(pos + r * mask));
            break;
        }
        case FlatTreeShape::binomial: {
            int limit = 1;
            while (limit < p && (pos & limit) == 0) limit <<= 1;
            for (int mask = limit >> 1; mask >= 1; mask >>= 1)
                if (pos + mask < p) children.push_back(pos + mask);
            break;
        }
    }
    return children;
}

namespace {

// Parents and depths of every position (children come after their parent).
struct TreeLevels {
    std::vector<std::vector<int>> children;
    std::vector<int> depth;
    std::vector<int> width;  // ranks at each depth
};

TreeLevels tree_levels(FlatTreeShape shape, int p, int fanout) {
    TreeLevels tree;
    tree.depth.assign(p, 0);
    tree.width.assign(p, 0);
    for (int pos = 0; pos < p; ++pos) tree.children.push_back(flat_tree_children(shape, p, fanout, pos));
    for (int pos = 0; pos < p; ++pos)
        for (int child : tree.children[pos]) tree.depth[child] = tree.depth[pos] + 1;
    for (int pos = 0; pos < p; ++pos) ++tree.width[tree.depth[pos]];
    return tree;
}

}  // namespace

double flat_tree_bcast_ns(FlatTreeShape shape, int p, int fanout, const P2pTerms& terms, double bytes,
                          double segment_bytes) {
    if (p <= 1) return 0;
    const TreeLevels tree = tree_levels(shape, p, fanout);
    const int segments = segment_count(bytes, segment_bytes);
    std::vector<double> have(p, 0);  // when each position has the current segment
    std::vector<double> busy(p, 0);  // when each position's thread is free
    for (int c = 0; c < segments; ++c) {
        const double m = segment_size(bytes, segment_bytes, c);
        for (int pos = 0; pos < p; ++pos)
            for (std::size_t j = 0; j < tree.children[pos].size(); ++j) {
                const int child = tree.children[pos][j];
                const int d = segments == 1 ? tree.width[tree.depth[child]] : p - 1;
                // The root's input is ready from the start and announced once.
                const double sent = (pos == 0 ? 0 : have[pos]) + static_cast<double>(j) * terms.send_overhead_ns;
                const double signalled = terms.network ? sent : sent + terms.signal_ns(d);
                have[child] = std::max(busy[child], signalled) + terms.copy_ns(m, d);
                busy[child] = have[child];
            }
    }
    return *std::max_element(have.begin(), have.end());
}

double flat_tree_reduce_ns(FlatTreeShape shape, int p, int fanout, const P2pTerms& terms, double bytes,
                           double segment_bytes) {
    if (p <= 1) return terms.local_copy_ns(bytes);  // the root alone copies its input to its output
    const TreeLevels tree = tree_levels(shape, p, fanout);
    const int segments = segment_count(bytes, segment_bytes);
    int leaves = 0;
    std::vector<int> parents_at(p, 0);  // ranks with children at each depth
    for (int pos = 0; pos < p; ++pos) {
        if (tree.children[pos].empty()) ++leaves;
        else ++parents_at[tree.depth[pos]];
    }
    std::vector<double> done(p, 0);  // when each position's partial of the current segment is complete
    for (int c = 0; c < segments; ++c) {
        const double m = segment_size(bytes, segment_bytes, c);
        for (int pos = p - 1; pos >= 0; --pos) {
            if (tree.children[pos].empty()) continue;
            double t = done[pos];  // program order: after its previous segment
            std::vector<int> order = tree.children[pos];
            std::sort(order.rbegin(), order.rend());  // the generator folds the last position first
            const int leaf_children = static_cast<int>(
                std::count_if(order.begin(), order.end(), [&](int child) { return tree.children[child].empty(); }));
            for (int child : order) {
                const bool leaf = tree.children[child].empty();
                const int d_signal = leaf ? leaves : parents_at[tree.depth[child]];
                const int d_fold = segments == 1 ? parents_at[tree.depth[pos]] : p - leaves;
                // A parent's leaves all raise their flags at once, into its one stream.
                const double ready = (leaf ? 0 : done[child]) + terms.signal_ns(d_signal, leaf ? leaf_children : 1);
                t = std::max(t, ready) + terms.fold_ns(m, d_fold);
            }
            done[pos] = t;
        }
    }
    return done[0];
}

double split_binary_bcast_ns(int p, const P2pTerms& terms, double bytes, double segment_bytes) {
    if (p <= 1) return 0;
    const TreeLevels tree = tree_levels(FlatTreeShape::binary, p, 2);
    std::vector<int> side(p, -1);
    std::vector<int> members[2];
    for (int pos = 1; pos < p; ++pos) {
        side[pos] = pos <= 2 ? pos - 1 : side[(pos - 1) / 2];
        members[side[pos]].push_back(pos);
    }
    const int segments = segment_count(bytes, segment_bytes);
    std::vector<double> down(p, 0), busy(p, 0), finished(p, 0);
    for (int c = 0; c < segments; ++c) {
        const double half = segment_size(bytes, segment_bytes, c) / 2;
        const int d = segments == 1 ? 0 : p - 1;
        for (int pos = 0; pos < p; ++pos)
            for (int child : tree.children[pos]) {
                const int dd = d > 0 ? d : tree.width[tree.depth[child]];
                const double signalled = (pos == 0 ? 0 : down[pos]) + terms.signal_ns(dd);
                down[child] = std::max(busy[child], signalled) + terms.copy_ns(half, dd);
                busy[child] = down[child];
            }
        // Swaps: half 0 into the right side, then half 1 into the left side.
        for (int h = 0; h < 2; ++h) {
            const auto& receivers = members[1 - h];
            const int dd = d > 0 ? d : static_cast<int>(receivers.size());
            for (std::size_t k = 0; k < receivers.size(); ++k) {
                const int receiver = receivers[k];
                const bool from_root = k >= members[h].size();
                // A giver signals after its last task so far (its own swap, for the second half).
                const double signalled = (from_root ? 0 : busy[members[h][k]]) + terms.signal_ns(dd);
                busy[receiver] = std::max(busy[receiver], signalled) + terms.copy_ns(half, dd);
                finished[receiver] = busy[receiver];
            }
        }
    }
    return *std::max_element(finished.begin(), finished.end());
}

double in_order_binary_reduce_ns(int p, const P2pTerms& terms, double bytes, double segment_bytes) {
    if (p <= 1) return terms.local_copy_ns(bytes);
    const int segments = segment_count(bytes, segment_bytes);
    int leaves = 0;
    const std::function<void(int, int)> count = [&](int lo, int hi) {
        if (hi - lo == 1) ++leaves;
        if (hi - lo <= 1) return;
        const int mid = lo + (hi - lo) / 2;
        count(lo, mid);
        if (mid + 1 < hi) count(mid + 1, hi);
    };
    count(0, p);
    std::vector<double> done(p, 0);
    double result = 0;
    for (int c = 0; c < segments; ++c) {
        const double m = segment_size(bytes, segment_bytes, c);
        // Returns the subtree's top; done[top] is when its partial is complete.
        const std::function<int(int, int)> subtree = [&](int lo, int hi) {
            const int mid = lo + (hi - lo) / 2;
            const int leaf_children = (mid - lo == 1) + (hi - mid - 1 == 1);
            for (auto [a, b] : {std::pair{lo, mid}, std::pair{mid + 1, hi}}) {
                if (b <= a) continue;
                const int top = subtree(a, b);
                const bool leaf = b - a == 1;
                const double ready = (leaf ? 0 : done[top]) + terms.signal_ns(leaf ? leaves : 1, leaf ? leaf_children : 1);
                done[mid] = std::max(done[mid], ready) + terms.fold_ns(m);
            }
            return mid;
        };
        const int top = subtree(0, p);
        // The top's result goes to the root (position 0), after the root's previous segment.
        result = std::max(result, done[top] + terms.signal_ns()) + terms.copy_ns(m);
    }
    return result;
}

}  // namespace numacoll::models

#include "algorithms/allreduce/tiled.hpp"

#include <fmt/format.h>

#include <optional>

#include "algorithms/allreduce/tree.hpp"
#include "algorithms/patterns/internode_allreduce.hpp"
#include "algorithms/patterns/node_trees.hpp"
#include "algorithms/patterns/strips.hpp"

namespace numacoll::algo {

namespace {

enum class TiledVariant { hierarchical, naive, cyclic };

// Tile t of q over [offset, offset + bytes), cut at cache lines.
Range tile_of(int buffer, std::uint64_t offset, std::uint64_t bytes, int t, int q) {
    const std::uint64_t lines = (bytes + cache_line_bytes - 1) / cache_line_bytes;
    const std::uint64_t first = lines * static_cast<std::uint64_t>(t) / static_cast<std::uint64_t>(q);
    const std::uint64_t last = lines * static_cast<std::uint64_t>(t + 1) / static_cast<std::uint64_t>(q);
    const std::uint64_t begin = std::min(bytes, first * cache_line_bytes);
    const std::uint64_t end = std::min(bytes, last * cache_line_bytes);
    return {buffer, offset + begin, end - begin};
}

class TiledAllreduce {
public:
    TiledAllreduce(const CollectiveSpec& spec, const Layout& layout, TiledVariant variant, BroadcastStyle style,
                   InternodeAlgorithm internode,
                   std::uint64_t strip)
        : builder_(layout, spec), layout_(layout), variant_(variant), style_(style), strip_(strip),
          internode_(internode), scratch_(builder_) {
        for (int rank = 0; rank < layout.size(); ++rank) {
            inputs_.push_back(builder_.add_input(rank, spec.bytes));
            outputs_.push_back(builder_.add_output(rank, spec.bytes));
        }
        ready_ = ReadySignals(inputs_);
        trees_.emplace(builder_, layout, 2, style, inputs_, 0);
        machine_domains_ = top_level_domains(trees_->hierarchy());
        if (variant == TiledVariant::hierarchical) {
            domains_ = machine_domains_;
        } else {
            domains_.emplace_back();
            for (int local = 0; local < layout.ranks_per_node; ++local) domains_[0].push_back(local);
        }
    }

    Schedule generate() { return build_in_chunks(builder_, strip_, std::bind_front(&TiledAllreduce::run_chunk, this)); }

private:
    int count(int domain) const { return static_cast<int>(domains_[domain].size()); }

    // Rank `src` tells `dst` its input is ready, once for all chunks: the
    // tiles are read straight from the inputs.
    int announce(int src, int dst, const ChunkState& state) {
        return ready_.signal(builder_, src, dst, {inputs_[src], state.offset, state.bytes}, {}, state.tag + ":tiled");
    }

    // Phase 1: thread t of each domain reduces tile t of the domain's inputs.
    void reduce_tiles(int node, int domain, ChunkState& state) {
        const auto& members = domains_[domain];
        const int q = count(domain);
        // Every input is announced before anyone reduces: a flag issued
        // later would sit behind its thread's own reduction.
        for (int t = 0; t < q; ++t)
            if (tile_of(outputs_[0], state.offset, state.bytes, t, q).bytes > 0)
                for (int k = 0; k < q; ++k)
                    if (k != t) announce(layout_.global_rank(node, members[k]), layout_.global_rank(node, members[t]), state);
        for (int t = 0; t < q; ++t) {
            const int owner = layout_.global_rank(node, members[t]);
            const Range out = tile_of(outputs_[owner], state.offset, state.bytes, t, q);
            if (out.bytes == 0) continue;
            std::vector<int> deps = state.ready[owner];
            std::vector<Range> reads;
            for (int k = 0; k < q; ++k) {
                // cyclic: start with the own input and go round; otherwise domain order.
                const int index = variant_ == TiledVariant::cyclic ? (t + k) % q : k;
                const int src = layout_.global_rank(node, members[index]);
                if (src != owner) deps.push_back(announce(src, owner, state));
                reads.push_back({inputs_[src], out.offset, out.bytes});
            }
            state.ready[owner] = {builder_.reduce(owner, reads, out, deps, state.tag + ":tiled:domain")};
        }
    }

    // Phase 2: a binary tree over domains; the parent domain's tile owners
    // fold in the child domain's bytes of their tiles, piece by piece where
    // the two domains cut their tiles differently.
    void reduce_domains(int node, ChunkState& state) {
        const int s = static_cast<int>(domains_.size());
        for (int stride = 1, round = 0; stride < s; stride *= 2, ++round)
            for (int parent = 0; parent + stride < s; parent += 2 * stride) {
                const int child = parent + stride;
                const std::string label = fmt::format("{}:tiled:domains:r{}", state.tag, round);
                for (int t = 0; t < count(parent); ++t) {
                    const int owner = layout_.global_rank(node, domains_[parent][t]);
                    const Range mine = tile_of(outputs_[owner], state.offset, state.bytes, t, count(parent));
                    for (int u = 0; u < count(child); ++u) {
                        const int other = layout_.global_rank(node, domains_[child][u]);
                        const Range theirs = tile_of(outputs_[other], state.offset, state.bytes, u, count(child));
                        const std::uint64_t begin = std::max(mine.offset, theirs.offset);
                        const std::uint64_t end = std::min(mine.end(), theirs.end());
                        if (begin >= end) continue;
                        std::vector<int> deps = state.ready[owner];
                        deps.push_back(builder_.flag(other, owner, state.ready[other], label + ":ready"));
                        const Range piece{outputs_[owner], begin, end - begin};
                        state.ready[owner] = {builder_.reduce(
                            owner, {piece, {outputs_[other], begin, end - begin}}, piece, deps, label)};
                    }
                }
            }
    }

    // `reader` copies `range` of `owner`'s output into its own.
    void fetch_range(int owner, int reader, const Range& range, const std::string& label, ChunkState& state,
                     std::vector<int>& reader_deps) {
        const int told = builder_.flag(owner, reader, state.ready[owner], label + ":go");
        reader_deps = {builder_.copy(reader, range, {outputs_[reader], range.offset, range.bytes}, {told}, label)};
    }

    // Single node: every thread copies the tiles of tiling group 0's owners,
    // or (two-stage) one master per machine domain does and its domain-mates
    // copy from it. The stages follow the machine's domains for every
    // variant: naive and cyclic tile over the whole node but broadcast alike.
    void broadcast_tiles(int node, ChunkState& state) {
        const int q = count(0);
        std::vector<std::vector<int>> after = state.ready;
        auto copy_all = [&](int reader, const std::string& label) {
            for (int t = 0; t < q; ++t) {
                const int owner = layout_.global_rank(node, domains_[0][t]);
                const Range tile = tile_of(outputs_[owner], state.offset, state.bytes, t, q);
                if (owner == reader || tile.bytes == 0) continue;
                fetch_range(owner, reader, tile, label, state, after[reader]);
            }
        };
        const auto& groups = machine_domains_;
        for (int domain = 0; domain < static_cast<int>(groups.size()); ++domain) {
            const bool staged = style_ == BroadcastStyle::two_stage && domain > 0;
            for (int index = 0; index < static_cast<int>(groups[domain].size()); ++index) {
                const int reader = layout_.global_rank(node, groups[domain][index]);
                if (!staged || index == 0) copy_all(reader, state.tag + (staged ? ":tiled:bcast2:masters" : ":tiled:bcast1"));
            }
        }
        state.ready = after;
        if (style_ != BroadcastStyle::two_stage) return;
        for (int domain = 1; domain < static_cast<int>(groups.size()); ++domain) {
            const int master = layout_.global_rank(node, groups[domain][0]);
            for (int index = 1; index < static_cast<int>(groups[domain].size()); ++index) {
                const int reader = layout_.global_rank(node, groups[domain][index]);
                // A reader that owns a tile keeps it: others may still be reading it.
                const Range own = own_tile(node, reader, state);
                const Range before{outputs_[master], state.offset, own.bytes ? own.offset - state.offset : state.bytes};
                const Range rest{outputs_[master], own.end(), own.bytes ? state.offset + state.bytes - own.end() : 0};
                std::vector<int> done;
                for (const Range& range : {before, rest}) {
                    if (range.bytes == 0) continue;
                    std::vector<int> deps;
                    fetch_range(master, reader, range, state.tag + ":tiled:bcast2:local", state, deps);
                    done.insert(done.end(), deps.begin(), deps.end());
                }
                state.ready[reader] = done;
            }
        }
    }

    // The tile of tiling group 0 that `rank` owns (empty if none).
    Range own_tile(int node, int rank, const ChunkState& state) const {
        for (int t = 0; t < count(0); ++t)
            if (layout_.global_rank(node, domains_[0][t]) == rank)
                return tile_of(outputs_[rank], state.offset, state.bytes, t, count(0));
        return {outputs_[rank], state.offset, 0};
    }

    // Several nodes: the node leader gathers domain 0's tiles first.
    void gather_on_leader(int node, ChunkState& state) {
        const int leader = layout_.global_rank(node, domains_[0][0]);
        for (int t = 1; t < count(0); ++t) {
            const int owner = layout_.global_rank(node, domains_[0][t]);
            const Range tile = tile_of(outputs_[owner], state.offset, state.bytes, t, count(0));
            if (tile.bytes == 0) continue;
            std::vector<int> done;
            fetch_range(owner, leader, tile, state.tag + ":tiled:gather", state, done);
            state.ready[leader] = done;
        }
        state.partial[leader] = {outputs_[leader], state.offset, state.bytes};
    }

    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        ChunkState state = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        for (int node = 0; node < layout_.nodes; ++node) {
            for (int domain = 0; domain < static_cast<int>(domains_.size()); ++domain) reduce_tiles(node, domain, state);
            reduce_domains(node, state);
        }
        if (layout_.nodes == 1) {
            broadcast_tiles(0, state);
        } else {
            std::vector<int> leaders;
            for (int node = 0; node < layout_.nodes; ++node) {
                gather_on_leader(node, state);
                leaders.push_back(layout_.global_rank(node, domains_[0][0]));
            }
            internode_allreduce(internode_, builder_, leaders, state, outputs_, scratch_);
            const HomeOf output = [&](int rank) { return Range{outputs_[rank], offset, bytes}; };
            for (int node = 0; node < layout_.nodes; ++node) trees_->broadcast(node, state, output);
        }
        settle(builder_, state);
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    TiledVariant variant_;
    BroadcastStyle style_;
    std::uint64_t strip_;
    InternodeAlgorithm internode_;
    std::vector<int> inputs_, outputs_;
    TempPool scratch_;
    std::optional<NodeTrees> trees_;
    std::vector<std::vector<int>> domains_;  // tiling groups, local ranks; one group of all for naive/cyclic
    std::vector<std::vector<int>> machine_domains_;  // the machine's domains, local ranks
    ReadySignals ready_{{}};
};

AlgorithmInfo tiled_info(const char* name, TiledVariant variant, const char* summary, const char* source) {
    AlgorithmInfo info;
    info.collective = Collective::allreduce;
    info.name = name;
    info.summary = summary;
    info.source = source;
    info.options = {{"bcast", "1stage",
                     "1stage: every thread copies the tiles; 2stage: one master per domain first, then its domain-mates "
                     "copy from it",
                     {"1stage", "2stage"}},
                    strip_option(), internode_option()};
    info.generate = [variant](const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
        const BroadcastStyle style = parse_broadcast_style(options.choice("bcast", {"1stage", "2stage"}));
        const std::uint64_t strip = strip_bytes(options, *layout.machine, element_bytes(spec));
        const InternodeAlgorithm internode = parse_internode_algorithm(options.text("internode"));
        if (spec.bytes == 0) return tree_allreduce_schedule(spec, layout, 2, style, strip, internode);
        return TiledAllreduce(spec, layout, variant, style, internode, strip).generate();
    };
    return info;
}

}  // namespace

AlgorithmInfo allreduce_tiled_info() {
    return tiled_info("tiled", TiledVariant::hierarchical,
                      "tiled reduce inside each top-level domain (package, or LLC domain on a one-package node), "
                      "tree of tiles across domains, then a broadcast; "
                      "best for large vectors (above ~16 KiB on the paper's machines)",
                      "Li, Hoefler, Snir, HPDC'13, section 2.4 (Figure 7, equation 11)");
}

AlgorithmInfo allreduce_tiled_naive_info() {
    return tiled_info("tiled-naive", TiledVariant::naive,
                      "one tile per thread of the node, domains ignored; a baseline that shows the cost of "
                      "inter-domain contention",
                      "Li, Hoefler, Snir, HPDC'13, section 3.2 (Figure 13)");
}

AlgorithmInfo allreduce_tiled_cyclic_info() {
    return tiled_info("tiled-cyclic", TiledVariant::cyclic,
                      "tiled-naive with each thread reading the inputs in cyclic order from its own; "
                      "slightly less contention than tiled-naive",
                      "Mamidala et al., as compared in HPDC'13 section 3.2 (Figure 13)");
}

}  // namespace numacoll::algo

// allreduce "dissemination" (HPDC'13 section 2.3, Figures 5 and 6): every
// thread ends with the full result after ceil(log2 p) combining rounds, with
// no separate broadcast.
//
// Laid out over the node: the first log2 q' rounds combine threads of one
// domain (thread l takes the partial of lane (l - 2^i) mod q'), the last
// log2 s' rounds combine the same lane of other domains, so inter-domain
// traffic falls only in the last rounds. q' and s' are the largest powers of
// two not above the smallest domain's thread count and the domain count;
// the other threads are "excess": each first hands its input to a host (a
// thread of the same domain when it has one) and copies the host's result
// at the end (Figure 6's non-power-of-two scheme).
// Across nodes (section 2.5): after the node rounds, one thread per node
// sends its partial to another node (log2 N' rounds, excess nodes folded in
// first and served last), and every active thread of the receiving node
// combines it.
// Partners (option pairing): the paper's thread j takes thread (j - 2^i)
// mod p's partial, so each rank sums the same terms grouped its own way, and
// where the operation rounds (floating sums and products) the ranks' results
// differ in their last bits, which an MPI allreduce must not do. By default
// thread j takes thread (j XOR 2^i)'s instead: a butterfly, in which
// partners swap partials and fold the same pair (the operations are
// commutative), so every rank holds the same bits. Each round still reads
// one partial per thread, from the same domain or the same lane of another,
// so the rounds, the traffic and equations (6) and (7) are unchanged.
// Each round writes a new temp buffer per thread (a round's readers may
// still read the previous one), so a thread holds log2 p vectors.
#include <fmt/format.h>

#include <map>

#include "algorithms/hierarchy.hpp"
#include "algorithms/patterns/chunk_state.hpp"
#include "algorithms/patterns/power_of_two.hpp"
#include "algorithms/patterns/strips.hpp"
#include "algorithms/patterns/temp_pool.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

// One node's threads as domains x lanes (local ranks).
struct NodeGrid {
    std::vector<std::vector<int>> domains;  // local ranks per top-level hierarchy group
    int lanes = 1;                          // q'
    int active_domains = 1;                 // s'
    std::vector<int> host;                  // per local rank: the active rank that serves it (itself if active)
};

NodeGrid make_grid(const Layout& layout) {
    NodeGrid grid;
    grid.domains = top_level_domains(build_node_hierarchy(layout));
    int smallest = layout.ranks_per_node;
    for (const auto& domain : grid.domains) smallest = std::min(smallest, static_cast<int>(domain.size()));
    grid.lanes = largest_power_of_two(smallest);
    grid.active_domains = largest_power_of_two(static_cast<int>(grid.domains.size()));
    grid.host.assign(layout.ranks_per_node, -1);
    for (int k = 0; k < static_cast<int>(grid.domains.size()); ++k)
        for (int lane = 0; lane < static_cast<int>(grid.domains[k].size()); ++lane)
            grid.host[grid.domains[k][lane]] = grid.domains[k % grid.active_domains][lane % grid.lanes];
    return grid;
}

class DisseminationAllreduce {
public:
    DisseminationAllreduce(const CollectiveSpec& spec, const Layout& layout, std::uint64_t strip, bool butterfly)
        : builder_(layout, spec), layout_(layout), strip_(strip), butterfly_(butterfly), grid_(make_grid(layout)),
          node_excess_(fold_upper(layout.nodes)), temps_(builder_), landings_(builder_) {
        for (int rank = 0; rank < layout.size(); ++rank) {
            inputs_.push_back(builder_.add_input(rank, spec.bytes));
            outputs_.push_back(builder_.add_output(rank, spec.bytes));
        }
        active_nodes_ = node_excess_.power;
        ready_ = ReadySignals(inputs_);
        combines_per_chunk_ = count_combines();
    }

    Schedule generate() {
        return build_in_chunks(builder_, strip_, std::bind_front(&DisseminationAllreduce::run_chunk, this));
    }

private:
    int leader(int node) const { return layout_.global_rank(node, grid_.domains[0][0]); }
    bool active(int local) const { return grid_.host[local] == local; }
    int rounds(int count) const { return log2_of_power_of_two(count); }
    // Whose partial index `index` of `count` (a power of two) takes in round `round`.
    int partner(int index, int round, int count) const {
        return butterfly_ ? index ^ (1 << round) : (index - (1 << round) + count) % count;
    }

    // How many combines each thread performs per chunk (the same in every
    // chunk): the last one writes its output. Excess threads, and every
    // thread of an excess node, get their result by copy: -1, none is last.
    std::vector<int> count_combines() const {
        std::vector<bool> serves_excess(layout_.ranks_per_node, false);
        for (int local = 0; local < layout_.ranks_per_node; ++local)
            if (!active(local)) serves_excess[grid_.host[local]] = true;
        const int shared_rounds = rounds(grid_.lanes) + rounds(grid_.active_domains) + rounds(active_nodes_);
        std::vector<int> combines(layout_.size(), -1);
        for (int node = 0; node < active_nodes_; ++node) {
            const int folded_node = node < layout_.nodes - active_nodes_ ? 1 : 0;
            for (int local = 0; local < layout_.ranks_per_node; ++local)
                if (active(local))
                    combines[layout_.global_rank(node, local)] = serves_excess[local] + folded_node + shared_rounds;
        }
        return combines;
    }

    Range temp(int rank, std::size_t slot, TempPool& pool, const char* name) {
        return pool.range(rank, slot, name, state_.offset, state_.bytes);
    }

    // dst folds `reads` (its own partial first) into a new temp, or into its
    // output when this is its last combine.
    void combine(int dst, const std::vector<Range>& reads, std::vector<int> deps, const std::string& label) {
        if (state_.bytes == 0) {
            state_.ready[dst].insert(state_.ready[dst].end(), deps.begin(), deps.end());
            return;
        }
        const bool last = --remaining_[dst] == 0;
        const Range out = last ? Range{outputs_[dst], state_.offset, state_.bytes}
                               : temp(dst, static_cast<std::size_t>(done_[dst]++), temps_, "dis");
        state_.ready[dst] = {builder_.reduce(dst, reads, out, deps, label)};
        state_.partial[dst] = out;
    }

    // One round of pairs (dst takes src's partial), all reading the partials
    // from before the round. Every signal of the round is raised before any
    // combine: a thread runs its tasks in order, so a signal made after its
    // own combine would wait for it, and the pairs of a round would take
    // turns instead of folding at once.
    void round(const std::vector<std::pair<int, int>>& pairs, const std::string& label) {
        const std::vector<Range> partial = state_.partial;
        const std::vector<std::vector<int>> ready = state_.ready;
        std::vector<int> signals;
        for (auto [dst, src] : pairs) signals.push_back(ready_.signal(builder_, src, dst, partial[src], ready[src], label));
        for (std::size_t k = 0; k < pairs.size(); ++k) {
            const auto [dst, src] = pairs[k];
            std::vector<int> deps = ready[dst];
            deps.push_back(signals[k]);
            combine(dst, {partial[dst], partial[src]}, deps, label);
        }
    }

    void fold_excess(int node) {
        std::map<int, std::vector<int>> served;  // host -> excess local ranks
        for (int local = 0; local < layout_.ranks_per_node; ++local)
            if (!active(local)) served[grid_.host[local]].push_back(local);
        for (const auto& [host_local, excess] : served) {
            const int host = layout_.global_rank(node, host_local);
            const std::string label = state_.tag + ":dis:fold";
            std::vector<int> deps = state_.ready[host];
            std::vector<Range> reads{state_.partial[host]};
            for (int local : excess) {
                const int e = layout_.global_rank(node, local);
                deps.push_back(ready_.signal(builder_, e, host, state_.partial[e], state_.ready[e], label));
                reads.push_back(state_.partial[e]);
            }
            combine(host, reads, deps, label);
        }
    }

    void node_rounds(int node) {
        for (int i = 0; i < rounds(grid_.lanes); ++i) {
            std::vector<std::pair<int, int>> pairs;
            for (int k = 0; k < grid_.active_domains; ++k)
                for (int lane = 0; lane < grid_.lanes; ++lane) {
                    const int from = partner(lane, i, grid_.lanes);
                    pairs.emplace_back(layout_.global_rank(node, grid_.domains[k][lane]),
                                       layout_.global_rank(node, grid_.domains[k][from]));
                }
            round(pairs, fmt::format("{}:dis:domain:r{}", state_.tag, i));
        }
        for (int i = 0; i < rounds(grid_.active_domains); ++i) {
            std::vector<std::pair<int, int>> pairs;
            const int s = grid_.active_domains;
            for (int k = 0; k < s; ++k)
                for (int lane = 0; lane < grid_.lanes; ++lane)
                    pairs.emplace_back(layout_.global_rank(node, grid_.domains[k][lane]),
                                       layout_.global_rank(node, grid_.domains[partner(k, i, s)][lane]));
            round(pairs, fmt::format("{}:dis:domains:r{}", state_.tag, i));
        }
    }

    // The leader of `from_node` sends its partial to `to_node`'s leader: the
    // message, and where it lands.
    struct Arrival {
        int to_node = 0;
        int message = -1;
        Range landing;
    };
    Arrival send_to_node(int from_node, int to_node, std::size_t slot, const std::string& label,
                         const std::vector<Range>& partial, const std::vector<std::vector<int>>& ready) {
        const int sender = leader(from_node), receiver = leader(to_node);
        const bool data = state_.bytes > 0;
        const Range landing = data ? temp(receiver, slot, landings_, "disnet") : Range{};
        const int message =
            builder_.net(sender, receiver, data ? partial[sender] : Range{}, landing, ready[sender], label);
        return {to_node, message, landing};
    }

    // Every active thread of the receiving node combines what arrived.
    void combine_arrival(const Arrival& arrival, const std::string& label, const std::vector<Range>& partial,
                         const std::vector<std::vector<int>>& ready) {
        const int receiver = leader(arrival.to_node);
        for (int local = 0; local < layout_.ranks_per_node; ++local) {
            if (!active(local)) continue;
            const int rank = layout_.global_rank(arrival.to_node, local);
            std::vector<int> deps = ready[rank];
            deps.push_back(rank == receiver ? arrival.message
                                            : builder_.flag(receiver, rank, {arrival.message}, label + ":arrived"));
            combine(rank, {partial[rank], arrival.landing}, deps, label + "-combine");
        }
    }

    void internode() {
        const int active = active_nodes_;
        for (const auto& [excess, host] : node_excess_.folds) {
            const std::string label = state_.tag + ":dis:node-fold";
            combine_arrival(send_to_node(excess, host, 0, label, state_.partial, state_.ready), label, state_.partial,
                            state_.ready);
        }
        // A round's messages are all issued before its combines: a leader's
        // round-j send must not wait behind its own round-j combine, or the
        // round becomes a chain around the nodes.
        for (int j = 0; j < rounds(active); ++j) {
            const std::vector<Range> partial = state_.partial;
            const std::vector<std::vector<int>> ready = state_.ready;
            const std::string label = fmt::format("{}:dis:nodes:r{}", state_.tag, j);
            std::vector<Arrival> arrivals;
            for (int n = 0; n < active; ++n)
                arrivals.push_back(send_to_node(partner(n, j, active), n, static_cast<std::size_t>(j + 1),
                                                label, partial, ready));
            for (const Arrival& arrival : arrivals) combine_arrival(arrival, label, partial, ready);
        }
        // Excess nodes get the result into their leader's output; the others copy it.
        for (const auto& [e, host] : node_excess_.folds) {
            const int sender = leader(host), receiver = leader(e);
            const bool data = state_.bytes > 0;
            const Range out{outputs_[receiver], state_.offset, state_.bytes};
            const int message = builder_.net(sender, receiver, data ? state_.partial[sender] : Range{},
                                             data ? out : Range{}, state_.ready[sender], state_.tag + ":dis:node-unfold");
            if (data) state_.partial[receiver] = out;
            state_.ready[receiver] = {message};
            for (int local = 0; local < layout_.ranks_per_node; ++local)
                if (layout_.global_rank(e, local) != receiver)
                    fetch(receiver, layout_.global_rank(e, local), state_.tag + ":dis:node-copy");
        }
    }

    void fetch(int source, int reader, const std::string& label) {
        fetch_partial(builder_, state_, source, reader, {outputs_[reader], state_.offset, state_.bytes}, label);
    }

    void run_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag) {
        state_ = start_chunk(offset, bytes, tag, inputs_, layout_.size());
        remaining_ = combines_per_chunk_;
        done_.assign(layout_.size(), 0);
        for (int node = 0; node < layout_.nodes; ++node) {
            fold_excess(node);
            node_rounds(node);
        }
        internode();
        for (int node = 0; node < std::min(layout_.nodes, active_nodes_); ++node)
            for (int local = 0; local < layout_.ranks_per_node; ++local) {
                const int rank = layout_.global_rank(node, local);
                if (active(local)) place_partial(builder_, state_, rank, {outputs_[rank], offset, bytes});
            }
        for (int node = 0; node < std::min(layout_.nodes, active_nodes_); ++node)
            for (int local = 0; local < layout_.ranks_per_node; ++local)
                if (!active(local))
                    fetch(layout_.global_rank(node, grid_.host[local]), layout_.global_rank(node, local),
                          tag + ":dis:unfold");
        settle(builder_, state_);
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    std::uint64_t strip_;
    bool butterfly_;
    NodeGrid grid_;
    ExcessFold node_excess_;  // nodes beyond a power of two fold into the first ones
    int active_nodes_ = 1;
    std::vector<int> inputs_, outputs_;
    TempPool temps_, landings_;
    ReadySignals ready_{{}};
    ChunkState state_;
    std::vector<int> combines_per_chunk_;  // per rank, from count_combines()
    std::vector<int> remaining_;           // per rank: combines left in this chunk
    std::vector<int> done_;       // per rank: temps used in this chunk
};

OptionInfo pairing_option() {
    return {"pairing", "butterfly",
            "whose partial thread j takes in round i: butterfly, j XOR 2^i (partners swap partials, so every rank "
            "folds the same pairs and holds the same bits), or cyclic, (j - 2^i) mod p as the paper writes it (each "
            "rank associates the sum its own way: floating-point results differ in their last bits)",
            {"butterfly", "cyclic"}};
}

Schedule generate_allreduce_dissemination(const CollectiveSpec& spec, const Layout& layout,
                                          const OptionReader& options) {
    const bool butterfly = options.choice("pairing", {"butterfly", "cyclic"}) == "butterfly";
    return DisseminationAllreduce(spec, layout, strip_bytes(options, *layout.machine, element_bytes(spec)), butterfly)
        .generate();
}

}  // namespace

AlgorithmInfo allreduce_dissemination_info() {
    return {Collective::allreduce, "dissemination",
            "ceil(log2 p) combining rounds, domains last, no broadcast; fewest steps but the most traffic "
            "(the paper finds it slowest)",
            "Li, Hoefler, Snir, HPDC'13, sections 2.3 and 2.5 (Figures 5, 6)", {strip_option(), pairing_option()},
            generate_allreduce_dissemination};
}

}  // namespace numacoll::algo

#include "algorithms/patterns/internode_allreduce.hpp"

#include <fmt/format.h>

#include "algorithms/patterns/internode.hpp"
#include "algorithms/patterns/power_of_two.hpp"
#include "common/error.hpp"

namespace numacoll::algo {

InternodeAlgorithm parse_internode_algorithm(const std::string& text) {
    if (text == "recursive-doubling") return InternodeAlgorithm::recursive_doubling;
    if (text == "binomial") return InternodeAlgorithm::binomial;
    if (text == "ring") return InternodeAlgorithm::ring;
    if (text == "rabenseifner") return InternodeAlgorithm::rabenseifner;
    throw UsageError(fmt::format(
        "option internode must be recursive-doubling, ring, rabenseifner or binomial (got '{}')", text));
}

OptionInfo internode_option() {
    return {"internode", "recursive-doubling",
            "allreduce among node roots: recursive-doubling, ring, rabenseifner or binomial",
            {"recursive-doubling", "ring", "rabenseifner", "binomial"}};
}

namespace {

// The chunk cut into `count` pieces of whole elements; tracks, per root and
// piece, where the root's partial is and what must end before it is read.
class Pieces {
public:
    Pieces(ScheduleBuilder& builder, const std::vector<int>& roots, ChunkState& state, const std::vector<int>& outputs,
           TempPool& scratch, int count)
        : builder_(builder), roots_(roots), state_(state), outputs_(outputs), scratch_(scratch), count_(count) {
        const std::uint64_t element = element_bytes(builder.spec());
        const std::uint64_t elements = state.bytes / element;
        for (int piece = 0, start = 0; piece < count; ++piece) {
            const int length = static_cast<int>(elements / count + (piece < static_cast<int>(elements % count) ? 1 : 0));
            offsets_.push_back(state.offset + static_cast<std::uint64_t>(start) * element);
            sizes_.push_back(static_cast<std::uint64_t>(length) * element);
            start += length;
        }
        for (int root : roots) {
            ready_.emplace_back(count, state.ready[root]);
            partial_.emplace_back(count, state.partial[root].buffer);
        }
    }

    struct Send {
        int from, to, first, n;  // root indexes; pieces [first, first + n), modulo the piece count
    };

    // One round: every root index `from` sends its pieces to `to`, which
    // folds them into its output (fold) or takes them as they are. All the
    // round's messages are issued before its folds, so that a root's send
    // does not wait behind its own fold in program order. Folded pieces land
    // in temp buffer `slot` first: a root that receives the same piece in
    // two rounds uses two slots, so the second message cannot overwrite the
    // first before it is folded.
    void round(const std::vector<Send>& sends, bool fold, int slot, const std::string& label) {
        struct Landed {
            int to, piece, message;
            Range landing;
        };
        std::vector<Landed> landed;
        for (const Send& send : sends)
            for (int piece = send.first; piece < send.first + send.n; ++piece) {
                const int p = piece % count_;
                const bool data = sizes_[p] > 0;
                const auto slot_index = static_cast<std::size_t>(slot);
                const Range landing = !data ? Range{}
                                      : fold ? scratch_.range(roots_[send.to], slot_index, "pieces", offsets_[p], sizes_[p])
                                             : out(send.to, p);
                const int message = builder_.net(roots_[send.from], roots_[send.to], data ? range(send.from, p) : Range{},
                                                 landing, ready_[send.from][p],
                                                 fmt::format("{}:{}-p{}", state_.tag, label, p));
                landed.push_back({send.to, p, message, landing});
            }
        for (const Landed& arrival : landed) {
            const int to = arrival.to, p = arrival.piece;
            if (sizes_[p] == 0) {
                ready_[to][p].push_back(arrival.message);
            } else if (!fold) {
                partial_[to][p] = outputs_[roots_[to]];
                ready_[to][p] = {arrival.message};
            } else {
                std::vector<int> deps = ready_[to][p];
                deps.push_back(arrival.message);
                ready_[to][p] = {builder_.reduce(roots_[to], {range(to, p), arrival.landing}, out(to, p), deps,
                                                 fmt::format("{}:{}-p{}-fold", state_.tag, label, p))};
                partial_[to][p] = outputs_[roots_[to]];
            }
        }
    }

    // Writes the per-piece state back into the chunk's state.
    void finish() {
        for (std::size_t i = 0; i < roots_.size(); ++i) {
            const int root = roots_[i];
            std::vector<int> all;
            for (const auto& tasks : ready_[i]) all.insert(all.end(), tasks.begin(), tasks.end());
            state_.ready[root] = all;
            if (state_.bytes > 0) state_.partial[root] = {outputs_[root], state_.offset, state_.bytes};
        }
    }

private:
    Range range(int index, int piece) const { return {partial_[index][piece], offsets_[piece], sizes_[piece]}; }
    Range out(int index, int piece) const { return {outputs_[roots_[index]], offsets_[piece], sizes_[piece]}; }

    ScheduleBuilder& builder_;
    const std::vector<int>& roots_;
    ChunkState& state_;
    const std::vector<int>& outputs_;
    TempPool& scratch_;
    int count_;
    std::vector<std::uint64_t> offsets_, sizes_;
    std::vector<std::vector<std::vector<int>>> ready_;  // [root index][piece]
    std::vector<std::vector<int>> partial_;             // [root index][piece] -> buffer
};

void ring(ScheduleBuilder& builder, const std::vector<int>& roots, ChunkState& state, const std::vector<int>& outputs,
          TempPool& scratch) {
    const int k = static_cast<int>(roots.size());
    Pieces pieces(builder, roots, state, outputs, scratch, k);
    for (int step = 0; step + 1 < k; ++step) {
        std::vector<Pieces::Send> sends;
        for (int i = 0; i < k; ++i) sends.push_back({i, (i + 1) % k, (i - step + k) % k, 1});
        pieces.round(sends, true, 0, fmt::format("ring-rs{}", step));
    }
    // Root i now holds the whole reduction of piece i + 1.
    for (int step = 0; step + 1 < k; ++step) {
        std::vector<Pieces::Send> sends;
        for (int i = 0; i < k; ++i) sends.push_back({i, (i + 1) % k, (i + 1 - step + k) % k, 1});
        pieces.round(sends, false, 0, fmt::format("ring-ag{}", step));
    }
    pieces.finish();
}

void rabenseifner(ScheduleBuilder& builder, const std::vector<int>& roots, ChunkState& state,
                  const std::vector<int>& outputs, TempPool& scratch) {
    const ExcessFold excess = fold_adjacent(static_cast<int>(roots.size()));
    const int pof2 = excess.power;
    const std::vector<int>& active = excess.active;
    Pieces pieces(builder, roots, state, outputs, scratch, pof2);
    std::vector<Pieces::Send> folds, unfolds;
    for (const auto& [from, to] : excess.folds) {
        folds.push_back({from, to, 0, pof2});
        unfolds.push_back({to, from, 0, pof2});
    }
    pieces.round(folds, true, 0, "rab-fold");
    // Recursive halving: keep the half of the current run that holds your own piece.
    std::vector<int> first(pof2, 0), length(pof2, pof2);
    for (int mask = pof2 / 2, step = 0; mask >= 1; mask >>= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < pof2; ++v) {
            const int half = length[v] / 2;
            const bool lower = (v & mask) == 0;  // keeps the lower half, gives the upper
            sends.push_back({active[v], active[v ^ mask], lower ? first[v] + half : first[v], half});
        }
        pieces.round(sends, true, step + 1, fmt::format("rab-rs{}", step));
        for (int v = 0; v < pof2; ++v) {
            if ((v & mask) != 0) first[v] += length[v] / 2;
            length[v] /= 2;
        }
    }
    // Recursive doubling: give your run to the partner, whose run is the other half.
    for (int mask = 1, step = 0; mask < pof2; mask <<= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < pof2; ++v) sends.push_back({active[v], active[v ^ mask], first[v], length[v]});
        pieces.round(sends, false, 0, fmt::format("rab-ag{}", step));
        for (int v = 0; v < pof2; ++v)
            if ((v & mask) == 0) {
                const int partner = v ^ mask;
                length[v] = length[partner] = 2 * length[v];
                first[partner] = first[v];
            }
    }
    pieces.round(unfolds, false, 0, "rab-unfold");
    pieces.finish();
}

}  // namespace

void internode_allreduce(InternodeAlgorithm algorithm, ScheduleBuilder& builder, const std::vector<int>& roots,
                         ChunkState& state, const std::vector<int>& outputs, TempPool& scratch) {
    if (roots.size() <= 1) return;
    switch (algorithm) {
        case InternodeAlgorithm::recursive_doubling:
            return internode_recursive_doubling(builder, roots, state, outputs, scratch);
        case InternodeAlgorithm::binomial: {
            const HomeOf output = [&](int rank) { return Range{outputs[rank], state.offset, state.bytes}; };
            internode_binomial_reduce(builder, roots, state, output, scratch);
            return internode_binomial_bcast(builder, roots, state, output);
        }
        case InternodeAlgorithm::ring: return ring(builder, roots, state, outputs, scratch);
        case InternodeAlgorithm::rabenseifner: return rabenseifner(builder, roots, state, outputs, scratch);
    }
}

}  // namespace numacoll::algo

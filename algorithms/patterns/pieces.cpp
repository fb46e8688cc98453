#include "algorithms/patterns/pieces.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "algorithms/patterns/power_of_two.hpp"

namespace numacoll::algo {

namespace {

// `count` pieces of the chunk's elements, the first (elements mod count) one element longer, in bytes.
std::vector<std::uint64_t> even_split(std::uint64_t elements, int count, std::uint64_t element) {
    std::vector<std::uint64_t> sizes;
    for (int piece = 0; piece < count; ++piece)
        sizes.push_back(element * (elements / count + (static_cast<std::uint64_t>(piece) < elements % count ? 1 : 0)));
    return sizes;
}

}  // namespace

Pieces::Pieces(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
               const std::vector<int>& outputs, PieceBuffers buffers, int count)
    : Pieces(builder, ranks, state, outputs, buffers,
             even_split(state.bytes / element_bytes(builder.spec()), count, element_bytes(builder.spec()))) {}

Pieces::Pieces(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
               const std::vector<int>& outputs, PieceBuffers buffers, const std::vector<std::uint64_t>& piece_bytes)
    : builder_(builder), ranks_(ranks), state_(state), outputs_(outputs), buffers_(buffers),
      count_(static_cast<int>(piece_bytes.size())) {
    std::uint64_t start = state.offset;
    for (const std::uint64_t bytes : piece_bytes) {
        offsets_.push_back(start);
        sizes_.push_back(bytes);
        start += bytes;
    }
    for (int rank : ranks) {
        ready_.emplace_back(count_, state.ready[rank]);
        partial_.emplace_back(count_, state.partial[rank].buffer);
    }
}

Range Pieces::run_range(int index, int first, int n) const {
    std::uint64_t bytes = 0;
    for (int p = first; p < first + n; ++p) bytes += sizes_[p];
    return {partial_[index][first], offsets_[first], bytes};
}

std::vector<int> Pieces::run_ready(int index, int first, int n) const {
    std::vector<int> ready;
    for (int p = first; p < first + n; ++p) ready.insert(ready.end(), ready_[index][p].begin(), ready_[index][p].end());
    return ready;
}

bool Pieces::one_range(int index, int first, int n) const {
    if (first + n > count_) return false;  // the run wraps around
    for (int p = first; p < first + n; ++p)
        if (partial_[index][p] != partial_[index][first]) return false;
    return true;
}

int Pieces::hand_over(int from, int to, const Range& source, const std::vector<int>& ready, const Range& landing,
                      const std::string& label) {
    const int src = ranks_[from], dst = ranks_[to];
    const bool data = source.bytes > 0;
    if (!builder_.layout().same_node(src, dst))
        return builder_.net(src, dst, data ? source : Range{}, landing, ready, label);
    if (buffers_.signals != nullptr) return buffers_.signals->signal(builder_, src, dst, source, ready, label);
    return builder_.flag(src, dst, ready, label + ":ready");
}

void Pieces::round(const std::vector<Send>& sends, bool fold, int landing_slot, const std::string& label, Into into,
                   int fresh_slot) {
    struct Arrival {
        int to, first, n, task;
        Range source;  // what `to` reads: the landed message, or the sender's pieces inside a node
        bool local;
    };
    std::vector<Arrival> arrivals;
    for (const Send& send : sends) {
        const bool local = builder_.layout().same_node(ranks_[send.from], ranks_[send.to]);
        // Inside a node a run of pieces in one range of each side is one hand-over.
        if ((local || buffers_.runs_as_one_message) && one_range(send.from, send.first, send.n) &&
            one_range(send.to, send.first, send.n)) {
            const Range source = run_range(send.from, send.first, send.n);
            const Range landing =
                local || source.bytes == 0 ? Range{}
                : fold ? buffers_.landings.range(ranks_[send.to], static_cast<std::size_t>(landing_slot), "pieces",
                                                 source.offset, source.bytes)
                       : Range{outputs_[ranks_[send.to]], source.offset, source.bytes};
            const int task = hand_over(send.from, send.to, source, run_ready(send.from, send.first, send.n), landing,
                                       fmt::format("{}:{}-p{}", state_.tag, label, send.first));
            arrivals.push_back({send.to, send.first, send.n, task, local ? source : landing, local});
            continue;
        }
        for (int piece = send.first; piece < send.first + send.n; ++piece) {
            const int p = piece % count_;
            const bool data = sizes_[p] > 0;
            const Range landing =
                !data || local ? Range{}
                : fold         ? buffers_.landings.range(ranks_[send.to], static_cast<std::size_t>(landing_slot), "pieces",
                                                         offsets_[p], sizes_[p])
                               : out(send.to, p);
            const Range source = range(send.from, p);
            const int task = hand_over(send.from, send.to, source, ready_[send.from][p], landing,
                                       fmt::format("{}:{}-p{}", state_.tag, label, p));
            arrivals.push_back({send.to, p, 1, task, local ? source : landing, local});
        }
    }
    for (const Arrival& arrival : arrivals) {
        const int to = arrival.to, first = arrival.first, rank = ranks_[to];
        const Range mine = run_range(to, first, arrival.n);
        const std::string tag = fmt::format("{}:{}-p{}", state_.tag, label, first);
        std::vector<int> after;
        int buffer = outputs_[rank];
        if (mine.bytes == 0) {
            after = run_ready(to, first, arrival.n);
            after.push_back(arrival.task);
            buffer = partial_[to][first];
        } else if (!fold) {
            const Range result{outputs_[rank], mine.offset, mine.bytes};
            after = {arrival.local ? builder_.copy(rank, arrival.source, result, {arrival.task}, tag + "-copy")
                                   : arrival.task};
        } else {
            const Range result =
                into == Into::fresh
                    ? buffers_.partials.range(rank, static_cast<std::size_t>(fresh_slot), "part", mine.offset, mine.bytes)
                    : Range{outputs_[rank], mine.offset, mine.bytes};
            std::vector<int> deps = run_ready(to, first, arrival.n);
            deps.push_back(arrival.task);
            after = {builder_.reduce(rank, {mine, arrival.source}, result, deps, tag + "-fold")};
            buffer = result.buffer;
        }
        for (int p = first; p < first + arrival.n; ++p) {
            ready_[to][p] = after;
            partial_[to][p] = buffer;
        }
    }
}

void Pieces::finish() {
    for (std::size_t i = 0; i < ranks_.size(); ++i) {
        const int rank = ranks_[i];
        std::vector<int> all;
        for (const auto& tasks : ready_[i]) all.insert(all.end(), tasks.begin(), tasks.end());
        state_.ready[rank] = all;
        if (state_.bytes > 0) state_.partial[rank] = {outputs_[rank], state_.offset, state_.bytes};
    }
}

void ring_allreduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                    const std::vector<int>& outputs, PieceBuffers buffers) {
    const int k = static_cast<int>(ranks.size());
    if (k <= 1) return;
    Pieces pieces(builder, ranks, state, outputs, buffers, k);
    for (int step = 0; step + 1 < k; ++step) {
        std::vector<Pieces::Send> sends;
        for (int i = 0; i < k; ++i) sends.push_back({i, (i + 1) % k, (i - step + k) % k, 1});
        pieces.round(sends, true, 0, fmt::format("ring-rs{}", step));
    }
    // Rank i now holds the whole reduction of piece i + 1.
    for (int step = 0; step + 1 < k; ++step) {
        std::vector<Pieces::Send> sends;
        for (int i = 0; i < k; ++i) sends.push_back({i, (i + 1) % k, (i + 1 - step + k) % k, 1});
        pieces.round(sends, false, 0, fmt::format("ring-ag{}", step));
    }
    pieces.finish();
}

namespace {

// Where a rank's run of pieces is after the halvings: [first[v], first[v] + length[v]) for active index v.
struct HalvedRuns {
    ExcessFold excess;
    std::vector<int> first, length;
};

// The excess ranks' fold, then the recursive halving of the p' pieces:
// active index v ends holding piece v fully reduced.
HalvedRuns halve(Pieces& pieces, std::size_t ranks, const std::string& prefix) {
    HalvedRuns runs{fold_adjacent(static_cast<int>(ranks)), {}, {}};
    const int pof2 = runs.excess.power;
    const std::vector<int>& active = runs.excess.active;
    std::vector<Pieces::Send> folds;
    for (const auto& [from, to] : runs.excess.folds) folds.push_back({from, to, 0, pof2});
    pieces.round(folds, true, 0, prefix + "-fold");
    // Recursive halving: keep the half of the current run that holds your own piece.
    runs.first.assign(pof2, 0);
    runs.length.assign(pof2, pof2);
    for (int mask = pof2 / 2, step = 0; mask >= 1; mask >>= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < pof2; ++v) {
            const int half = runs.length[v] / 2;
            const bool lower = (v & mask) == 0;  // keeps the lower half, gives the upper
            sends.push_back({active[v], active[v ^ mask], lower ? runs.first[v] + half : runs.first[v], half});
        }
        pieces.round(sends, true, step + 1, fmt::format("{}-rs{}", prefix, step));
        for (int v = 0; v < pof2; ++v) {
            if ((v & mask) != 0) runs.first[v] += runs.length[v] / 2;
            runs.length[v] /= 2;
        }
    }
    return runs;
}

}  // namespace

void rabenseifner_allreduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                            const std::vector<int>& outputs, PieceBuffers buffers) {
    if (ranks.size() <= 1) return;
    const int pof2 = largest_power_of_two(static_cast<int>(ranks.size()));
    Pieces pieces(builder, ranks, state, outputs, buffers, pof2);
    HalvedRuns runs = halve(pieces, ranks.size(), "rab");
    const std::vector<int>& active = runs.excess.active;
    std::vector<int>&first = runs.first, &length = runs.length;
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
    std::vector<Pieces::Send> unfolds;
    for (const auto& [from, to] : runs.excess.folds) unfolds.push_back({to, from, 0, pof2});
    pieces.round(unfolds, false, 0, "rab-unfold");
    pieces.finish();
}

void rabenseifner_reduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                         const std::vector<int>& outputs, PieceBuffers buffers, int root) {
    if (ranks.size() <= 1) return;
    const int pof2 = largest_power_of_two(static_cast<int>(ranks.size()));
    Pieces pieces(builder, ranks, state, outputs, buffers, pof2);
    const HalvedRuns runs = halve(pieces, ranks.size(), "rab");
    const std::vector<int>& active = runs.excess.active;
    // The gather's root: the root, or the rank an excess root folded into.
    int host = root;
    for (const auto& [from, to] : runs.excess.folds)
        if (from == root) host = to;
    const int vroot = static_cast<int>(std::find(active.begin(), active.end(), host) - active.begin());
    // Binomial gather toward vroot, relative by xor: in step `mask` the ranks
    // whose relative index has `mask` as its lowest set bit hand their
    // aligned run of `mask` pieces to the partner below.
    for (int mask = 1, step = 0; mask < pof2; mask <<= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < pof2; ++v) {
            const int relative = v ^ vroot;
            if ((relative & mask) == 0 || (relative & (mask - 1)) != 0) continue;
            sends.push_back({active[v], active[v ^ mask], v & ~(mask - 1), mask});
        }
        pieces.round(sends, false, 0, fmt::format("rab-gather{}", step));
    }
    if (host != root) pieces.round({{host, root, 0, pof2}}, false, 0, "rab-to-root");
    pieces.finish();
}

void recursive_doubling_allreduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                                  const std::vector<int>& outputs, PieceBuffers buffers) {
    if (ranks.size() <= 1) return;
    const ExcessFold excess = fold_adjacent(static_cast<int>(ranks.size()));
    const int pof2 = excess.power;
    Pieces pieces(builder, ranks, state, outputs, buffers, 1);
    std::vector<Pieces::Send> folds, unfolds;
    for (const auto& [from, to] : excess.folds) {
        folds.push_back({from, to, 0, 1});
        unfolds.push_back({to, from, 0, 1});
    }
    // Every round folds the whole chunk, which the partner reads in the same
    // round: each result goes to a fresh temp, the last to the output.
    pieces.round(folds, true, 0, "rd-fold", Pieces::Into::fresh, 0);
    for (int mask = 1, step = 0; mask < pof2; mask <<= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < pof2; ++v) sends.push_back({excess.active[v], excess.active[v ^ mask], 0, 1});
        const bool last = 2 * mask >= pof2;
        pieces.round(sends, true, step + 1, fmt::format("rd{}", step),
                     last ? Pieces::Into::output : Pieces::Into::fresh, step + 1);
    }
    pieces.round(unfolds, false, 0, "rd-unfold");
    pieces.finish();
}

}  // namespace numacoll::algo

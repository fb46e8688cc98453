#include "algorithms/patterns/internode.hpp"

#include <fmt/format.h>

#include "algorithms/patterns/power_of_two.hpp"

namespace numacoll::algo {

namespace {

class RecursiveDoubling {
public:
    RecursiveDoubling(ScheduleBuilder& builder, ChunkState& state, const std::vector<int>& outputs, TempPool& scratch)
        : builder_(builder), state_(state), outputs_(outputs), scratch_(scratch) {}

    // The range of `rank`'s temp buffer number `slot` that receives this chunk.
    Range scratch_range(int rank, std::size_t slot) {
        return scratch_.range(rank, slot, "rd", state_.offset, state_.bytes);
    }

    // Sends `from`'s partial into `into` on `to`'s node (no data when the chunk is empty).
    int send(int from, int to, Range into, const std::string& label) {
        const bool data = state_.bytes > 0;
        return builder_.net(from, to, data ? state_.partial[from] : Range{}, data ? into : Range{},
                            state_.ready[from], state_.tag + ":" + label);
    }

    // Folds a received partial into `at`'s partial, in its output buffer.
    void fold(int at, Range received, const std::vector<int>& deps, const std::string& label) {
        if (state_.bytes == 0) {
            state_.ready[at].insert(state_.ready[at].end(), deps.begin(), deps.end());
            return;
        }
        const Range out{outputs_[at], state_.offset, state_.bytes};
        const int task = builder_.reduce(at, {state_.partial[at], received}, out, deps, state_.tag + ":" + label);
        state_.partial[at] = out;
        state_.ready[at] = {task};
    }

    // Delivers `from`'s final result into `to`'s output.
    void deliver(int from, int to, const std::string& label) {
        const Range out{outputs_[to], state_.offset, state_.bytes};
        const int task = send(from, to, out, label);
        if (state_.bytes > 0) state_.partial[to] = out;
        state_.ready[to] = {task};
    }

private:
    ScheduleBuilder& builder_;
    ChunkState& state_;
    const std::vector<int>& outputs_;
    TempPool& scratch_;
};

}  // namespace

void internode_recursive_doubling(ScheduleBuilder& builder, const std::vector<int>& roots, ChunkState& state,
                                  const std::vector<int>& outputs, TempPool& scratch) {
    const int count = static_cast<int>(roots.size());
    if (count <= 1) return;
    const ExcessFold excess = fold_adjacent(count);
    const int pof2 = excess.power;
    RecursiveDoubling rd(builder, state, outputs, scratch);

    // The excess roots hand their partial over and sit out the exchange.
    for (const auto& [from, to] : excess.folds) {
        const Range tmp = rd.scratch_range(roots[to], 0);
        const int message = rd.send(roots[from], roots[to], tmp, "rd-fold");
        rd.fold(roots[to], tmp, {message}, "rd-fold-reduce");
    }
    std::vector<int> active;
    for (int index : excess.active) active.push_back(roots[index]);

    for (int mask = 1, step = 1; mask < pof2; mask <<= 1, ++step) {
        std::vector<int> sent(pof2);
        std::vector<Range> landing(pof2);
        for (int i = 0; i < pof2; ++i) landing[i] = rd.scratch_range(active[i], static_cast<std::size_t>(step));
        const std::string label = fmt::format("rd-step{}", step);
        for (int i = 0; i < pof2; ++i) sent[i] = rd.send(active[i], active[i ^ mask], landing[i ^ mask], label);
        // Each root folds after its own send: the send reads what the fold overwrites.
        for (int i = 0; i < pof2; ++i) rd.fold(active[i], landing[i], {sent[i ^ mask], sent[i]}, label + "-reduce");
    }

    for (const auto& [from, to] : excess.folds) rd.deliver(roots[to], roots[from], "rd-unfold");
}

void internode_binomial_reduce(ScheduleBuilder& builder, const std::vector<int>& leaders, ChunkState& state,
                               const HomeOf& home, TempPool& scratch) {
    const int count = static_cast<int>(leaders.size());
    for (int mask = 1, step = 0; mask < count; mask <<= 1, ++step) {
        for (int i = 0; i + mask < count; i += 2 * mask) {
            const int to = leaders[i], from = leaders[i + mask];
            const bool data = state.bytes > 0;
            const Range landing =
                data ? scratch.range(to, static_cast<std::size_t>(step), "bn", state.offset, state.bytes) : Range{};
            const std::string label = fmt::format("{}:bn-reduce{}", state.tag, step);
            const int message =
                builder.net(from, to, data ? state.partial[from] : Range{}, landing, state.ready[from], label);
            if (!data) {
                state.ready[to].push_back(message);
                continue;
            }
            std::vector<int> deps = state.ready[to];
            deps.push_back(message);
            const Range out = home(to);
            state.ready[to] = {builder.reduce(to, {state.partial[to], landing}, out, deps, label + "-fold")};
            state.partial[to] = out;
        }
    }
}

void internode_binomial_bcast(ScheduleBuilder& builder, const std::vector<int>& leaders, ChunkState& state,
                              const HomeOf& home) {
    const int count = static_cast<int>(leaders.size());
    int top = 1;
    while (top < count) top <<= 1;
    for (int mask = top >> 1, step = 0; mask >= 1; mask >>= 1, ++step) {
        for (int i = 0; i + mask < count; i += 2 * mask) {
            const int from = leaders[i], to = leaders[i + mask];
            const bool data = state.bytes > 0;
            const Range out = data ? home(to) : Range{};
            const int message = builder.net(from, to, data ? state.partial[from] : Range{}, out, state.ready[from],
                                            fmt::format("{}:bn-bcast{}", state.tag, step));
            if (data) state.partial[to] = out;
            state.ready[to] = {message};
        }
    }
}

}  // namespace numacoll::algo

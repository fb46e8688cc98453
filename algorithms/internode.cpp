#include "algorithms/internode.hpp"

#include <fmt/format.h>

namespace numacoll::algo {

namespace {

class RecursiveDoubling {
public:
    RecursiveDoubling(ScheduleBuilder& builder, ChunkState& state, const std::vector<int>& outputs,
                      std::vector<std::vector<int>>& scratch)
        : builder_(builder), state_(state), outputs_(outputs), scratch_(scratch) {}

    // The range of `rank`'s temp buffer number `slot` that receives this chunk.
    Range scratch_range(int rank, std::size_t slot) {
        while (scratch_[rank].size() <= slot)
            scratch_[rank].push_back(builder_.add_temp(rank, builder_.spec().bytes,
                                                       fmt::format("rd{}.{}", rank, scratch_[rank].size())));
        return {scratch_[rank][slot], state_.offset, state_.bytes};
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
    std::vector<std::vector<int>>& scratch_;
};

}  // namespace

void place_partial(ScheduleBuilder& builder, ChunkState& state, int rank, const Range& home) {
    if (state.bytes == 0 || state.partial[rank] == home) return;
    state.ready[rank] = {builder.copy(rank, state.partial[rank], home, state.ready[rank], state.tag + ":self")};
    state.partial[rank] = home;
}

void settle(ScheduleBuilder& builder, ChunkState& state) {
    for (int rank = 0; rank < static_cast<int>(state.ready.size()); ++rank) {
        std::vector<int> foreign;
        for (int task : state.ready[rank])
            if (builder.thread_of(task) != rank) foreign.push_back(task);
        if (foreign.empty()) continue;
        state.ready[rank] = {builder.wait(rank, foreign, state.tag + ":done")};
    }
}

void internode_recursive_doubling(ScheduleBuilder& builder, const std::vector<int>& roots, ChunkState& state,
                                  const std::vector<int>& outputs, std::vector<std::vector<int>>& scratch) {
    const int count = static_cast<int>(roots.size());
    if (count <= 1) return;
    int pof2 = 1;
    while (pof2 * 2 <= count) pof2 *= 2;
    const int excess = count - pof2;
    RecursiveDoubling rd(builder, state, outputs, scratch);

    // Fold the excess: of the first 2*excess roots, even ones hand their
    // partial to the next odd one and sit out the exchange.
    std::vector<int> active;
    for (int i = 0; i < count; ++i) {
        if (i < 2 * excess && i % 2 == 0) {
            const int from = roots[i], to = roots[i + 1];
            const Range tmp = rd.scratch_range(to, 0);
            const int message = rd.send(from, to, tmp, "rd-fold");
            rd.fold(to, tmp, {message}, "rd-fold-reduce");
        } else {
            active.push_back(roots[i]);
        }
    }

    for (int mask = 1, step = 1; mask < pof2; mask <<= 1, ++step) {
        std::vector<int> sent(pof2);
        std::vector<Range> landing(pof2);
        for (int i = 0; i < pof2; ++i) landing[i] = rd.scratch_range(active[i], static_cast<std::size_t>(step));
        const std::string label = fmt::format("rd-step{}", step);
        for (int i = 0; i < pof2; ++i) sent[i] = rd.send(active[i], active[i ^ mask], landing[i ^ mask], label);
        // Each root folds after its own send: the send reads what the fold overwrites.
        for (int i = 0; i < pof2; ++i) rd.fold(active[i], landing[i], {sent[i ^ mask], sent[i]}, label + "-reduce");
    }

    for (int i = 0; i < 2 * excess; i += 2) rd.deliver(roots[i + 1], roots[i], "rd-unfold");
}

}  // namespace numacoll::algo

namespace numacoll::algo {

ChunkState start_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag,
                       const std::vector<int>& inputs, int ranks) {
    ChunkState state;
    state.offset = offset;
    state.bytes = bytes;
    state.tag = tag;
    state.ready.resize(ranks);
    for (int rank = 0; rank < ranks; ++rank)
        state.partial.push_back(bytes > 0 && inputs[rank] >= 0 ? Range{inputs[rank], offset, bytes} : Range{});
    return state;
}

int ReadySignals::signal(ScheduleBuilder& builder, int src, int dst, const Range& src_partial,
                         const std::vector<int>& src_ready, const std::string& label) {
    const bool untouched_input = src_partial.buffer >= 0 && src_partial.buffer == inputs_[src] && src_ready.empty();
    if (!untouched_input) return builder.flag(src, dst, src_ready, label + ":ready");
    auto [it, fresh] = announced_.try_emplace({src, dst}, -1);
    if (fresh) it->second = builder.flag(src, dst, {}, label + ":ready");
    return it->second;
}

void fetch_partial(ScheduleBuilder& builder, ChunkState& state, int source, int reader, const Range& out,
                   const std::string& label) {
    const int told = builder.flag(source, reader, state.ready[source], label + ":go");
    if (state.bytes == 0) {
        state.ready[reader] = {told};
        return;
    }
    state.ready[reader] = {builder.copy(reader, state.partial[source], out, {told}, label)};
    state.partial[reader] = out;
}

void internode_binomial_reduce(ScheduleBuilder& builder, const std::vector<int>& leaders, ChunkState& state,
                               const std::function<Range(int)>& home, std::vector<std::vector<int>>& scratch) {
    const int count = static_cast<int>(leaders.size());
    for (int mask = 1, step = 0; mask < count; mask <<= 1, ++step) {
        for (int i = 0; i + mask < count; i += 2 * mask) {
            const int to = leaders[i], from = leaders[i + mask];
            const bool data = state.bytes > 0;
            while (data && scratch[to].size() <= static_cast<std::size_t>(step))
                scratch[to].push_back(builder.add_temp(to, builder.spec().bytes,
                                                       fmt::format("bn{}.{}", to, scratch[to].size())));
            const Range landing = data ? Range{scratch[to][step], state.offset, state.bytes} : Range{};
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
                              const std::function<Range(int)>& home) {
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

#include "algorithms/patterns/chunk_state.hpp"

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

void place_partial(ScheduleBuilder& builder, ChunkState& state, int rank, const Range& home) {
    if (state.bytes == 0 || state.partial[rank] == home) return;
    state.ready[rank] = {builder.copy(rank, state.partial[rank], home, state.ready[rank], state.tag + ":self")};
    state.partial[rank] = home;
}

void settle(ScheduleBuilder& builder, ChunkState& state) {
    for (int rank = 0; rank < static_cast<int>(state.ready.size()); ++rank)
        if (const int waited = builder.wait_for_others(rank, state.ready[rank], state.tag + ":done"); waited >= 0)
            state.ready[rank] = {waited};
}

}  // namespace numacoll::algo

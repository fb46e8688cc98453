#include "algorithms/patterns/point_to_point.hpp"

#include <fmt/format.h>

namespace numacoll::algo {

PointToPoint::PointToPoint(ScheduleBuilder& builder, std::vector<int> inputs, std::uint64_t vector_bytes)
    : builder_(builder), signals_(std::move(inputs)), landings_(builder, vector_bytes) {}

int PointToPoint::move(int src, const Range& from, const std::vector<int>& from_ready, int dst, const Range& to,
                       const std::string& label) {
    const bool data = from.buffer >= 0 && from.bytes > 0;
    if (src == dst)  // a rank moving its own data: a local copy, or just the wait
        return data ? builder_.copy(dst, from, to, from_ready, label) : builder_.wait(dst, from_ready, label);
    if (!builder_.layout().same_node(src, dst))
        return builder_.net(src, dst, data ? from : Range{}, data ? to : Range{}, from_ready, label);
    const int told = signals_.signal(builder_, src, dst, from, from_ready, label);
    if (!data) return told;
    return builder_.copy(dst, from, to, {told}, label);
}

void PointToPoint::announce(int src, const Range& input, int dst, const std::string& label) {
    if (input.buffer >= 0 && input.bytes > 0 && builder_.layout().same_node(src, dst))
        signals_.signal(builder_, src, dst, input, {}, label);
}

void PointToPoint::deliver(ChunkState& state, int src, int dst, const Range& out, const std::string& label) {
    const bool data = state.bytes > 0;
    const int task = move(src, data ? state.partial[src] : Range{}, state.ready[src], dst, data ? out : Range{},
                          state.tag + ":" + label);
    if (data) state.partial[dst] = out;
    state.ready[dst] = {task};
}

Range PointToPoint::landing(int rank, const ChunkState& state) {
    const std::size_t slot = landings_used_[{rank, state.tag}]++;
    return landings_.range(rank, slot, "recv", state.offset, state.bytes);
}

void PointToPoint::fold(ChunkState& state, int src, int dst, const Range& out, bool src_first,
                        const std::string& label) {
    const std::string full_label = state.tag + ":" + label;
    if (state.bytes == 0) {
        state.ready[dst].push_back(move(src, Range{}, state.ready[src], dst, Range{}, full_label));
        return;
    }
    std::vector<int> deps = state.ready[dst];
    Range theirs = state.partial[src];
    if (builder_.layout().same_node(src, dst)) {
        deps.push_back(signals_.signal(builder_, src, dst, theirs, state.ready[src], full_label));
    } else {
        const Range landed = landing(dst, state);
        deps.push_back(builder_.net(src, dst, theirs, landed, state.ready[src], full_label));
        theirs = landed;
    }
    const Range mine = state.partial[dst];
    const std::vector<Range> operands = src_first ? std::vector<Range>{theirs, mine} : std::vector<Range>{mine, theirs};
    state.ready[dst] = {builder_.reduce(dst, operands, out, deps, full_label + "-fold")};
    state.partial[dst] = out;
}

}  // namespace numacoll::algo

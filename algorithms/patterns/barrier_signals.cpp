#include "algorithms/patterns/barrier_signals.hpp"

#include "algorithms/patterns/chunk_state.hpp"

namespace numacoll::algo {

int BarrierSignals::signal(int from, int to, const std::vector<int>& deps, const std::string& label) {
    return builder_.layout().same_node(from, to) ? builder_.flag(from, to, deps, label)
                                                 : builder_.net(from, to, {}, {}, deps, label);
}

void BarrierSignals::send(int from, int to, const std::string& label) {
    heard_[to].push_back(signal(from, to, heard_[from], "c0:" + label));
}

void BarrierSignals::round(const std::vector<std::pair<int, int>>& pairs, const std::string& label) {
    std::vector<std::vector<int>> next = heard_;
    for (const auto& [from, to] : pairs) next[to].push_back(signal(from, to, heard_[from], "c0:" + label));
    heard_ = std::move(next);
}

Schedule BarrierSignals::finish() {
    ChunkState state;
    state.tag = "c0";
    state.ready = heard_;
    settle(builder_, state);
    return builder_.finish();
}

}  // namespace numacoll::algo

// barrier "dissemination" (HPDC'13 sections 2.3 and 5; Hensgen, Finkel and
// Manber's dissemination barrier): in round i every rank j signals rank
// (j + 2^i) mod p, so that after ceil(log2 p) rounds every rank has heard,
// directly or not, from every other. No data, no buffers, any rank count;
// a signal between nodes is a message without payload.
#include <fmt/format.h>

#include "algorithms/patterns/chunk_state.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule dissemination_barrier_schedule(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    ScheduleBuilder builder(layout, spec);
    const int p = layout.size();
    std::vector<std::vector<int>> received(p);
    for (int distance = 1, round = 0; distance < p; distance *= 2, ++round) {
        std::vector<std::vector<int>> next = received;
        for (int rank = 0; rank < p; ++rank) {
            const int to = (rank + distance) % p;
            const std::string label = fmt::format("c0:dis:r{}", round);
            const int signal = layout.same_node(rank, to) ? builder.flag(rank, to, received[rank], label)
                                                          : builder.net(rank, to, {}, {}, received[rank], label);
            next[to].push_back(signal);
        }
        received = std::move(next);
    }
    ChunkState state;
    state.tag = "c0";
    state.ready = received;
    settle(builder, state);
    return builder.finish();
}

}  // namespace

AlgorithmInfo barrier_dissemination_info() {
    return {Collective::barrier, "dissemination",
            "ceil(log2 p) rounds of signals, no tree; fewest steps, for any rank count",
            "Li, Hoefler, Snir, HPDC'13, sections 2.3 and 5 (Hensgen et al.'s dissemination barrier)",
            {}, dissemination_barrier_schedule};
}

}  // namespace numacoll::algo

// alltoall "linear-sync" (Open MPI's algorithm 4): the linear exchange with
// at most K sends and K receives outstanding (option requests; 0, Open
// MPI's default, is no limit and the linear exchange itself). A rank posts
// its first K sends (to r - 1, ..., r - K), then, receive after receive
// (from r + 1, r + 2, ...), replaces each completed send by the next one.
// A send completes when its receiver has taken the data: across nodes once
// the message has arrived, on one node when the receiver, having pulled
// the block, flags back (the shared-memory transports' completion of a
// single-copy receive). Bounded buffering for many ranks
// (algorithms/alltoall/blocks.hpp).
#include <fmt/format.h>

#include "algorithms/alltoall/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_sync_alltoall(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    AlltoallBlocks alltoall(spec, layout);
    ScheduleBuilder& builder = alltoall.builder();
    const int p = alltoall.ranks();
    const int requested = options.integer("requests", 0);
    const int window = requested == 0 || requested > p - 1 ? p - 1 : requested;
    for (int rank = 0; rank < p; ++rank) alltoall.own_block(rank);
    // sent[r][i]: r's i-th send (to r - i); done[r][i]: when it completed.
    std::vector<std::vector<int>> sent(static_cast<std::size_t>(p), std::vector<int>(static_cast<std::size_t>(p), -1));
    std::vector<std::vector<int>> done = sent;
    const auto post = [&](int rank, int i, const std::vector<int>& deps) {
        const int to = (rank - i + p) % p;
        sent[rank][i] = alltoall.send(rank, to, alltoall.input(rank, to, 1), alltoall.output(to, rank, 1), deps,
                                      fmt::format("sync{}", i));
        if (!alltoall.same_node(rank, to)) done[rank][i] = sent[rank][i];
    };
    for (int rank = 0; rank < p; ++rank)
        for (int i = 1; i <= window; ++i) post(rank, i, {});
    for (int i = 1; i < p; ++i) {
        const bool refill = i + window < p;
        for (int rank = 0; rank < p; ++rank) {
            const int from = (rank + i) % p;  // whose i-th send is to this rank
            const int got = alltoall.receive(rank, from, alltoall.input(from, rank, 1), alltoall.output(rank, from, 1),
                                             sent[from][i], false, fmt::format("sync{}", i));
            if (refill && alltoall.same_node(rank, from))
                done[from][i] = builder.flag(rank, from, {got}, fmt::format("sync{}:taken", i));
        }
        if (refill)
            for (int rank = 0; rank < p; ++rank) post(rank, i + window, {done[rank][i]});
    }
    return alltoall.finish();
}

}  // namespace

AlgorithmInfo alltoall_linear_sync_info() {
    return {Collective::alltoall, "linear-sync",
            "the linear exchange with at most K sends and receives outstanding; many ranks, bounded buffering",
            "Open MPI coll/tuned alltoall linear_sync (algorithm 4)",
            {{"requests", "0", "sends (and receives) outstanding at once, K; 0: no limit, the linear exchange",
              {"1"}}},
            linear_sync_alltoall,
            RankKind::process};
}

}  // namespace numacoll::algo

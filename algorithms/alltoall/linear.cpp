// alltoall "linear" (Open MPI's basic linear, algorithm 1): a rank copies
// its own block, posts every receive and every send at once (sends to
// r - 1, r - 2, ..., receives from r + 1, r + 2, ...) and waits for them
// all. On one node every rank raises its p - 1 flags, then pulls its p - 1
// blocks one after the other while the others pull theirs: p readers at
// once. One message per peer: few ranks, or large blocks
// (algorithms/alltoall/blocks.hpp).
#include <fmt/format.h>

#include "algorithms/alltoall/blocks.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule linear_alltoall(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AlltoallBlocks alltoall(spec, layout);
    const int p = alltoall.ranks();
    for (int rank = 0; rank < p; ++rank) alltoall.own_block(rank);
    // sent[r][q]: r's hand-over to q.
    std::vector<std::vector<int>> sent(static_cast<std::size_t>(p), std::vector<int>(static_cast<std::size_t>(p), -1));
    for (int rank = 0; rank < p; ++rank)
        for (int i = 1; i < p; ++i) {
            const int to = (rank - i + p) % p;
            sent[rank][to] = alltoall.send(rank, to, alltoall.input(rank, to, 1), alltoall.output(to, rank, 1), {},
                                           fmt::format("linear{}", rank));
        }
    for (int rank = 0; rank < p; ++rank)
        for (int i = 1; i < p; ++i) {
            const int from = (rank + i) % p;
            alltoall.receive(rank, from, alltoall.input(from, rank, 1), alltoall.output(rank, from, 1),
                             sent[from][rank], false, fmt::format("linear{}", from));
        }
    return alltoall.finish();
}

}  // namespace

AlgorithmInfo alltoall_linear_info() {
    return {Collective::alltoall, "linear",
            "every send and receive posted at once, one message per peer; few ranks or large blocks",
            "Open MPI coll/tuned alltoall basic linear (algorithm 1)", {}, linear_alltoall, RankKind::process};
}

}  // namespace numacoll::algo

// allgather "recursive-doubling": log2 p steps; in step k rank r exchanges
// with r xor 2^k the run of blocks of its aligned group, doubling what each
// holds. A p that is not a power of two folds the excess ranks into their
// partners first (rank p' + i into rank i, which carries its block from then
// on) and sends them the whole result at the end (MPICH's recursive-doubling
// allgather; Thakur, Rabenseifner, Gropp). Small blocks.
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/allgather/blocks.hpp"
#include "algorithms/patterns/power_of_two.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

Schedule recursive_doubling_allgather(const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
    AllgatherBlocks allgather(spec, layout);
    const int ranks = allgather.ranks();
    const ExcessFold excess = fold_upper(ranks);
    const int pof2 = excess.power;
    for (int rank : excess.active) allgather.own_block(rank);
    for (const auto& [rank, host] : excess.folds) {
        const int task = allgather.p2p().move(rank, allgather.input(rank), {}, host, allgather.blocks(host, rank, 1),
                                              fmt::format("rd-fold{}", rank));
        allgather.ready().set(host, rank, 1, task);
    }
    for (int mask = 1, step = 0; mask < pof2; mask <<= 1, ++step)
        for (int rank = 0; rank < pof2; ++rank) {
            // A rank holds the run of blocks of its aligned group, plus their excess partners' blocks.
            const int base = rank & ~(mask - 1);
            const std::string label = fmt::format("rd-step{}", step);
            allgather.pass(rank, rank ^ mask, base, mask, label);
            if (base + pof2 < ranks)
                allgather.pass(rank, rank ^ mask, base + pof2, std::min(mask, ranks - base - pof2), label);
        }
    for (const auto& [rank, host] : excess.folds) allgather.pass(host, rank, 0, ranks, fmt::format("rd-unfold{}", rank));
    return allgather.finish();
}

}  // namespace

AlgorithmInfo allgather_recursive_doubling_info() {
    return {Collective::allgather, "recursive-doubling", "log2 p exchanges of doubling runs of blocks; small blocks",
            "MPICH recursive-doubling allgather (Thakur, Rabenseifner, Gropp)", {}, recursive_doubling_allgather,
            RankKind::process};
}

}  // namespace numacoll::algo

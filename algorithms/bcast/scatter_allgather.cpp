// bcast "scatter-allgather" (Open MPI's coll_tuned_bcast algorithm 8;
// Thakur, Rabenseifner, Gropp 2005, section 4.3): a binomial scatter of p
// blocks (bcast/scattered.hpp), then a recursive-doubling allgather: in
// step `mask` relative rank v exchanges its aligned run of blocks with
// v xor mask. Where p is not a power of two, a rank whose partner's run was
// cut short by p, or who had no partner, gets the blocks it misses from a
// rank of its half that has them, by recursive halving (Open MPI's fix-up,
// step for step). Large vectors, few steps.
#include <fmt/format.h>

#include <algorithm>

#include "algorithms/bcast/scattered.hpp"
#include "algorithms/registry.hpp"

namespace numacoll::algo {

namespace {

void recursive_doubling_allgather(Pieces& pieces, int ranks) {
    for (int mask = 1, step = 0; mask < ranks; mask <<= 1, ++step) {
        std::vector<Pieces::Send> sends;
        for (int v = 0; v < ranks; ++v) {
            const int partner = v ^ mask, base = v & ~(mask - 1);
            if (partner < ranks) sends.push_back({v, partner, base, std::min(mask, ranks - base)});
        }
        pass_to_non_root(pieces, sends, fmt::format("rd{}", step));
        // The lower half of a group whose upper half is cut short: the blocks
        // [base + mask, ranks) reached only `have` of its ranks; they pass them on.
        for (int half = mask / 2, fix = 0; half >= 1; half /= 2, ++fix) {
            std::vector<Pieces::Send> fixes;
            for (int v = 0; v < ranks; ++v) {
                const int base = v & ~(mask - 1);
                if ((v & mask) != 0 || base + 2 * mask <= ranks) continue;
                const int have = ranks - base - mask;
                const int partner = v ^ half, tree = v & ~(2 * half - 1);
                if (partner > v && v < tree + have && partner >= tree + have)
                    fixes.push_back({v, partner, base + mask, ranks - base - mask});
            }
            if (!fixes.empty()) pass_to_non_root(pieces, fixes, fmt::format("rd{}-fix{}", step, fix));
        }
    }
}

}  // namespace

AlgorithmInfo bcast_scatter_allgather_info() {
    return {Collective::bcast, "scatter-allgather",
            "binomial scatter of p blocks, then a recursive-doubling allgather; large vectors, few steps",
            "Thakur, Rabenseifner, Gropp 2005, section 4.3; Open MPI coll/tuned bcast scatter_allgather (algorithm 8)",
            {},
            [](const CollectiveSpec& spec, const Layout& layout, const OptionReader&) {
                return scatter_then_allgather(spec, layout, recursive_doubling_allgather);
            },
            RankKind::process};
}

}  // namespace numacoll::algo

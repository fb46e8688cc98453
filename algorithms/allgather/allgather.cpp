#include "algorithms/allgather/allgather.hpp"

#include <fmt/format.h>

#include <optional>

#include "algorithms/block_readiness.hpp"
#include "algorithms/leaders.hpp"
#include "algorithms/point_to_point.hpp"

namespace numacoll::algo {

namespace {

class Allgather {
public:
    Allgather(const CollectiveSpec& spec, const Layout& layout)
        : builder_(layout, spec), layout_(layout), ranks_(layout.size()), block_(spec.bytes), ready_(ranks_, ranks_) {
        for (int rank = 0; rank < ranks_; ++rank) {
            inputs_.push_back(builder_.add_input(rank, block_));
            outputs_.push_back(builder_.add_output(rank, block_ * ranks_));
        }
        p2p_.emplace(builder_, inputs_);
    }

    Schedule ring() {
        for (int rank = 0; rank < ranks_; ++rank) own_block(rank);
        for (int step = 0; step + 1 < ranks_; ++step)
            for (int rank = 0; rank < ranks_; ++rank) {
                const int block = (rank - step + ranks_) % ranks_;
                pass(rank, (rank + 1) % ranks_, block, 1, fmt::format("ring{}", step));
            }
        return finish();
    }

    Schedule recursive_doubling() {
        int pof2 = 1;
        while (pof2 * 2 <= ranks_) pof2 *= 2;
        for (int rank = 0; rank < pof2; ++rank) own_block(rank);
        // Excess rank r hands its block to r - pof2, which carries it from then on.
        for (int rank = pof2; rank < ranks_; ++rank) {
            const int task = p2p_->move(rank, input(rank), {}, rank - pof2, blocks(rank - pof2, rank, 1),
                                        fmt::format("rd-fold{}", rank));
            ready_.set(rank - pof2, rank, 1, task);
        }
        for (int mask = 1, step = 0; mask < pof2; mask <<= 1, ++step)
            for (int rank = 0; rank < pof2; ++rank) {
                // A rank holds the run of blocks of its aligned group, plus their excess partners' blocks.
                const int base = rank & ~(mask - 1);
                const std::string label = fmt::format("rd-step{}", step);
                pass(rank, rank ^ mask, base, mask, label);
                if (base + pof2 < ranks_) pass(rank, rank ^ mask, base + pof2, std::min(mask, ranks_ - base - pof2), label);
            }
        for (int rank = pof2; rank < ranks_; ++rank) pass(rank - pof2, rank, 0, ranks_, fmt::format("rd-unfold{}", rank));
        return finish();
    }

    Schedule leader_based(LeaderRule rule) {
        const int per_node = layout_.ranks_per_node;
        const int leader_local = leader_local_rank(layout_, 0, rule);
        const auto leader_of = [&](int node) { return layout_.node_root(node) + leader_local; };
        for (int node = 0; node < layout_.nodes; ++node)
            for (int local = 0; local < per_node; ++local) {
                const int rank = layout_.node_root(node) + local, leader = leader_of(node);
                const int task = p2p_->move(rank, input(rank), {}, leader, blocks(leader, rank, 1),
                                            fmt::format("collect{}-{}", rank, leader));
                ready_.set(leader, rank, 1, task);
            }
        for (int from = 0; from < layout_.nodes; ++from)
            for (int k = 1; k < layout_.nodes; ++k) {
                const int to = (from + k) % layout_.nodes;
                pass(leader_of(from), leader_of(to), layout_.node_root(from), per_node,
                     fmt::format("leaders{}-{}", from, to));
            }
        for (int rank = 0; rank < ranks_; ++rank)
            if (rank != leader_of(layout_.node_of(rank)))
                pass(leader_of(layout_.node_of(rank)), rank, 0, ranks_, fmt::format("spread{}", rank));
        return finish();
    }

private:
    Range input(int rank) const { return block_ == 0 ? Range{} : Range{inputs_[rank], 0, block_}; }
    Range blocks(int rank, int first, int count) const {
        return block_ == 0 ? Range{} : blocks_range(outputs_[rank], first, count, block_);
    }
    void own_block(int rank) {
        ready_.set(rank, rank, 1, p2p_->move(rank, input(rank), {}, rank, blocks(rank, rank, 1), "own"));
    }
    // Blocks [first, first + count) of src's output go to the same blocks of dst's.
    void pass(int src, int dst, int first, int count, const std::string& label) {
        const int task =
            p2p_->move(src, blocks(src, first, count), ready_.of(src, first, count), dst, blocks(dst, first, count), label);
        ready_.set(dst, first, count, task);
    }
    Schedule finish() {
        ready_.settle(builder_, "allgather:done");
        return builder_.finish();
    }

    ScheduleBuilder builder_;
    const Layout& layout_;
    int ranks_;
    std::uint64_t block_;
    BlockReadiness ready_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::optional<PointToPoint> p2p_;
};

AlgorithmInfo allgather_info(const std::string& name, const std::string& summary, const std::string& source) {
    AlgorithmInfo info;
    info.collective = Collective::allgather;
    info.name = name;
    info.summary = summary;
    info.source = source;
    if (name == "leader") info.options = {leader_option()};
    info.generate = [name](const CollectiveSpec& spec, const Layout& layout) {
        Allgather allgather(spec, layout);
        if (name == "ring") return allgather.ring();
        if (name == "recursive-doubling") return allgather.recursive_doubling();
        const OptionReader reader(spec, find_algorithm(spec.collective, name));
        return allgather.leader_based(read_leader_rule(reader));
    };
    return info;
}

}  // namespace

std::vector<AlgorithmInfo> allgather_infos() {
    return {
        allgather_info("ring", "p-1 neighbour steps, each block crosses each link once; large blocks",
                       "MPICH/Open MPI ring allgather, as compared in the NUIOA paper, section 3.3.3"),
        allgather_info("recursive-doubling", "log2 p exchanges of doubling runs of blocks; small blocks",
                       "MPICH recursive-doubling allgather (Thakur, Rabenseifner, Gropp)"),
        allgather_info("leader", "node leaders gather, exchange among themselves, then spread inside their node",
                       "Moreaud, Goglin, Namyst, NUIOA-aware collectives, section 3.3.3"),
    };
}

}  // namespace numacoll::algo

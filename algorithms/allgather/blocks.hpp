// What every allgather algorithm writes: an input block of m bytes and an
// output of p blocks per rank (rank q's at block q), which tasks make each
// block of each output ready (BlockReadiness), moves through PointToPoint,
// and each rank's last task, which waits for the blocks others delivered.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/builder.hpp"
#include "algorithms/patterns/block_readiness.hpp"
#include "algorithms/patterns/pieces.hpp"
#include "algorithms/patterns/point_to_point.hpp"

namespace numacoll::algo {

class AllgatherBlocks {
public:
    AllgatherBlocks(const CollectiveSpec& spec, const Layout& layout);

    PointToPoint& p2p() { return *p2p_; }
    BlockReadiness& ready() { return ready_; }
    int ranks() const { return ranks_; }
    std::uint64_t block_bytes() const { return block_; }

    Range input(int rank) const { return block_ == 0 ? Range{} : Range{inputs_[rank], 0, block_}; }
    // Blocks [first, first + count) of `rank`'s output.
    Range blocks(int rank, int first, int count) const {
        return block_ == 0 ? Range{} : blocks_range(outputs_[rank], first, count, block_);
    }
    // `rank` copies its own input into its block of its output.
    void own_block(int rank);
    // Blocks [first, first + count) of src's output go to the same blocks of dst's.
    void pass(int src, int dst, int first, int count, const std::string& label);

    // Every rank waits for the blocks others delivered; the schedule.
    Schedule finish();

private:
    ScheduleBuilder builder_;
    int ranks_;
    std::uint64_t block_;
    BlockReadiness ready_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::optional<PointToPoint> p2p_;
};

// The frame of the allgathers written as rounds of hand-overs
// (patterns/pieces.hpp; ring and neighbor exchange): every rank copies its
// own block into its output, then each round's signals go out before its
// copies, as a send-receive posts both halves at once, so a rank's send
// does not wait behind its own receive of the same step. Block q is piece q.
using AllgatherRounds = std::function<void(Pieces& pieces, int ranks)>;
Schedule allgather_in_rounds(const CollectiveSpec& spec, const Layout& layout, const AllgatherRounds& rounds);

// The ring's p - 1 rounds: in round s rank r hands block r - s to rank r + 1.
void ring_rounds(Pieces& pieces, int ranks);

}  // namespace numacoll::algo

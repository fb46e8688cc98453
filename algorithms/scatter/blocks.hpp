// What Open MPI's scatters (scatter/linear.cpp, scatter/binomial.cpp)
// write: the root's input of p blocks of m bytes (rank q's at block q), an
// output block per rank, moves between ranks through PointToPoint (a pull
// on one node, a message across nodes), and each rank's last task, which
// waits for the task that delivered its block.
#pragma once

#include <optional>
#include <vector>

#include "algorithms/builder.hpp"
#include "algorithms/patterns/block_readiness.hpp"
#include "algorithms/patterns/point_to_point.hpp"

namespace numacoll::algo {

class ScatterBlocks {
public:
    ScatterBlocks(const CollectiveSpec& spec, const Layout& layout);

    ScheduleBuilder& builder() { return builder_; }
    PointToPoint& p2p() { return *p2p_; }
    int root() const { return root_; }
    int ranks() const { return ranks_; }
    std::uint64_t block_bytes() const { return block_; }

    // Blocks [first, first + count) of `buffer` (empty for no data or no buffer).
    Range blocks(int buffer, int first, int count) const {
        return block_ == 0 || buffer < 0 ? Range{} : blocks_range(buffer, first, count, block_);
    }
    // Blocks [first, first + count) of the root's input.
    Range input_blocks(int first, int count) const { return blocks(input_, first, count); }
    Range output(int rank) const { return block_ == 0 ? Range{} : Range{outputs_[rank], 0, block_}; }

    // `rank` waits for the task that delivered its block, before it leaves.
    void wait_for_block(int rank, int delivered) { builder_.wait_for_others(rank, {delivered}, "scatter:done"); }
    Schedule finish() { return builder_.finish(); }

private:
    ScheduleBuilder builder_;
    int root_;
    int ranks_;
    std::uint64_t block_;
    int input_ = -1;
    std::vector<int> outputs_;
    std::optional<PointToPoint> p2p_;
};

}  // namespace numacoll::algo

// What every gather algorithm writes: an input block of m bytes per rank,
// the root's output of p blocks (rank q's at block q), moves between ranks
// through PointToPoint (a pull on one node, a message across nodes), and
// the root's last task, which waits for every block that others delivered.
#pragma once

#include <optional>
#include <vector>

#include "algorithms/builder.hpp"
#include "algorithms/patterns/block_readiness.hpp"
#include "algorithms/patterns/point_to_point.hpp"

namespace numacoll::algo {

class GatherBlocks {
public:
    GatherBlocks(const CollectiveSpec& spec, const Layout& layout);

    ScheduleBuilder& builder() { return builder_; }
    PointToPoint& p2p() { return *p2p_; }
    int root() const { return root_; }
    int ranks() const { return ranks_; }
    std::uint64_t block_bytes() const { return block_; }

    // Rank `rank`'s input block (empty for a gather of nothing).
    Range input(int rank) const { return block_ == 0 ? Range{} : Range{inputs_[rank], 0, block_}; }
    // Blocks [first, first + count) of the root's output.
    Range out_blocks(int first, int count) const {
        return block_ == 0 ? Range{} : blocks_range(output_, first, count, block_);
    }
    // Blocks [first, first + count) of a range that starts at a block boundary.
    Range part(const Range& range, int first, int count) const {
        if (range.buffer < 0) return Range{};
        return {range.buffer, range.offset + block_ * first, block_ * count};
    }

    // The root waits for the blocks others delivered (`arrived`); the schedule.
    Schedule finish(const std::vector<int>& arrived);

private:
    ScheduleBuilder builder_;
    int root_;
    int ranks_;
    std::uint64_t block_;
    std::vector<int> inputs_;
    int output_ = -1;
    std::optional<PointToPoint> p2p_;
};

}  // namespace numacoll::algo

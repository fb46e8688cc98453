// algo::BlockReadiness: for collectives that move blocks (scatter, gather,
// allgather), which tasks must end before block b of a rank's buffer holds
// its data. Block b is rank b's share: bytes [b*m, (b+1)*m).
#pragma once

#include <string>
#include <vector>

#include "algorithms/builder.hpp"

namespace numacoll::algo {

class BlockReadiness {
public:
    BlockReadiness(int ranks, int blocks) : ready_(ranks, std::vector<std::vector<int>>(blocks)) {}

    // Every task blocks [first, first + count) of `rank` wait for, each once.
    std::vector<int> of(int rank, int first, int count) const;
    // Blocks [first, first + count) of `rank` are ready once `task` ends.
    void set(int rank, int first, int count, int task);

    // Each rank waits for the tasks of other threads its blocks depend on, so
    // that it cannot leave the collective before its data has arrived.
    void settle(ScheduleBuilder& builder, const std::string& label) const;

private:
    std::vector<std::vector<std::vector<int>>> ready_;  // [rank][block] -> tasks
};

// Bytes [block * block_bytes, (block + count) * block_bytes) of `buffer`.
inline Range blocks_range(int buffer, int block, int count, std::uint64_t block_bytes) {
    return {buffer, static_cast<std::uint64_t>(block) * block_bytes, static_cast<std::uint64_t>(count) * block_bytes};
}

}  // namespace numacoll::algo

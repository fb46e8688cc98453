// What every alltoall algorithm writes (Open MPI coll/tuned's alltoall
// algorithms 1-5; Thakur, Rabenseifner, Gropp 2005, section 4.5): an input
// and an output of p blocks of m bytes per rank, block q of rank r's output
// being block r of rank q's input.
//
// A hand-over is written in its two halves, so that an algorithm places each
// in its rank's program order where Open MPI's does: the sender's half (on
// one node a flag saying its data is readable; across nodes the message
// itself) and the receiver's half (on one node its copy, the receiver
// pulling as the shared-memory transports do; across nodes nothing, or a
// wait where the algorithm waits for the message before going on).
//
// Invariants: a rank's last task waits for every message and signal its
// output depends on (finish); of 0 bytes, hand-overs keep their signals and
// moves nothing. Ranks are MPI processes.
#pragma once

#include <string>
#include <vector>

#include "algorithms/builder.hpp"
#include "algorithms/patterns/block_readiness.hpp"

namespace numacoll::algo {

class AlltoallBlocks {
public:
    AlltoallBlocks(const CollectiveSpec& spec, const Layout& layout);

    ScheduleBuilder& builder() { return builder_; }
    int ranks() const { return ranks_; }
    std::uint64_t block_bytes() const { return block_; }
    bool same_node(int a, int b) const { return builder_.layout().same_node(a, b); }

    // Blocks [first, first + count) of `rank`'s input or output (empty of 0 bytes).
    Range input(int rank, int first, int count) const { return blocks(inputs_[rank], first, count); }
    Range output(int rank, int first, int count) const { return blocks(outputs_[rank], first, count); }
    // Blocks [first, first + count) of one of the buffers below.
    Range blocks(int buffer, int first, int count) const {
        return block_ == 0 ? Range{} : blocks_range(buffer, first, count, block_);
    }
    // A temp buffer of `blocks` blocks on `rank`.
    int temp(int rank, int blocks, const std::string& name);

    // `rank` copies `from` into `to` after deps (nothing of 0 bytes: -1).
    int local_copy(int rank, const Range& from, const Range& to, const std::vector<int>& deps,
                   const std::string& label);
    // `rank` copies its own input block into its output block rank.
    void own_block(int rank);

    // The sender's half: on one node, src flags dst that `from` is readable
    // once deps have ended; across nodes, the message of `from` into `to`.
    int send(int src, int dst, const Range& from, const Range& to, const std::vector<int>& deps,
             const std::string& label);
    // The receiver's half of the hand-over `sent`: on one node dst copies
    // `from` into `to`; across nodes the message landed in `to` by itself, and
    // dst waits for it only when `wait_here` (a send-receive that returns
    // once its receive is done). Returns the task after which dst holds the
    // data, and records it for finish() when `to` is dst's output.
    int receive(int dst, int src, const Range& from, const Range& to, int sent, bool wait_here,
                const std::string& label);

    // Each rank waits for what others delivered into its output; the schedule.
    Schedule finish();

private:
    ScheduleBuilder builder_;
    int ranks_;
    std::uint64_t block_;
    std::vector<int> inputs_;
    std::vector<int> outputs_;
    std::vector<std::vector<int>> arrived_;  // per rank, the tasks its output waits for
};

// The hand-overs of the pairwise exchange (Open MPI's alltoall 2, and its
// two-process exchange 5 on two ranks): p - 1 send-receive steps, in step s
// rank r sending block r + s and receiving from r - s; each step starts once
// the rank's receive of the one before is done; the rank's own block last.
void pairwise_exchange(AlltoallBlocks& alltoall);

}  // namespace numacoll::algo

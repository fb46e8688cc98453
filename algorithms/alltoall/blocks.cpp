#include "algorithms/alltoall/blocks.hpp"

#include <fmt/format.h>

namespace numacoll::algo {

AlltoallBlocks::AlltoallBlocks(const CollectiveSpec& spec, const Layout& layout)
    : builder_(layout, spec), ranks_(layout.size()), block_(spec.bytes), arrived_(static_cast<std::size_t>(ranks_)) {
    const std::uint64_t all = block_ * static_cast<std::uint64_t>(ranks_);
    for (int rank = 0; rank < ranks_; ++rank) {
        inputs_.push_back(builder_.add_input(rank, all));
        outputs_.push_back(builder_.add_output(rank, all));
    }
}

int AlltoallBlocks::temp(int rank, int blocks, const std::string& name) {
    return block_ == 0 ? -1 : builder_.add_temp(rank, block_ * static_cast<std::uint64_t>(blocks), name);
}

int AlltoallBlocks::local_copy(int rank, const Range& from, const Range& to, const std::vector<int>& deps,
                               const std::string& label) {
    if (from.buffer < 0 || from.bytes == 0) return -1;
    return builder_.copy(rank, from, to, deps, label);
}

void AlltoallBlocks::own_block(int rank) { local_copy(rank, input(rank, rank, 1), output(rank, rank, 1), {}, "own"); }

int AlltoallBlocks::send(int src, int dst, const Range& from, const Range& to, const std::vector<int>& deps,
                         const std::string& label) {
    if (same_node(src, dst)) return builder_.flag(src, dst, deps, label + ":ready");
    const bool data = from.buffer >= 0 && from.bytes > 0;
    return builder_.net(src, dst, data ? from : Range{}, data ? to : Range{}, deps, label);
}

int AlltoallBlocks::receive(int dst, int src, const Range& from, const Range& to, int sent, bool wait_here,
                            const std::string& label) {
    int task = sent;
    if (same_node(src, dst))
        task = from.buffer >= 0 && from.bytes > 0 ? builder_.copy(dst, from, to, {sent}, label)
                                                  : builder_.wait(dst, {sent}, label);
    else if (wait_here)
        task = builder_.wait(dst, {sent}, label);
    if (to.buffer < 0 || to.buffer == outputs_[dst]) arrived_[dst].push_back(task);
    return task;
}

Schedule AlltoallBlocks::finish() {
    for (int rank = 0; rank < ranks_; ++rank) builder_.wait_for_others(rank, arrived_[rank], "alltoall:done");
    return builder_.finish();
}

void pairwise_exchange(AlltoallBlocks& alltoall) {
    const int p = alltoall.ranks();
    for (int step = 1; step < p; ++step) {
        const std::string label = fmt::format("pairwise{}", step);
        std::vector<int> sent(static_cast<std::size_t>(p));
        // Every rank's send first: it follows the rank's receive of the step before in program order.
        for (int rank = 0; rank < p; ++rank) {
            const int to = (rank + step) % p;
            sent[rank] = alltoall.send(rank, to, alltoall.input(rank, to, 1), alltoall.output(to, rank, 1), {}, label);
        }
        for (int rank = 0; rank < p; ++rank) {
            const int from = (rank - step + p) % p;
            alltoall.receive(rank, from, alltoall.input(from, rank, 1), alltoall.output(rank, from, 1), sent[from],
                             true, label);
        }
    }
    for (int rank = 0; rank < p; ++rank) alltoall.own_block(rank);
}

}  // namespace numacoll::algo

#include "algorithms/allgather/blocks.hpp"

namespace numacoll::algo {

AllgatherBlocks::AllgatherBlocks(const CollectiveSpec& spec, const Layout& layout)
    : builder_(layout, spec), ranks_(layout.size()), block_(spec.bytes), ready_(ranks_, ranks_) {
    for (int rank = 0; rank < ranks_; ++rank) {
        inputs_.push_back(builder_.add_input(rank, block_));
        outputs_.push_back(builder_.add_output(rank, block_ * ranks_));
    }
    p2p_.emplace(builder_, inputs_);
}

void AllgatherBlocks::own_block(int rank) {
    ready_.set(rank, rank, 1, p2p_->move(rank, input(rank), {}, rank, blocks(rank, rank, 1), "own"));
}

void AllgatherBlocks::pass(int src, int dst, int first, int count, const std::string& label) {
    const int task =
        p2p_->move(src, blocks(src, first, count), ready_.of(src, first, count), dst, blocks(dst, first, count), label);
    ready_.set(dst, first, count, task);
}

Schedule AllgatherBlocks::finish() {
    ready_.settle(builder_, "allgather:done");
    return builder_.finish();
}

}  // namespace numacoll::algo

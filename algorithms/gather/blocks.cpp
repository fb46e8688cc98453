#include "algorithms/gather/blocks.hpp"

namespace numacoll::algo {

GatherBlocks::GatherBlocks(const CollectiveSpec& spec, const Layout& layout)
    : builder_(layout, spec), root_(spec.root), ranks_(layout.size()), block_(spec.bytes) {
    for (int rank = 0; rank < ranks_; ++rank) inputs_.push_back(builder_.add_input(rank, block_));
    output_ = builder_.add_output(root_, block_ * ranks_);
    p2p_.emplace(builder_, inputs_);
}

Schedule GatherBlocks::finish(const std::vector<int>& arrived) {
    builder_.wait_for_others(root_, arrived, "gather:done");
    return builder_.finish();
}

}  // namespace numacoll::algo

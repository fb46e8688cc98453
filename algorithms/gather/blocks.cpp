#include "algorithms/gather/blocks.hpp"

namespace numacoll::algo {

GatherBlocks::GatherBlocks(const CollectiveSpec& spec, const Layout& layout)
    : builder_(layout, spec), layout_(layout), root_(spec.root), ranks_(layout.size()), block_(spec.bytes) {
    for (int rank = 0; rank < ranks_; ++rank) inputs_.push_back(builder_.add_input(rank, block_));
    output_ = builder_.add_output(root_, block_ * ranks_);
    p2p_.emplace(builder_, inputs_);
}

Schedule GatherBlocks::finish(const std::vector<int>& arrived) {
    std::vector<int> foreign;
    for (int task : arrived)
        if (builder_.thread_of(task) != root_) foreign.push_back(task);
    if (!foreign.empty()) builder_.wait(root_, foreign, "gather:done");
    return builder_.finish();
}

}  // namespace numacoll::algo

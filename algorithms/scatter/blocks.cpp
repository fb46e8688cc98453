#include "algorithms/scatter/blocks.hpp"

namespace numacoll::algo {

ScatterBlocks::ScatterBlocks(const CollectiveSpec& spec, const Layout& layout)
    : builder_(layout, spec), root_(spec.root), ranks_(layout.size()), block_(spec.bytes) {
    std::vector<int> inputs(ranks_, -1);
    input_ = inputs[root_] = builder_.add_input(root_, block_ * ranks_);
    for (int rank = 0; rank < ranks_; ++rank) outputs_.push_back(builder_.add_output(rank, block_));
    p2p_.emplace(builder_, inputs);
}

}  // namespace numacoll::algo

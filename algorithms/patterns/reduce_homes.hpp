// Where the ranks of a reduce keep their partials: the root in its output,
// every other rank that folds in a temp buffer of its own, allocated on
// first use (only the root has an output).
#pragma once

#include <vector>

#include "algorithms/patterns/chunk_state.hpp"

namespace numacoll::algo {

class ReduceHomes {
public:
    ReduceHomes(ScheduleBuilder& builder, int root, int output)
        : builder_(builder), root_(root), output_(output), temps_(builder.layout().size(), -1) {}

    Range at(int rank, std::uint64_t offset, std::uint64_t bytes);

    // Ends a chunk at the root: a root that never folded anything (it is
    // alone) still owes its output, a copy of its input.
    void complete_root(ChunkState& state);

private:
    ScheduleBuilder& builder_;
    int root_;
    int output_;
    std::vector<int> temps_;
};

}  // namespace numacoll::algo

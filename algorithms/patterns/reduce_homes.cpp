#include "algorithms/patterns/reduce_homes.hpp"

#include <fmt/format.h>

namespace numacoll::algo {

Range ReduceHomes::at(int rank, std::uint64_t offset, std::uint64_t bytes) {
    if (rank == root_) return {output_, offset, bytes};
    if (temps_[rank] < 0) temps_[rank] = builder_.add_temp(rank, builder_.spec().bytes, fmt::format("partial{}", rank));
    return {temps_[rank], offset, bytes};
}

void ReduceHomes::complete_root(ChunkState& state) {
    place_partial(builder_, state, root_, at(root_, state.offset, state.bytes));
}

}  // namespace numacoll::algo

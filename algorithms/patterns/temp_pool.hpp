// algo::TempPool: temp buffers of the collective's vector size (or of a
// size the pattern names: a reduce-scatter's p blocks), a numbered list per rank, made on first use and reused by every chunk. Chunks write
// different ranges of a buffer, so slot k of one chunk never meets slot k
// of another; within a chunk, a pattern takes a new slot where two
// transfers to one rank could otherwise overlap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "algorithms/builder.hpp"

namespace numacoll::algo {

class TempPool {
public:
    explicit TempPool(ScheduleBuilder& builder) : TempPool(builder, builder.spec().bytes) {}
    TempPool(ScheduleBuilder& builder, std::uint64_t buffer_bytes)
        : builder_(builder), buffer_bytes_(buffer_bytes), buffers_(builder.layout().size()) {}

    // Buffer number `slot` of `rank`; the ones up to it are made as needed,
    // each named <prefix><rank>.<number> ("rd3.0").
    int buffer(int rank, std::size_t slot, std::string_view prefix);
    // The chunk [offset, offset + bytes) of that buffer.
    Range range(int rank, std::size_t slot, std::string_view prefix, std::uint64_t offset, std::uint64_t bytes) {
        return {buffer(rank, slot, prefix), offset, bytes};
    }

private:
    ScheduleBuilder& builder_;
    std::uint64_t buffer_bytes_;
    std::vector<std::vector<int>> buffers_;  // per rank
};

}  // namespace numacoll::algo

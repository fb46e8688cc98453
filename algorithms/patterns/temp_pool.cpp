#include "algorithms/patterns/temp_pool.hpp"

#include <fmt/format.h>

namespace numacoll::algo {

int TempPool::buffer(int rank, std::size_t slot, std::string_view prefix) {
    auto& buffers = buffers_[rank];
    while (buffers.size() <= slot)
        buffers.push_back(
            builder_.add_temp(rank, buffer_bytes_, fmt::format("{}{}.{}", prefix, rank, buffers.size())));
    return buffers[slot];
}

}  // namespace numacoll::algo

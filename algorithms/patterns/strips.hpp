// Strip mining (HPDC'13 section 2: "we use strip mining for large vectors in
// all algorithms"): a vector is processed in chunks small enough to stay in
// cache, so that a chunk's phases pipeline.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "algorithms/builder.hpp"
#include "topologies/machine.hpp"

namespace numacoll::algo {

// The chunk size an algorithm's "strip" option asks for: "auto" (half the
// largest cache private to one core), "off" (0: no strip mining) or a size,
// cut down to whole elements of `element` bytes.
std::uint64_t strip_bytes(const OptionReader& reader, const topo::Machine& machine, std::uint64_t element);

// The option every strip-mined algorithm offers.
OptionInfo strip_option();

// What an algorithm does for one chunk: (offset, bytes, tag).
using ChunkRun = std::function<void(std::uint64_t, std::uint64_t, const std::string&)>;

// A strip-mined generator's whole run: calls run(offset, bytes, tag) for
// every chunk of the spec's vector (chunk_bytes 0: one chunk), once with
// (0, 0, "c0") for an empty one, then returns the finished schedule. Tags are
// "c0", "c1", ...
Schedule build_in_chunks(ScheduleBuilder& builder, std::uint64_t chunk_bytes, const ChunkRun& run);

}  // namespace numacoll::algo

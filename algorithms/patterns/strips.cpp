#include "algorithms/patterns/strips.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.hpp"

namespace numacoll::algo {

namespace {

// "auto": half the largest cache private to one core at level 2 or below
// (L2 on the bundled machines and on this project's machines), so that one strip's inputs and
// result stay in the cache of the core that folds them, and phases pipeline:
// while a parent folds strip k+1 its children copy strip k. Measured on a
// 2-core EPYC (L2 1 MiB): a 4 MiB tree allreduce took 200-290 us with
// 512 KiB strips against 440-530 us unmined (docs/execution.md). Not a
// private level 3: virtual machines report one L3 per core of the whole
// host's size (508 MB on that EPYC guest), a strip no vector fills, which
// left every vector unmined. A machine without private caches there uses
// the smallest last-level cache; none: no strip mining.
std::uint64_t automatic_strip_bytes(const topo::Machine& machine) {
    std::uint64_t private_bytes = 0, shared_bytes = 0;
    for (int level : machine.cache_levels)
        for (int cache : machine.caches_at_level(level)) {
            const auto& object = machine.objects[cache];
            if (object.cache_bytes == 0) continue;
            if (object.cores.size() == 1 && level <= 2) private_bytes = std::max(private_bytes, object.cache_bytes / 2);
            else if (level == machine.last_level_cache() && (shared_bytes == 0 || object.cache_bytes < shared_bytes))
                shared_bytes = object.cache_bytes;
        }
    const std::uint64_t bytes = private_bytes > 0 ? private_bytes : shared_bytes;
    return bytes - bytes % cache_line_bytes;
}

}  // namespace

OptionInfo strip_option() {
    return {"strip", "auto", "strip-mining chunk: auto (half the largest per-core cache), off, or a size such as 4KiB"};
}

std::uint64_t strip_bytes(const OptionReader& reader, const topo::Machine& machine, std::uint64_t element) {
    const std::string strip = reader.text("strip");
    if (strip == "off") return 0;
    if (strip == "auto") return automatic_strip_bytes(machine);
    std::uint64_t bytes = reader.bytes("strip");
    bytes -= bytes % element;
    if (bytes == 0)
        throw UsageError(fmt::format("option strip must be auto, off or at least {} bytes (got '{}')", element, strip));
    return bytes;
}

Schedule build_in_chunks(ScheduleBuilder& builder, std::uint64_t chunk_bytes, const ChunkRun& run) {
    const std::uint64_t total = builder.spec().bytes;
    if (total == 0) run(0, 0, "c0");
    const std::uint64_t chunk = chunk_bytes == 0 ? total : chunk_bytes;
    int index = 0;
    for (std::uint64_t offset = 0; offset < total; offset += chunk, ++index)
        run(offset, std::min(chunk, total - offset), fmt::format("c{}", index));
    return builder.finish();
}

}  // namespace numacoll::algo

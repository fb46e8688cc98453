// The state of one chunk of a collective's vector while a generator writes
// its tasks, shared by every strip-mined or segmented pattern.
//
// ChunkState tracks, per rank, where its partial result of the current
// chunk lives and which tasks must finish before that partial may be read
// (beyond the thread's own program order). A HomeOf says where a rank keeps
// the chunk: a range of its output, or of a temp for a reduce's inner ranks.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "algorithms/builder.hpp"

namespace numacoll::algo {

struct ChunkState {
    std::uint64_t offset = 0;  // of the chunk in every rank's vector
    std::uint64_t bytes = 0;
    std::string tag;           // label prefix, e.g. "c0"
    std::vector<Range> partial;              // per rank; buffer -1 while it has none
    std::vector<std::vector<int>> ready;     // per rank
};

// The range a rank owns for the current chunk: where it keeps its share.
using HomeOf = std::function<Range(int rank)>;

// A chunk's state before any task: every rank's partial is its input's
// range of the chunk (none for a rank without input, or an empty chunk).
ChunkState start_chunk(std::uint64_t offset, std::uint64_t bytes, const std::string& tag,
                       const std::vector<int>& inputs, int ranks);

// The flags that tell `dst` that `src`'s partial of a chunk is ready. A
// partial that is still src's untouched input is announced once per reader
// for all chunks: the input is ready from the start, and a flag per chunk
// would sit in src's program behind its work on the previous chunk, so the
// chunks could not pipeline.
class ReadySignals {
public:
    explicit ReadySignals(std::vector<int> inputs) : inputs_(std::move(inputs)) {}
    int signal(ScheduleBuilder& builder, int src, int dst, const Range& src_partial, const std::vector<int>& src_ready,
               const std::string& label);

private:
    std::vector<int> inputs_;                       // per rank, -1 if none
    std::map<std::pair<int, int>, int> announced_;  // (src, dst) -> the flag announcing src's input
};

// `reader` copies `source`'s partial into `out` once `source` says it is
// ready (for an empty chunk, only the signal).
void fetch_partial(ScheduleBuilder& builder, ChunkState& state, int source, int reader, const Range& out,
                   const std::string& label);

// Makes `home` hold `rank`'s partial of the chunk: a rank that never
// combined anything (it is alone) still owes its result there, so it copies
// its partial in; nothing happens when the partial is already there.
void place_partial(ScheduleBuilder& builder, ChunkState& state, int rank, const Range& home);

// Ends a chunk: a rank whose result depends on signals from other threads
// (a barrier's release, a result delivered over the network) gets a task
// that waits for them, so that it cannot leave before they arrive.
void settle(ScheduleBuilder& builder, ChunkState& state);

}  // namespace numacoll::algo

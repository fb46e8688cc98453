// algo::PointToPoint: one rank hands a range of data to another, wherever
// the two ranks are. On one node the receiver does the work (it copies or
// folds the sender's range once the sender flags it ready: the paper's
// shared-memory model, where the reader pulls); across nodes the sender puts
// the range on the network. Every flat and leader-based algorithm
// (bcast/reduce linear, chain, binomial..., gather, allgather, scatter) is
// written with these two verbs, so it runs within and across nodes alike.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "algorithms/patterns/chunk_state.hpp"
#include "algorithms/patterns/temp_pool.hpp"

namespace numacoll::algo {

class PointToPoint {
public:
    // `inputs[r]`: rank r's input buffer, -1 if none (an untouched input is
    // announced once per reader, not once per chunk: see ReadySignals).
    // `vector_bytes`: the size of the vector whose chunks move (landing temps
    // are that large): the collective's bytes unless a pattern moves more.
    PointToPoint(ScheduleBuilder& builder, std::vector<int> inputs)
        : PointToPoint(builder, std::move(inputs), builder.spec().bytes) {}
    PointToPoint(ScheduleBuilder& builder, std::vector<int> inputs, std::uint64_t vector_bytes);

    ScheduleBuilder& builder() { return builder_; }

    // Moves `from` (a range of one of src's buffers, readable once
    // `from_ready` ends) into `to` (a range of one of dst's buffers).
    // Returns the task after which dst holds the data. Empty ranges
    // (buffer -1 or 0 bytes) move nothing but still signal. src == dst is a
    // local copy.
    int move(int src, const Range& from, const std::vector<int>& from_ready, int dst, const Range& to,
             const std::string& label);

    // On one node, src raises now the flag that tells dst its untouched
    // input `input` is readable; a later move of it takes that flag. For
    // exchanges whose two sides signal at once (a send-receive). Nothing across
    // nodes, or of no data.
    void announce(int src, const Range& input, int dst, const std::string& label);

    // dst receives src's partial of the chunk into `out`, which becomes dst's partial.
    void deliver(ChunkState& state, int src, int dst, const Range& out, const std::string& label);

    // dst folds src's partial into `out` (reduce of dst's partial and src's,
    // src's first when `src_first`, for in-order reductions), which becomes
    // dst's partial. Across nodes the partial lands in a temp buffer first.
    void fold(ChunkState& state, int src, int dst, const Range& out, bool src_first, const std::string& label);

private:
    Range landing(int rank, const ChunkState& state);

    ScheduleBuilder& builder_;
    ReadySignals signals_;
    TempPool landings_;  // where data from another node lands before a fold
    std::map<std::pair<int, std::string>, std::size_t> landings_used_;  // (rank, chunk tag) -> count
};

}  // namespace numacoll::algo

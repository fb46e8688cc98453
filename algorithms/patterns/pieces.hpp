// algo::Pieces and the allreduces written with it: a chunk cut into pieces
// of whole elements that ranks hand to each other in rounds, folding them
// into their own or taking them as they are. This is the data movement of
// the ring, recursive-doubling and Rabenseifner allreduces (Thakur,
// Rabenseifner, Gropp 2005; Open MPI's coll/tuned allreduce algorithms 3, 4,
// 5 and 6), run among node roots (patterns/internode_allreduce.hpp) or
// among every rank (allreduce/ring.cpp and its siblings).
//
// A hand-over between nodes is a message; a folded piece lands in a temp
// slot first. Inside a node the receiver reads the sender's piece once the
// sender flags it ready (the shared-memory model of point_to_point.hpp).
//
// Invariants:
// - a round's flags and messages are all issued before its folds and
//   copies, so a rank's hand-over does not wait behind its own fold;
// - a range a rank may still be read from is not overwritten while the
//   reader may run: a round that folds in place (`Into::output`) writes only
//   pieces its partner does not read in that round, and the patterns that
//   fold the whole chunk in every round (recursive doubling) write each
//   round's result to a fresh temp (`Into::fresh`), the last into the output;
// - results land in each rank's output range of the chunk.
#pragma once

#include <string>
#include <vector>

#include "algorithms/ir.hpp"
#include "algorithms/patterns/chunk_state.hpp"
#include "algorithms/patterns/temp_pool.hpp"

namespace numacoll::algo {

// Inside a node a run of pieces held in one range is handed over with one
// flag and folded or copied in one task, as one message would carry it;
// between nodes every piece is its own message, unless `runs_as_one_message`
// (the reduce-scatters, whose runs are hundreds of blocks, as Open MPI
// sends a half in one message).
//
// Where pieces go: `landings` holds what arrives over the network before
// it is folded; `partials` the fresh results of `Into::fresh` rounds;
// `signals` announces a rank's untouched input once per reader (may be null
// when every hand-over crosses nodes).
struct PieceBuffers {
    TempPool& landings;
    TempPool& partials;
    ReadySignals* signals = nullptr;
    bool runs_as_one_message = false;
};

class Pieces {
public:
    Pieces(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state, const std::vector<int>& outputs,
           PieceBuffers buffers, int count);
    // Pieces of the given sizes, in order, which add up to the chunk (whole
    // elements where the pieces are folded).
    Pieces(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state, const std::vector<int>& outputs,
           PieceBuffers buffers, const std::vector<std::uint64_t>& piece_bytes);

    struct Send {
        int from, to, first, n;  // indexes into ranks; pieces [first, first + n), modulo the piece count
    };
    enum class Into { output, fresh };

    // One round: every `from` hands its pieces to `to`, which folds them into
    // its partial (fold) or takes them as they are. Folds land in the output
    // or, with Into::fresh, in temp slot `fresh_slot` of `partials`. Folded
    // pieces that cross nodes land in slot `landing_slot` of `landings`: a
    // rank that receives the same piece in two rounds uses two slots.
    void round(const std::vector<Send>& sends, bool fold, int landing_slot, const std::string& label,
               Into into = Into::output, int fresh_slot = 0);

    // Whether the rank at `index` holds any data of `piece` (its input's or one handed to it).
    bool holds(int index, int piece) const { return partial_[index][piece % count_] >= 0; }

    // Writes the per-piece state back into the chunk's state.
    void finish();

private:
    Range range(int index, int piece) const { return {partial_[index][piece], offsets_[piece], sizes_[piece]}; }
    Range out(int index, int piece) const { return {outputs_[ranks_[index]], offsets_[piece], sizes_[piece]}; }
    // Pieces [first, first + n) of a rank: their span (in the first one's buffer), what they wait for,
    // and whether they are one range (no wrap, one buffer).
    Range run_range(int index, int first, int n) const;
    std::vector<int> run_ready(int index, int first, int n) const;
    bool one_range(int index, int first, int n) const;
    // The task after which `to` may read `source`: a message into `landing`
    // across nodes, a ready flag inside one.
    int hand_over(int from, int to, const Range& source, const std::vector<int>& ready, const Range& landing,
                  const std::string& label);

    ScheduleBuilder& builder_;
    const std::vector<int>& ranks_;
    ChunkState& state_;
    const std::vector<int>& outputs_;
    PieceBuffers buffers_;
    int count_;
    std::vector<std::uint64_t> offsets_, sizes_;
    std::vector<std::vector<std::vector<int>>> ready_;  // [rank index][piece]
    std::vector<std::vector<int>> partial_;             // [rank index][piece] -> buffer
};

// Allreduces among `ranks` (global ranks), one chunk; results in `outputs`.
// - ring: reduce-scatter then allgather around the ring, the chunk cut into
//   k pieces; each rank hands on 2(k - 1)/k of the chunk, bandwidth-optimal.
// - rabenseifner: recursive-halving reduce-scatter then recursive-doubling
//   allgather over 2^floor(log2 k) pieces; the excess ranks (MPICH's
//   adjacent fold, power_of_two.hpp) fold in first and get the result last.
// - recursive doubling: log2 k' exchanges of the whole chunk, the same
//   excess fold.
void ring_allreduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                    const std::vector<int>& outputs, PieceBuffers buffers);
void rabenseifner_allreduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                            const std::vector<int>& outputs, PieceBuffers buffers);
// Rabenseifner's reduce (Open MPI's reduce algorithm 7): the same excess
// fold and recursive-halving reduce-scatter, then a binomial gather of the
// pieces toward `root` (an index into ranks); an excess root gets the whole
// result from the rank it folded into, last. Only the root's output holds
// the result; the others' `outputs` are their accumulation buffers.
void rabenseifner_reduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                         const std::vector<int>& outputs, PieceBuffers buffers, int root);
void recursive_doubling_allreduce(ScheduleBuilder& builder, const std::vector<int>& ranks, ChunkState& state,
                                  const std::vector<int>& outputs, PieceBuffers buffers);

}  // namespace numacoll::algo

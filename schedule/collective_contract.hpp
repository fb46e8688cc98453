// What each collective must produce, written down once: which ranks own an
// input and an output of which size, and which input bytes every output
// byte must end up holding. The symbolic checker proves schedules against
// it and the executor verifies real results against it, so the two cannot
// disagree about what, say, a scatter means.
//
// `bytes` is the collective's per-rank vector size m:
// - allreduce: every rank has an input and an output of m; each output is
//   the reduction of all inputs.
// - reduce: every rank has an input of m; only the root has an output.
// - bcast: the root has an input of m, every other rank an output of m.
// - barrier: no data (m = 0), only synchronisation.
// A barrier, and an allreduce or allgather of nothing, owe no data but must
// still hold every rank back until all have arrived: they are checked for
// synchronisation instead (synchronisation_only). A rooted collective of
// nothing owes nothing.
// - scatter: the root has an input of m x ranks; rank r's output (m) is the
//   root's block r.
// - gather: every rank has an input of m; the root's output (m x ranks)
//   holds rank q's input at block q.
// - allgather: the same output at every rank.
// - reduce_scatter: every rank has an input of m x ranks; rank r's output
//   (m) is the reduction of every rank's block r (MPI_Reduce_scatter_block,
//   or MPI_Reduce_scatter with equal counts).
// - alltoall: every rank has an input and an output of m x ranks; block q
//   of rank r's output is block r of rank q's input (MPI_Alltoall). Of
//   nothing it owes nothing: MPI does not make it synchronise.
// - pingpong: the root and its peer (option peer, rank 1 by default) have
//   an input and an output of m; the peer's output is the root's input and
//   the root's output the peer's input (the ping, then the pong).
#pragma once

#include <cstdint>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

// Bytes [output_offset, output_offset + bytes) of `rank`'s output must
// hold, at byte x, the combination of byte input_offset + (x - output_offset)
// of each source rank's input (one source: a copy; several: a reduction).
struct RequiredBlock {
    int rank = 0;
    std::uint64_t output_offset = 0;
    std::uint64_t bytes = 0;
    std::vector<int> sources;
    std::uint64_t input_offset = 0;
};

std::uint64_t contract_input_bytes(const CollectiveSpec& spec, int ranks, int rank);   // 0: no input
std::uint64_t contract_output_bytes(const CollectiveSpec& spec, int ranks, int rank);  // 0: no output
// The rank a ping-pong's root exchanges with: its spec's option peer (1 when absent, -1 when not a number).
int pingpong_peer(const CollectiveSpec& spec);
bool has_input(const CollectiveSpec& spec, int rank);
bool has_output(const CollectiveSpec& spec, int rank);

// True when the collective moves no data but must synchronise every rank:
// a barrier, or an allreduce or allgather of 0 bytes.
bool synchronisation_only(const CollectiveSpec& spec);

// Every block the collective requires, rank by rank.
std::vector<RequiredBlock> required_blocks(const CollectiveSpec& spec, int ranks);

}  // namespace numacoll::sched

// The Hockney/LogGP terms of one hand-over between two ranks, written the
// way the simulator charges it (sim/task_plan.hpp, docs/simulation.md), so
// that a closed form built from them equals the simulated time wherever
// its assumptions hold: data in caches, one level, and the stated number d
// of transfers sharing a resource (a + m max(b, B d), HPDC'13 section 2.1).
//
// Inside a node the receiver pulls: the sender raises a flag (one cache
// line, a + 64 max(b, B d), plus the flag overhead when the params give one), the receiver reads the m bytes at the level
// joining the two cores (a + m max(b, B d)) and writes them to its own cache
// (local_cache a + m b); a fold also reads its own partial from its cache
// and reduces m bytes at reduce_bytes_per_ns. A copy touches 2m bytes, a
// fold 3m: beyond core.private_cache_bytes the own-cache accesses cost
// same_socket's a + m b instead (the LLC; uncontended, where the simulator
// shares the LLC among spills at once). MPI processes pay the process
// overheads o_s (per flag) and o_r (per copy that reads another rank).
// Between nodes a hand-over is one message: o_s + the DMA and network path
// (2 a_nic + a_network + m max(1/bandwidths on the path)) + o_r, landing in
// DRAM (the NIC's gap g spaces one NIC's messages, and delays none alone);
// a fold then reads the landed bytes from DRAM. Sources: Hockney (1994) for
// a + m b; LogGP (Alexandrov et al., 1995) for o_s, g, o_r; the
// classic forms of Thakur, Rabenseifner, Gropp (2005).
#pragma once

#include "costs/params.hpp"
#include "models/model.hpp"

namespace numacoll::models {

// One level of costs::Params: a in ns, b and B in ns per byte.
struct LevelCost {
    double a_ns = 0, b_ns_per_byte = 0, big_b_ns_per_byte = 0;
    // d transfers of `bytes` at once, k of them into the same reader (whose
    // stream they share): a + bytes max(b k, B d).
    double ns(double bytes, int concurrent = 1, int into_one_reader = 1) const;
};
LevelCost level_cost(const costs::Params& params, costs::Level level);

struct P2pTerms {
    bool network = false;
    LevelCost hop;      // the level joining the two ranks (inside a node)
    LevelCost local;    // the receiver's own cache
    // Where the receiver's own data is once a step's operands and result
    // exceed core.private_cache_bytes (0: never): its LLC, at same_socket.
    LevelCost spill;
    double private_cache_bytes = 0;
    LevelCost landing;  // DRAM, where a message lands
    double line_bytes = 64;
    double flag_overhead_ns = 0;  // core.flag_overhead_ns: a flag's spin loop beyond its line
    double reduce_ns_per_byte = 0;
    double send_overhead_ns = 0, receive_overhead_ns = 0, gap_ns = 0;
    double net_latency_ns = 0, net_ns_per_byte = 0;

    // The signal that tells the receiver the data is ready: a flag inside a
    // node (d flags at once), nothing of its own between nodes (the message is the signal).
    // `into_one_reader`: flags raised at once towards the same receiver.
    double signal_ns(int concurrent = 1, int into_one_reader = 1) const;
    // After the signal: the receiver's copy of m bytes (d copies at once), or the whole message.
    double copy_ns(double bytes, int concurrent = 1) const;
    // After the signal: the receiver folds m bytes of the sender's into its own partial.
    double fold_ns(double bytes, int concurrent = 1) const;
    // A rank copying its own m bytes (own cache to own cache).
    double local_copy_ns(double bytes) const;
    // One access to m bytes of the rank's own data, in a step that touches
    // `working_set_bytes` in all: local, or spilled to the LLC.
    double own_ns(double bytes, double working_set_bytes) const;
};

// The terms at one level of a node (same_socket, other_socket...), or
// between nodes (Level::network). `processes`: the ranks are MPI processes.
P2pTerms p2p_terms(const costs::Params& params, costs::Level level, bool processes);

// The level a flat algorithm's hand-overs cross on this shape: the network
// on several nodes, other_socket across sockets, else same_socket.
costs::Level joining_level(const NodeShape& shape);

// The terms of a flat algorithm on a shape: every hand-over at the joining
// level, between MPI processes unless the shape says threads.
P2pTerms flat_terms(const NodeShape& shape, const costs::Params& params);

// Segments of a vector: S = ceil(m / segment), 1 for segment 0; the size of segment c.
int segment_count(double bytes, double segment_bytes);
double segment_size(double bytes, double segment_bytes, int c);

}  // namespace numacoll::models

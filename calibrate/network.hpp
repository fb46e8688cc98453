// calibrate::measure_network and fit_network: the network level, measured
// between two MPI processes that stand for two nodes (mpirun -np 2 or more,
// one process per node; processes 0 and 1 measure, the others wait without
// spinning). It is what a node's microbenchmarks cannot reach: the
// one-way time of a message between nodes, and LogGP's overheads
// (Alexandrov et al., 1995) and gap (HPDC'13 section 2.5 charges the
// internode phase so):
// - ping-pong: the one-way time (half a round trip) of m bytes, m from 0 B to
//   4 MiB, one point per placement: both buffers and both processes on the
//   NIC's NUMA node (near), and, on a machine with several NUMA nodes, the
//   receiver's buffer and process on the NUMA node farthest from its NIC
//   (far receive), then the sender's likewise (far send): the NUIOA
//   penalty of this cluster (Moreaud and Goglin);
// - o_s: how long a send of 8 B takes to return (the receiver acknowledges
//   each, untimed, so that no queue fills);
// - o_r: how long a receive of 8 B takes when the message is already there
//   (the receiver waits long enough before posting it);
// - g: the interval between 8-byte messages sent back to back;
// - stream: a window of 1 MiB messages in flight at once, the receiver
//   acknowledging the whole window: the rate sustained traffic gets.
//
// The fit: one-way(m) = o_s + o_r + 2 a_nic + a_network + m / BW, by least
// squares (rows weighted by 1 / time: relative errors) on the near points.
// Between two hosts BW is the stream's and only the latency is fitted: a
// ping-pong's mid sizes need not see the link's rate (a shaper's token
// bucket lets a message smaller than itself pass at the wire's speed,
// docs/cluster.md), and the relative errors of the small sizes then set
// BW. Within one host both are fitted, as the validated calibrations were;
// the network and NIC levels then share what is left of the latency in the
// base set's proportion, and BW is both levels' per-stream bandwidth (the
// slower link is what a message sees). When the two processes share a host
// there is no NIC between them: the figures are those of the MPI library's
// shared-memory transport, they also stand for hand-overs between
// processes of one node (messages.process_*), and every source says so.
// With far placements measured (and DMA windows in the base set), a NIC's
// windows follow from the NUIOA rule of costs::NicDmaParams: window = far
// bandwidth x round trip, where the far side is slower than the near one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "costs/params.hpp"
#include "exec/mpi_world.hpp"
#include "topologies/machine.hpp"

namespace numacoll::calibrate {

enum class NetworkPlacement { near, far_receive, far_send };
const char* to_string(NetworkPlacement placement);

struct NetworkPoint {
    NetworkPlacement placement = NetworkPlacement::near;
    std::uint64_t bytes = 0;
    double one_way_ns = 0;  // median over iterations
    double p10_ns = 0, p90_ns = 0;
    int iterations = 0;
};

struct NetworkMeasurement {
    std::vector<NetworkPoint> pingpong;
    double send_overhead_ns = 0;     // o_s, median
    double receive_overhead_ns = 0;  // o_r, median
    double gap_ns = 0;               // g, median interval of back-to-back messages
    bool same_host = false;          // processes 0 and 1 share one host's memory
    int hops_far = 0;                // inter-socket hops between the NIC's NUMA node and the far one (0: none measured)
    std::string host_pair;           // "vm and vm"
    // The MPI library's eager limit for the transport between the two
    // processes, as its own ompi_info prints it (Open MPI: the vader BTL's
    // within a host, the TCP BTL's between hosts); absent when not found.
    std::optional<double> eager_limit_bytes;
    std::string eager_limit_source;
    // The stream (near placement): its rate, median over repetitions; 0 when not measured.
    double stream_bytes_per_ns = 0;
    std::uint64_t stream_message_bytes = 0;
    int stream_window = 0;
};

// Collective over `world` (every process calls it; size >= 2).
NetworkMeasurement measure_network(const topo::Machine& machine, const exec::MpiWorld& world, bool quick,
                                   const std::function<void(const std::string&)>& progress);

struct NetworkFit {
    double latency_ns = 0;              // o_s + o_r + 2 a_nic + a_network
    double bandwidth_bytes_per_ns = 0;  // BW
    double residual = 0;                // RMS relative error over the near points
    bool bandwidth_streamed = false;    // BW is the stream's, not the ping-pong's
};

NetworkFit fit_network(const std::vector<NetworkPoint>& points);
// L alone, BW given (the same weighted least squares).
NetworkFit fit_latency_at(const std::vector<NetworkPoint>& points, double bandwidth_bytes_per_ns);
// What calibrate writes: the stream's BW between two hosts where it was measured, else fit_network.
NetworkFit fit_measured_network(const NetworkMeasurement& measured);

// Writes the network and NIC levels, the message overheads and gap (and,
// from far placements, the DMA windows) into `params`, every figure with its
// source; `who` says who calibrated ("calibrated on HOST at DATE by numacoll X").
void apply_network(costs::Params& params, const NetworkMeasurement& measured, const NetworkFit& fit,
                   const std::string& who);

}  // namespace numacoll::calibrate

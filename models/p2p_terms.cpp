#include "models/p2p_terms.hpp"

#include <algorithm>
#include <cmath>

namespace numacoll::models {

double LevelCost::ns(double bytes, int concurrent, int into_one_reader) const {
    return a_ns + bytes * std::max(b_ns_per_byte * std::max(1, into_one_reader),
                                   big_b_ns_per_byte * std::max(1, concurrent));
}

LevelCost level_cost(const costs::Params& params, costs::Level level) {
    const auto& at = params.at(level);
    return {at.latency_ns.value, 1 / at.bandwidth_bytes_per_ns.value, 1 / at.aggregate_bandwidth_bytes_per_ns.value};
}

double P2pTerms::signal_ns(int concurrent, int into_one_reader) const {
    if (network) return 0;
    return send_overhead_ns + hop.ns(line_bytes, concurrent, into_one_reader) + flag_overhead_ns;
}

double P2pTerms::own_ns(double bytes, double working_set_bytes) const {
    return costs::spills_private_cache(private_cache_bytes, working_set_bytes) ? spill.ns(bytes) : local.ns(bytes);
}

double P2pTerms::copy_ns(double bytes, int concurrent) const {
    // A lone message does not wait for its own gap (LogGP); gaps space a NIC's messages.
    if (network) return send_overhead_ns + net_latency_ns + bytes * net_ns_per_byte + receive_overhead_ns;
    if (bytes <= 0) return 0;  // an empty move is the signal alone
    return receive_overhead_ns + hop.ns(bytes, concurrent) + own_ns(bytes, 2 * bytes);
}

double P2pTerms::fold_ns(double bytes, int concurrent) const {
    if (bytes <= 0) return network ? copy_ns(0) : 0;
    const double own_read_and_write = 2 * own_ns(bytes, 3 * bytes) + bytes * reduce_ns_per_byte;
    if (network) return copy_ns(bytes) + landing.ns(bytes) + own_read_and_write;
    return receive_overhead_ns + hop.ns(bytes, concurrent) + own_read_and_write;
}

double P2pTerms::local_copy_ns(double bytes) const { return bytes <= 0 ? 0 : 2 * own_ns(bytes, 2 * bytes); }

P2pTerms p2p_terms(const costs::Params& params, costs::Level level, bool processes) {
    P2pTerms terms;
    terms.network = level == costs::Level::network || level == costs::Level::nic;
    terms.local = level_cost(params, costs::Level::local_cache);
    terms.spill = level_cost(params, costs::Level::same_socket);
    terms.private_cache_bytes = params.private_cache_bytes ? params.private_cache_bytes->value : 0;
    terms.landing = level_cost(params, costs::Level::dram);
    terms.line_bytes = params.cache_line_bytes;
    terms.flag_overhead_ns = params.flag_overhead_ns ? params.flag_overhead_ns->value : 0;
    terms.reduce_ns_per_byte = 1 / params.reduce_bytes_per_ns.value;
    if (!terms.network) {
        terms.hop = level_cost(params, level);
        if (processes && params.messages) {
            terms.send_overhead_ns = params.messages->process_send_overhead_ns.value;
            terms.receive_overhead_ns = params.messages->process_receive_overhead_ns.value;
        }
        return terms;
    }
    // Memory -> PCIe -> wire -> wire -> PCIe -> memory, the NIC on the memory's socket:
    // the latency of both PCIe crossings and the network, the slowest link's bandwidth.
    const LevelCost nic = level_cost(params, costs::Level::nic), net = level_cost(params, costs::Level::network);
    terms.net_latency_ns = 2 * nic.a_ns + net.a_ns;
    terms.net_ns_per_byte = std::max({nic.b_ns_per_byte, nic.big_b_ns_per_byte, net.b_ns_per_byte,
                                      net.big_b_ns_per_byte, terms.landing.big_b_ns_per_byte});
    if (params.nic_dma) {
        // The DMA windows (NUIOA paper, section 5): window / round trip, NIC on the memory's socket (no hop).
        const double read_trip_ns = costs::dma_round_trip_ns(params, 0, true);
        const double write_trip_ns = costs::dma_round_trip_ns(params, 0, false);
        terms.net_ns_per_byte = std::max({terms.net_ns_per_byte, read_trip_ns / params.nic_dma->read_window_bytes.value,
                                          write_trip_ns / params.nic_dma->write_window_bytes.value});
    }
    if (params.messages) {
        terms.send_overhead_ns = params.messages->network_send_overhead_ns.value;
        terms.receive_overhead_ns = params.messages->network_receive_overhead_ns.value;
        terms.gap_ns = params.messages->network_gap_ns.value;
    }
    return terms;
}

costs::Level joining_level(const NodeShape& shape) {
    if (shape.nodes > 1) return costs::Level::network;
    return shape.sockets > 1 ? costs::Level::other_socket : costs::Level::same_socket;
}

P2pTerms flat_terms(const NodeShape& shape, const costs::Params& params) {
    return p2p_terms(params, joining_level(shape), !shape.threads_only);
}

int segment_count(double bytes, double segment_bytes) {
    if (segment_bytes <= 0 || bytes <= segment_bytes) return 1;
    return static_cast<int>(std::ceil(bytes / segment_bytes));
}

double segment_size(double bytes, double segment_bytes, int c) {
    const int count = segment_count(bytes, segment_bytes);
    if (count == 1) return bytes;
    return c + 1 < count ? segment_bytes : bytes - segment_bytes * (count - 1);
}

}  // namespace numacoll::models

// pingpong "direct": the root sends its m bytes to the peer (option peer,
// the root's successor by default), and once they have arrived the peer sends its own m
// bytes back: the MPI ping-pong of the Intel MPI Benchmarks, measured in the
// NUIOA paper (section 4.2, Figure 4) to see where a process should sit
// relative to the NIC. Between two nodes each leg is one network message;
// on one node, a hand-over through shared memory. Ranks are processes.
#include <fmt/format.h>

#include "algorithms/builder.hpp"
#include "algorithms/patterns/point_to_point.hpp"
#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "schedule/collective_contract.hpp"

namespace numacoll::algo {

namespace {

Schedule direct_pingpong(const CollectiveSpec& spec, const Layout& layout, const OptionReader& options) {
    const int root = spec.root;
    const int peer = options.text("peer") == "next" ? (root + 1) % layout.size() : options.integer("peer", 0);
    if (peer >= layout.size() || peer == root)
        throw UsageError(fmt::format("a ping-pong needs a peer other than the root {}: ranks are 0..{} (got --option "
                                     "peer={})",
                                     root, layout.size() - 1, peer));
    ScheduleBuilder builder(layout, spec);
    const std::uint64_t m = spec.bytes;
    std::vector<int> inputs(static_cast<std::size_t>(layout.size()), -1);
    inputs[root] = builder.add_input(root, m);
    inputs[peer] = builder.add_input(peer, m);
    const int root_output = builder.add_output(root, m);
    const int peer_output = builder.add_output(peer, m);
    PointToPoint p2p(builder, inputs);
    auto whole = [&](int buffer) { return m == 0 ? Range{} : Range{buffer, 0, m}; };
    const int ping = p2p.move(root, whole(inputs[root]), {}, peer, whole(peer_output), "ping");
    // The pong leaves once the ping has arrived.
    const int pong = p2p.move(peer, whole(inputs[peer]), {ping}, root, whole(root_output), "pong");
    builder.wait_for_others(root, {pong}, "pingpong:done");
    Schedule schedule = builder.finish();
    schedule.spec.options["peer"] = std::to_string(peer);  // the contract reads a rank, not "next"
    return schedule;
}

}  // namespace

AlgorithmInfo pingpong_direct_info() {
    return {Collective::pingpong,
            "direct",
            "the root sends to the peer, which sends back once the data has arrived (IMB PingPong)",
            "Intel MPI Benchmarks PingPong, as measured in the NUIOA paper, section 4.2 (Figure 4)",
            {{"peer", "next", "the rank that answers the root: a rank, or next (the root's successor)"}},
            direct_pingpong,
            RankKind::process};
}

}  // namespace numacoll::algo

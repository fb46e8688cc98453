// costs::Params: the cost of moving data at each level of a machine, in the
// HPDC'13 model: one transfer of m bytes alone takes a + m·b; d transfers
// through a shared resource take a + m·max(b, B·d).
//
// Units: latency a in ns, bandwidths 1/b (per stream) and 1/B (aggregate of
// the shared resource) in bytes per ns (= GB/s). Every number carries its
// provenance (a paper, a public specification with its arithmetic, or an
// estimate), so that a result can say where its inputs came from.
//
// Files are JSON ("format": "numacoll-params", see docs/params.md); westmere,
// magnycours, opteron8218, haswell and generic are bundled. A machine without params of its own
// gets `generic` (a recent two-socket server), and the output says so.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "schedule/datatype.hpp"
#include "topologies/machine.hpp"

namespace numacoll::costs {

enum class Level { local_cache, same_cache, same_socket, other_socket, dram, nic, network };
inline constexpr std::array<Level, 7> all_levels = {Level::local_cache, Level::same_cache, Level::same_socket,
                                                    Level::other_socket, Level::dram,       Level::nic,
                                                    Level::network};
const char* to_string(Level level);

struct Figure {
    double value = 0;
    std::string source;
};

struct LevelParams {
    Figure latency_ns;                        // a
    Figure bandwidth_bytes_per_ns;            // 1/b, one stream
    Figure aggregate_bandwidth_bytes_per_ns;  // 1/B, the shared resource
};

// Processor time per message, in the LogGP sense (Alexandrov et al., 1995):
// the sender's overhead o_s, the receiver's o_r, and the gap g between two
// messages leaving one NIC. Network messages pay them in every schedule;
// hand-overs between two MPI processes of one node pay the process ones
// (threads of one process share memory and pay none).
struct MessageParams {
    Figure network_send_overhead_ns;
    Figure network_receive_overhead_ns;
    Figure network_gap_ns;
    Figure process_send_overhead_ns;
    Figure process_receive_overhead_ns;
    // The largest network message sent eagerly: it moves as soon as it is
    // sent. A larger one goes by rendezvous: its data moves only once the
    // receiver's progress engine has answered the sender's request
    // (Cardellini, Fanfarillo, Filippone, section 5.1). Absent: every
    // message is eager. Only simulations with computation around the
    // collective tell the two apart (sim/progress.hpp).
    std::optional<Figure> network_eager_limit_bytes = std::nullopt;
};

// How much a NIC's DMA keeps in flight towards host memory: its bandwidth
// to a NUMA node is at most window / round trip, and the round trip grows
// with each inter-socket hop between the NIC and the memory (NUIOA paper,
// section 5). Reads (the send side) are PCIe non-posted requests, whose tags
// the NIC holds until the data is back; writes (the receive side) are
// posted, held by the host bridge until the memory takes them.
struct NicDmaParams {
    Figure read_window_bytes;
    Figure write_window_bytes;
};

// What one copy from another process's memory through the kernel
// (process_vm_readv: schedule/process_form.hpp's single copy) costs its
// caller beyond moving the bytes: the system call, and pinning each 4 KiB
// page of the source (Linux's get_user_pages) before copying it.
struct SingleCopyParams {
    static constexpr double page_bytes = 4096;
    // The pages a copy of `bytes` pins.
    static double pages(std::uint64_t bytes) { return std::ceil(static_cast<double>(bytes) / page_bytes); }
    Figure call_ns;
    Figure page_ns;
};

struct Params {
    std::string name;         // e.g. "westmere"
    std::string description;
    std::string origin;       // "bundled:westmere" or the file path
    bool generic_fallback = false;  // true when chosen because the machine had none
    double cache_line_bytes = 64;
    Figure reduce_bytes_per_ns;     // input bytes a core folds per ns (vectorised sum of doubles)
    // The same for the element types whose rate differs from the doubles',
    // by the name of their kernel's first datatype
    // (sched::one_datatype_per_representation: "int8", "float",
    // "long_double", ...); a type not named folds at reduce_bytes_per_ns.
    std::map<std::string, Figure> reduce_bytes_per_ns_by_datatype;
    // Floating-point operations a core performs per ns (compute tasks);
    // absent when the file does not give it.
    std::optional<Figure> compute_flops_per_ns;
    // What a flag costs beyond its cache line: the store, the waiter's spin
    // loop noticing it and leaving (exec/flag.hpp), in ns; absent: nothing.
    std::optional<Figure> flag_overhead_ns;
    // The bytes a core's own accesses keep in its private caches (the L2 of
    // most x86 cores); a copy or reduce whose operands and result together
    // exceed it streams them through the last-level cache at the
    // same_socket level's cost (sim/task_plan.hpp). Absent: every access to
    // a core's own data costs local_cache, as in HPDC'13's model.
    std::optional<Figure> private_cache_bytes;
    // Present when a last-level cache merges its cores' concurrent misses to
    // the same lines ("llc.merge_bytes" in the file): while one core fetches
    // bytes from another domain, the others of its domain that read them are
    // served from the LLC as they arrive, the lines crossing once (HPDC'13
    // section 2.2's synergistic prefetching; sim/task_plan.hpp). The value is
    // the unit that arrives at once, a line: a reader that has caught up with
    // the fetch ends once it has moved that unit after the fetch. Absent: a read that
    // starts while the copy is on its way fetches the bytes again.
    std::optional<Figure> llc_merge_bytes;
    std::array<LevelParams, all_levels.size()> levels;
    // Absent in a file that does not give them: messages then cost no
    // processor time, and DMA is limited by bandwidth alone.
    std::optional<MessageParams> messages;
    std::optional<NicDmaParams> nic_dma;
    // Absent in a file that does not give it (no bundled machine measured
    // it): a schedule with single copy is then not simulated.
    std::optional<SingleCopyParams> single_copy;

    LevelParams& at(Level level) { return levels[static_cast<std::size_t>(level)]; }
    const LevelParams& at(Level level) const { return levels[static_cast<std::size_t>(level)]; }
};

// How long a NIC's DMA request to memory `hops` inter-socket hops from its
// socket holds its slot: a read's tag is held by the NIC, across PCIe both
// ways, 2 a_nic + 2 h a_other_socket + a_dram; a posted write is held by the
// host bridge at the NIC's socket, 2 h a_other_socket + a_dram.
double dma_round_trip_ns(const Params& params, int hops, bool read);
// The NUIOA rule read backwards, as a point-to-point benchmark gives it: the
// window that moves `far_bytes_per_ns` to memory whose round trip is
// `round_trip_ns` (numacoll calibrate; opteron8218's write window).
inline double dma_window_bytes(double far_bytes_per_ns, double round_trip_ns) { return far_bytes_per_ns * round_trip_ns; }

// The single copy's costs; UsageError when the params give none (no
// bundled set does: calibrate measures them).
const SingleCopyParams& single_copy_costs(const Params& params);

// The rate at which a core folds elements of `datatype`: its kernel's
// figure in reduce_bytes_per_ns_by_datatype, else reduce_bytes_per_ns.
const Figure& reduce_rate(const Params& params, sched::Datatype datatype);

// The one rule of core.private_cache_bytes (0 when the params give none):
// a copy or reduce whose operands and result together exceed it finds its
// core's own data in the LLC (sim/task_plan.hpp); the fit and the closed
// forms follow the same rule.
inline bool spills_private_cache(double private_cache_bytes, double working_set_bytes) {
    return private_cache_bytes > 0 && working_set_bytes > private_cache_bytes;
}

// Parses a params file's text; `label` names it in errors. Throws InputError
// naming the missing or malformed key ("levels.dram.latency_ns").
Params parse_params(const std::string& json_text, const std::string& label);

// A bundled name (westmere, magnycours, opteron8218, haswell, generic) or a path to a JSON file.
Params load_params(const std::string& spec);

// The params for a machine: `spec` when given, else the bundled set named
// like the machine, else the generic set (generic_fallback = true).
Params params_for(const topo::Machine& machine, const std::string& spec);

std::vector<std::string> bundled_params_names();

// The params as a file parse_params reads back to the same values (every
// figure with its source); `origin` and `generic_fallback` are not written.
std::string params_to_json(const Params& params);

// The name a calibrated set of `host` carries ("calibrated:HOST"): a cached
// file is reused only on the host that made it, and a library refuses a set
// made on another host.
std::string calibrated_name(const std::string& host);
// The host a set was calibrated on; none for a set that was not calibrated.
std::optional<std::string> calibrated_host(const Params& params);

}  // namespace numacoll::costs

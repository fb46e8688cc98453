#include "calibrate/network.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/statistics.hpp"
#include "costs/core_levels.hpp"
#include "exec/memory_binding.hpp"

namespace numacoll::calibrate {

const char* to_string(NetworkPlacement placement) {
    switch (placement) {
        case NetworkPlacement::near: return "near";
        case NetworkPlacement::far_receive: return "far-receive";
        case NetworkPlacement::far_send: return "far-send";
    }
    return "?";
}

namespace {

// Open MPI's eager limit for one BTL, from `ompi_info --parsable`: the line
// "mca:btl:BTL:param:btl_BTL_eager_limit:value:N". Absent without ompi_info.
std::optional<double> ompi_eager_limit(const std::string& btl) {
    const std::string command = "ompi_info --parsable --param btl " + btl + " --level 9 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return std::nullopt;
    const std::string wanted = fmt::format("mca:btl:{}:param:btl_{}_eager_limit:value:", btl, btl);
    std::optional<double> limit;
    char line[512];
    while (std::fgets(line, sizeof line, pipe) != nullptr) {
        const std::string text(line);
        if (!text.starts_with(wanted)) continue;
        try {
            const double value = std::stod(text.substr(wanted.size()));
            if (value >= 1) limit = value;
        } catch (const std::exception&) {
        }
    }
    ::pclose(pipe);
    return limit;
}


using Clock = std::chrono::steady_clock;

double since_ns(Clock::time_point start) {
    return std::chrono::duration<double, std::nano>(Clock::now() - start).count();
}

void check(int status, const char* what) {
    if (status != MPI_SUCCESS) throw Error(fmt::format("{} failed during the network calibration (MPI error {})", what, status));
}

// The logical PUs of a NUMA node, in order.
std::vector<int> pus_of_numa(const topo::Machine& machine, int numa) {
    std::vector<int> pus;
    for (int pu = 0; pu < machine.pu_count(); ++pu)
        if (machine.numa_of_core(machine.core_of_pu(pu)) == numa || machine.numa_nodes.size() <= 1) pus.push_back(pu);
    return pus;
}

// The two processes that measure (0 sends, 1 answers), on their own communicator.
struct Pair {
    MPI_Comm comm = MPI_COMM_NULL;
    int rank = -1;  // 0 or 1 inside the pair; -1 for a process that only waits
};

class PairMeasurements {
public:
    PairMeasurements(const topo::Machine& machine, Pair pair, bool same_host, bool quick)
        : machine_(machine), pair_(pair), same_host_(same_host), quick_(quick), binding_(machine) {}

    // Pins this process's thread and places its buffer for one placement.
    void place(int numa) {
        const std::vector<int> pus = pus_of_numa(machine_, numa);
        // Two processes of one host take two PUs of the node when it has them.
        const std::size_t index = same_host_ && pair_.rank == 1 && pus.size() > 1 ? 1 : 0;
        if (!pus.empty()) binding_.pin_current_thread(pus[index]);
        numa_ = numa;
        buffer_ = binding_.allocate(max_bytes(), numa);
    }

    std::uint64_t max_bytes() const { return quick_ ? (1u << 20) : (4u << 20); }

    std::vector<NetworkPoint> pingpong(NetworkPlacement placement) {
        std::vector<NetworkPoint> points;
        std::vector<std::uint64_t> sizes = {0, 8, 64, 512, 4096, 32768, 262144, 1u << 20};
        if (!quick_) sizes.push_back(4u << 20);
        for (std::uint64_t bytes : sizes) {
            const int timed = bytes <= 65536 ? (quick_ ? 100 : 400) : (quick_ ? 10 : 40);
            std::vector<double> times;
            // One barrier per size, none per round trip: a process leaves a
            // barrier up to a one-way latency after the other, and process
            // 0's clock would take that in (4 us of a 13 us half round trip
            // over TCP between two hosts). Without it process 1 is always in
            // its receive when the next ping leaves, as in OSU's osu_latency.
            check(MPI_Barrier(pair_.comm), "MPI_Barrier");
            for (int it = -10; it < timed; ++it) {
                const Clock::time_point start = Clock::now();
                const int count = static_cast<int>(bytes);
                if (pair_.rank == 0) {
                    check(MPI_Send(buffer_.get(), count, MPI_BYTE, 1, 0, pair_.comm), "MPI_Send");
                    check(MPI_Recv(buffer_.get(), count, MPI_BYTE, 1, 0, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
                } else {
                    check(MPI_Recv(buffer_.get(), count, MPI_BYTE, 0, 0, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
                    check(MPI_Send(buffer_.get(), count, MPI_BYTE, 0, 0, pair_.comm), "MPI_Send");
                }
                if (it >= 0) times.push_back(since_ns(start) / 2);
            }
            const TimeStats stats = summarize_times(times);
            points.push_back({placement, bytes, stats.median_ns, stats.p10_ns, stats.p90_ns, stats.iterations});
        }
        return points;
    }

    // o_s: a send of 8 B returning; the receiver acknowledges each, untimed.
    double send_overhead_ns() {
        std::vector<double> times;
        for (int it = -10; it < repetitions(); ++it) {
            if (pair_.rank == 0) {
                const Clock::time_point start = Clock::now();
                check(MPI_Send(buffer_.get(), 8, MPI_BYTE, 1, 1, pair_.comm), "MPI_Send");
                if (it >= 0) times.push_back(since_ns(start));
                check(MPI_Recv(nullptr, 0, MPI_BYTE, 1, 2, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
            } else {
                check(MPI_Recv(buffer_.get(), 8, MPI_BYTE, 0, 1, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
                check(MPI_Send(nullptr, 0, MPI_BYTE, 0, 2, pair_.comm), "MPI_Send");
            }
        }
        return pair_.rank == 0 ? summarize_times(times).median_ns : 0;
    }

    // o_r: a receive of 8 B that is already there (the receiver waits 20 us
    // after the previous acknowledgement before it posts the receive).
    double receive_overhead_ns() {
        std::vector<double> times;
        for (int it = -10; it < repetitions(); ++it) {
            if (pair_.rank == 0) {
                check(MPI_Send(buffer_.get(), 8, MPI_BYTE, 1, 3, pair_.comm), "MPI_Send");
                check(MPI_Recv(nullptr, 0, MPI_BYTE, 1, 4, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
            } else {
                const Clock::time_point waited = Clock::now();
                while (since_ns(waited) < 20000) {
                }
                const Clock::time_point start = Clock::now();
                check(MPI_Recv(buffer_.get(), 8, MPI_BYTE, 0, 3, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
                if (it >= 0) times.push_back(since_ns(start));
                check(MPI_Send(nullptr, 0, MPI_BYTE, 0, 4, pair_.comm), "MPI_Send");
            }
        }
        // The receiver measured it: the sender learns it (rank 0 writes the file).
        double median = pair_.rank == 1 ? summarize_times(times).median_ns : 0;
        check(MPI_Bcast(&median, 1, MPI_DOUBLE, 1, pair_.comm), "MPI_Bcast");
        return median;
    }

    // g: the interval between 8-byte messages sent back to back.
    double gap_ns() {
        constexpr int burst = 64;
        std::vector<double> times;
        for (int it = -3; it < repetitions() / 10; ++it) {
            check(MPI_Barrier(pair_.comm), "MPI_Barrier");
            if (pair_.rank == 0) {
                const Clock::time_point start = Clock::now();
                for (int k = 0; k < burst; ++k)
                    check(MPI_Send(buffer_.get(), 8, MPI_BYTE, 1, 5, pair_.comm), "MPI_Send");
                if (it >= 0) times.push_back(since_ns(start) / burst);
                check(MPI_Recv(nullptr, 0, MPI_BYTE, 1, 6, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
            } else {
                for (int k = 0; k < burst; ++k)
                    check(MPI_Recv(buffer_.get(), 8, MPI_BYTE, 0, 5, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
                check(MPI_Send(nullptr, 0, MPI_BYTE, 0, 6, pair_.comm), "MPI_Send");
            }
        }
        return pair_.rank == 0 ? summarize_times(times).median_ns : 0;
    }

    // The stream: `window` messages of 1 MiB sent at once, received into
    // buffers of their own, the window acknowledged by a 0-byte message.
    // Bytes over the time from the first send to the acknowledgement.
    double stream_bytes_per_ns(int window, std::uint64_t bytes) {
        const std::shared_ptr<std::byte> buffers =
            pair_.rank == 1 ? binding_.allocate(bytes * static_cast<std::uint64_t>(window), numa_) : buffer_;
        std::vector<MPI_Request> requests(static_cast<std::size_t>(window));
        const int count = static_cast<int>(bytes);
        std::vector<double> rates;
        for (int it = -2; it < (quick_ ? 5 : 15); ++it) {
            check(MPI_Barrier(pair_.comm), "MPI_Barrier");
            const Clock::time_point start = Clock::now();
            for (int k = 0; k < window; ++k) {
                if (pair_.rank == 0)
                    check(MPI_Isend(buffer_.get(), count, MPI_BYTE, 1, 7, pair_.comm, &requests[static_cast<std::size_t>(k)]),
                          "MPI_Isend");
                else
                    check(MPI_Irecv(buffers.get() + bytes * static_cast<std::uint64_t>(k), count, MPI_BYTE, 0, 7,
                                    pair_.comm, &requests[static_cast<std::size_t>(k)]),
                          "MPI_Irecv");
            }
            check(MPI_Waitall(window, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
            if (pair_.rank == 0) {
                check(MPI_Recv(nullptr, 0, MPI_BYTE, 1, 8, pair_.comm, MPI_STATUS_IGNORE), "MPI_Recv");
                if (it >= 0) rates.push_back(static_cast<double>(bytes) * window / since_ns(start));
            } else {
                check(MPI_Send(nullptr, 0, MPI_BYTE, 0, 8, pair_.comm), "MPI_Send");
            }
        }
        double median = 0;
        if (pair_.rank == 0) {
            std::sort(rates.begin(), rates.end());
            median = rates[rates.size() / 2];
        }
        check(MPI_Bcast(&median, 1, MPI_DOUBLE, 0, pair_.comm), "MPI_Bcast");
        return median;
    }

private:
    int repetitions() const { return quick_ ? 200 : 1000; }

    const topo::Machine& machine_;
    Pair pair_;
    bool same_host_;
    bool quick_;
    exec::MemoryBinding binding_;
    int numa_ = 0;
    std::shared_ptr<std::byte> buffer_;
};

std::string processor_name() {
    char name[MPI_MAX_PROCESSOR_NAME] = {};
    int length = 0;
    MPI_Get_processor_name(name, &length);
    return std::string(name, static_cast<std::size_t>(length));
}

}  // namespace

NetworkMeasurement measure_network(const topo::Machine& machine, const exec::MpiWorld& world, bool quick,
                                   const std::function<void(const std::string&)>& progress) {
    if (world.size() < 2) throw UsageError("the network is measured between two MPI processes: mpirun -np 2 or more");
    NetworkMeasurement result;
    Pair pair;
    check(MPI_Comm_split(world.comm(), world.rank() < 2 ? 0 : MPI_UNDEFINED, world.rank(), &pair.comm),
          "MPI_Comm_split");
    if (pair.comm != MPI_COMM_NULL) {
        MPI_Comm_rank(pair.comm, &pair.rank);
        // Do the two share a host? Each says its name; the sender compares.
        std::string mine = processor_name(), theirs(MPI_MAX_PROCESSOR_NAME, '\0');
        mine.resize(MPI_MAX_PROCESSOR_NAME, '\0');
        check(MPI_Sendrecv(mine.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - pair.rank, 9, theirs.data(),
                           MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1 - pair.rank, 9, pair.comm, MPI_STATUS_IGNORE),
              "MPI_Sendrecv");
        mine.resize(mine.find('\0')), theirs.resize(theirs.find('\0'));
        result.same_host = mine == theirs;
        result.host_pair = pair.rank == 0 ? fmt::format("{} and {}", mine, theirs) : fmt::format("{} and {}", theirs, mine);
        const std::string btl = result.same_host ? "vader" : "tcp";
        result.eager_limit_bytes = ompi_eager_limit(btl);
        result.eager_limit_source = fmt::format(
            "the eager limit of Open MPI's {} transport, btl_{}_eager_limit as `ompi_info --param btl {} --level 9` "
            "prints it here; a larger message goes by rendezvous",
            btl, btl, btl);

        // The NIC's NUMA node (node 0 without one, where the simulator puts its virtual NIC), and the farthest from it.
        int near = 0;
        for (const topo::IoDevice* nic : machine.nics())
            if (nic->numa_node >= 0) {
                near = nic->numa_node;
                break;
            }
        const int numa_nodes = static_cast<int>(machine.numa_nodes.size());
        std::optional<int> far;
        if (numa_nodes > 1) {
            const costs::CoreLevels levels(machine);
            int best_hops = 0;
            for (int numa = 0; numa < numa_nodes; ++numa) {
                const int hops = levels.hops(levels.domain_of_numa(near), levels.domain_of_numa(numa));
                if (hops > best_hops) best_hops = hops, far = numa;
            }
            result.hops_far = best_hops;
        }
        PairMeasurements measure(machine, pair, result.same_host, quick);
        auto say = [&](const std::string& line) {
            if (progress && pair.rank == 0) progress(line);
        };
        measure.place(near);
        say(fmt::format("network: ping-pong between {} ({}), buffers on NUMA node {} (near)", result.host_pair,
                        result.same_host ? "one host: the MPI library's shared memory, no NIC" : "two hosts", near));
        result.pingpong = measure.pingpong(NetworkPlacement::near);
        say("network: overheads o_s, o_r and the gap g of 8-byte messages");
        result.send_overhead_ns = measure.send_overhead_ns();
        result.receive_overhead_ns = measure.receive_overhead_ns();
        result.gap_ns = measure.gap_ns();
        result.stream_message_bytes = 1u << 20;
        result.stream_window = 16;
        say(fmt::format("network: a stream of {} messages of 1 MiB in flight", result.stream_window));
        result.stream_bytes_per_ns = measure.stream_bytes_per_ns(result.stream_window, result.stream_message_bytes);
        if (far) {
            // The receiver far from its NIC, then the sender.
            for (NetworkPlacement placement : {NetworkPlacement::far_receive, NetworkPlacement::far_send}) {
                const bool far_here = (placement == NetworkPlacement::far_receive) == (pair.rank == 1);
                measure.place(far_here ? *far : near);
                say(fmt::format("network: ping-pong with the {} on NUMA node {} ({} hops from the NIC's)",
                                placement == NetworkPlacement::far_receive ? "receiver" : "sender", *far, result.hops_far));
                const std::vector<NetworkPoint> points = measure.pingpong(placement);
                result.pingpong.insert(result.pingpong.end(), points.begin(), points.end());
            }
        }
        MPI_Comm_free(&pair.comm);
    }
    // Everyone leaves together; the processes that only waited did so without spinning.
    world.agree(0);
    return result;
}

NetworkFit fit_network(const std::vector<NetworkPoint>& points) {
    // Weighted least squares of t = L + m b with weights 1 / t^2 (relative errors).
    double s00 = 0, s01 = 0, s11 = 0, r0 = 0, r1 = 0;
    int rows = 0;
    for (const NetworkPoint& p : points) {
        if (p.placement != NetworkPlacement::near || !(p.one_way_ns > 0)) continue;
        const double w = 1 / (p.one_way_ns * p.one_way_ns), m = static_cast<double>(p.bytes);
        s00 += w, s01 += w * m, s11 += w * m * m, r0 += w * p.one_way_ns, r1 += w * m * p.one_way_ns;
        ++rows;
    }
    if (rows < 2) throw CheckError("the network fit needs two ping-pong sizes at least");
    const double det = s00 * s11 - s01 * s01;
    double latency = (r0 * s11 - r1 * s01) / det;
    double per_byte = (s00 * r1 - s01 * r0) / det;
    if (per_byte <= 0) per_byte = 1e-6;  // no size dependence seen: a bandwidth beyond measure
    if (latency < 0) latency = 0, per_byte = r1 / s11;
    NetworkFit fit{latency, 1 / per_byte, 0};
    double squares = 0;
    for (const NetworkPoint& p : points) {
        if (p.placement != NetworkPlacement::near || !(p.one_way_ns > 0)) continue;
        const double e = (latency + static_cast<double>(p.bytes) * per_byte - p.one_way_ns) / p.one_way_ns;
        squares += e * e;
    }
    fit.residual = std::sqrt(squares / rows);
    return fit;
}

NetworkFit fit_latency_at(const std::vector<NetworkPoint>& points, double bandwidth_bytes_per_ns) {
    if (!(bandwidth_bytes_per_ns > 0)) throw CheckError("the network's latency fit needs a positive bandwidth");
    // Minimises the relative errors of t = L + m / BW over L: the mean of t - m / BW weighted by 1 / t^2,
    // over the sizes that took at least m / BW (behind a shaper's bucket, the others passed faster
    // than the link and say nothing of its latency).
    double weights = 0, sum = 0;
    int rows = 0;
    for (const NetworkPoint& p : points) {
        if (p.placement != NetworkPlacement::near || !(p.one_way_ns > 0)) continue;
        if (static_cast<double>(p.bytes) / bandwidth_bytes_per_ns > p.one_way_ns) continue;
        const double w = 1 / (p.one_way_ns * p.one_way_ns);
        weights += w;
        sum += w * (p.one_way_ns - static_cast<double>(p.bytes) / bandwidth_bytes_per_ns);
        ++rows;
    }
    if (rows < 1) throw CheckError("the network's latency fit needs one ping-pong size at least as slow as the bandwidth");
    NetworkFit fit{std::max(0.0, sum / weights), bandwidth_bytes_per_ns, 0, true};
    double squares = 0;
    for (const NetworkPoint& p : points) {
        if (p.placement != NetworkPlacement::near || !(p.one_way_ns > 0)) continue;
        const double e = (fit.latency_ns + static_cast<double>(p.bytes) / bandwidth_bytes_per_ns - p.one_way_ns) /
                         p.one_way_ns;
        squares += e * e;
    }
    fit.residual = std::sqrt(squares / rows);
    return fit;
}

NetworkFit fit_measured_network(const NetworkMeasurement& measured) {
    if (!measured.same_host && measured.stream_bytes_per_ns > 0)
        return fit_latency_at(measured.pingpong, measured.stream_bytes_per_ns);
    return fit_network(measured.pingpong);
}

namespace {

// The far placement's bandwidth, from its large messages (where latency no longer counts).
std::optional<double> far_bandwidth(const std::vector<NetworkPoint>& points, NetworkPlacement placement) {
    std::vector<NetworkPoint> far;
    for (NetworkPoint p : points)
        if (p.placement == placement) p.placement = NetworkPlacement::near, far.push_back(p);
    if (far.size() < 2) return std::nullopt;
    return fit_network(far).bandwidth_bytes_per_ns;
}

}  // namespace

void apply_network(costs::Params& params, const NetworkMeasurement& measured, const NetworkFit& fit,
                   const std::string& who) {
    using costs::Level;
    const std::string where =
        measured.same_host
            ? fmt::format("between two MPI processes of one host ({}): the MPI library's shared-memory transport, "
                          "no NIC",
                          measured.host_pair)
            : fmt::format("between two MPI processes on two hosts ({})", measured.host_pair);
    const std::string how = fmt::format("{}; {}", who, where);
    // Overheads longer together than the one-way time overlap the message's
    // transit (TCP over a veth: the send's system call carries the message
    // into the receiver's socket before it returns). Taken as measured, every
    // simulated message would cost o_s + o_r, more than the ping-pong took;
    // scaled to sum to L, a lone message costs what the ping-pong measured.
    const double measured_overheads_ns = measured.send_overhead_ns + measured.receive_overhead_ns;
    const bool overlapping = fit.latency_ns > 0 && measured_overheads_ns > fit.latency_ns;
    const double scale = overlapping ? fit.latency_ns / measured_overheads_ns : 1.0;
    const double o_s = measured.send_overhead_ns * scale, o_r = measured.receive_overhead_ns * scale;
    const auto scaled = [&](double measured_ns) {
        return overlapping ? fmt::format(" ({:.0f} ns measured; o_s + o_r measured {:.0f} ns, more than L = {:.0f} ns: "
                                         "they overlap the message's transit, so both are scaled by {:.3f} to sum to L)",
                                         measured_ns, measured_overheads_ns, fit.latency_ns, scale)
                           : std::string();
    };

    if (!params.messages) params.messages.emplace();
    costs::MessageParams& messages = *params.messages;
    messages.network_send_overhead_ns = {
        o_s, fmt::format("{}: o_s, the median time an 8-byte MPI_Send takes to return{}", how, scaled(measured.send_overhead_ns))};
    messages.network_receive_overhead_ns = {
        o_r, fmt::format("{}: o_r, the median time an 8-byte MPI_Recv takes when the message is already there{}", how,
                         scaled(measured.receive_overhead_ns))};
    messages.network_gap_ns = {measured.gap_ns,
                               fmt::format("{}: g, the median interval of 8-byte messages sent back to back", how)};
    if (measured.eager_limit_bytes)
        messages.network_eager_limit_bytes = costs::Figure{*measured.eager_limit_bytes,
                                                           fmt::format("{}: {}", how, measured.eager_limit_source)};
    if (measured.same_host) {
        messages.process_send_overhead_ns = {o_s, fmt::format("{}: o_s, as for the network", how)};
        messages.process_receive_overhead_ns = {o_r, fmt::format("{}: o_r, as for the network", how)};
    }

    // What the overheads leave of the one-way latency, shared as in the base set.
    costs::LevelParams& nic = params.at(Level::nic);
    costs::LevelParams& network = params.at(Level::network);
    const double rest = overlapping ? 0.0 : std::max(0.0, fit.latency_ns - o_s - o_r);  // (scaled: exactly none)
    const double base_total = 2 * nic.latency_ns.value + network.latency_ns.value;
    const double nic_share = base_total > 0 ? nic.latency_ns.value / base_total : 0.25;
    const std::string latency_how =
        fmt::format("{}: ping-pong one-way time L + m / BW{} fitted by least squares over {} sizes (residual {:.1f}% "
                    "RMS relative), L = {:.1f} ns = o_s + o_r + 2 a_nic + a_network; the {:.1f} ns o_s and o_r leave go "
                    "{:.0f}% to each NIC crossing and {:.0f}% to the network, as in the base set",
                    how, fit.bandwidth_streamed ? " with BW the stream's, L" : "", std::count_if(measured.pingpong.begin(), measured.pingpong.end(),
                                       [](const NetworkPoint& p) { return p.placement == NetworkPlacement::near; }),
                    100 * fit.residual, fit.latency_ns, rest, 100 * nic_share, 100 * (1 - 2 * nic_share));
    nic.latency_ns = {rest * nic_share, latency_how};
    network.latency_ns = {rest * (1 - 2 * nic_share), latency_how};
    const std::string bandwidth_how =
        fit.bandwidth_streamed
            ? fmt::format("{}: BW, the median rate of a stream of {} messages of {} in flight at once, acknowledged "
                          "as a whole, for both levels (a message sees the slower link); one stream measured, so the "
                          "aggregate is at least this",
                          how, measured.stream_window, format_bytes(measured.stream_message_bytes))
            : fmt::format("{}: BW of the same fit, for both levels (a message sees the slower link); one stream "
                          "measured, so the aggregate is at least this",
                          how);
    for (costs::LevelParams* level : {&nic, &network}) {
        level->bandwidth_bytes_per_ns = {fit.bandwidth_bytes_per_ns, bandwidth_how};
        level->aggregate_bandwidth_bytes_per_ns = {fit.bandwidth_bytes_per_ns, bandwidth_how};
    }

    // NUIOA: a NIC moves at most window / round trip to memory h hops away.
    if (measured.hops_far > 0 && params.nic_dma) {
        const auto window = [&](NetworkPlacement placement, double round_trip_ns, costs::Figure& figure, const char* side) {
            const std::optional<double> far = far_bandwidth(measured.pingpong, placement);
            if (!far) return;
            if (*far < 0.95 * fit.bandwidth_bytes_per_ns)
                figure = {costs::dma_window_bytes(*far, round_trip_ns),
                          fmt::format("{}: the {} side {} hops from its NIC moves {:.2f} B/ns against {:.2f} near: "
                                      "window = far bandwidth x round trip ({:.0f} ns)",
                                      how, side, measured.hops_far, *far, fit.bandwidth_bytes_per_ns, round_trip_ns)};
            else
                figure.source = fmt::format("{}: the {} side {} hops from its NIC ran as fast as near ({:.2f} against "
                                            "{:.2f} B/ns): the window does not bind; kept from the base: {}",
                                            how, side, measured.hops_far, *far, fit.bandwidth_bytes_per_ns, figure.source);
        };
        window(NetworkPlacement::far_receive, costs::dma_round_trip_ns(params, measured.hops_far, false),
               params.nic_dma->write_window_bytes, "receive");
        window(NetworkPlacement::far_send, costs::dma_round_trip_ns(params, measured.hops_far, true),
               params.nic_dma->read_window_bytes, "send");
    }
}

}  // namespace numacoll::calibrate

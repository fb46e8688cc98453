#include "interpose/served_communicator.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <numeric>
#include <set>
#include <string_view>

#include "algorithms/registry.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"
#include "common/output_file.hpp"
#include "common/statistics.hpp"
#include "exec/cross_memory.hpp"
#include "exec/process_executor.hpp"
#include "interpose/call_clock.hpp"
#include "interpose/selection.hpp"
#include "results/mpi_report.hpp"
#include "schedule/process_form.hpp"
#include "schedule/schedule_io.hpp"

namespace numacoll::interpose {

namespace {

void check(int code, const char* what) {
    if (code != MPI_SUCCESS) throw Error(fmt::format("{} failed (MPI error {})", what, code));
}

// The logical PU this process runs on now, -1 when the machine lacks it.
int current_pu(const topo::Machine& machine) {
    const int cpu = sched_getcpu();
    for (int pu = 0; pu < machine.pu_count(); ++pu)
        if (machine.pu(pu).os_index == cpu) return pu;
    return -1;
}

// What the machine is, as a number every process compares: processes on
// machines that differ would make different schedules.
unsigned long long machine_fingerprint(const topo::Machine& machine) {
    std::string text = fmt::format("{} {} {}", machine.pu_count(), machine.core_count(), machine.numa_nodes.size());
    for (int pu = 0; pu < machine.pu_count(); ++pu)
        text += fmt::format(" {}:{}", machine.core_of_pu(pu), machine.numa_of_core(machine.core_of_pu(pu)));
    return std::hash<std::string>{}(text);
}

}  // namespace

ServedCommunicator::ServedCommunicator(MPI_Comm comm, std::shared_ptr<const topo::Machine> machine,
                                       const Settings& settings, const costs::Params& params, std::string name)
    : settings_(settings), params_(params), machine_(std::move(machine)), name_(std::move(name)) {
    check(PMPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
    check(PMPI_Comm_size(comm, &size_), "MPI_Comm_size");
    int inter = 0;
    check(PMPI_Comm_test_inter(comm, &inter), "MPI_Comm_test_inter");
    if (inter) {
        unserved_ = "intercommunicator";
        return;
    }
    if (size_ < 2) {
        unserved_ = "one process";
        return;
    }
    // Machines alike: every process compares its machine's fingerprint.
    unsigned long long mine = machine_fingerprint(*machine_), low = 0, high = 0;
    check(PMPI_Allreduce(&mine, &low, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, comm), "MPI_Allreduce");
    check(PMPI_Allreduce(&mine, &high, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm), "MPI_Allreduce");
    if (low != high) {
        unserved_ = "machines differ";
        return;
    }
    // Node parts: each process's node is named by its lowest communicator rank.
    MPI_Comm shared = MPI_COMM_NULL;
    check(PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &shared), "MPI_Comm_split_type");
    int leader = 0;
    check(PMPI_Allreduce(&rank_, &leader, 1, MPI_INT, MPI_MIN, shared), "MPI_Allreduce");
    PMPI_Comm_free(&shared);
    std::vector<int> leaders(static_cast<std::size_t>(size_));
    check(PMPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm), "MPI_Allgather");
    std::vector<int> node_leaders = leaders;
    std::sort(node_leaders.begin(), node_leaders.end());
    node_leaders.erase(std::unique(node_leaders.begin(), node_leaders.end()), node_leaders.end());
    nodes_ = static_cast<int>(node_leaders.size());
    std::vector<int> on_node(static_cast<std::size_t>(nodes_), 0);
    schedule_rank_of_.assign(static_cast<std::size_t>(size_), 0);
    std::vector<int> node_of(static_cast<std::size_t>(size_));
    for (int r = 0; r < size_; ++r)
        node_of[r] = static_cast<int>(std::lower_bound(node_leaders.begin(), node_leaders.end(), leaders[r]) -
                                      node_leaders.begin());
    for (int r = 0; r < size_; ++r) ++on_node[node_of[r]];
    ranks_per_node_ = on_node[0];
    if (std::any_of(on_node.begin(), on_node.end(), [&](int n) { return n != ranks_per_node_; })) {
        unserved_ = "uneven ranks per node";
        ranks_per_node_ = 0;
        return;
    }
    std::fill(on_node.begin(), on_node.end(), 0);
    for (int r = 0; r < size_; ++r) {
        schedule_rank_of_[r] = node_of[r] * ranks_per_node_ + on_node[node_of[r]]++;
        rank_order_is_node_order_ = rank_order_is_node_order_ && schedule_rank_of_[r] == r;
    }
    place_.rank = schedule_rank_of_[rank_];
    check(PMPI_Comm_split(comm, 0, place_.rank, &place_.ranks), "MPI_Comm_split");
    check(PMPI_Comm_split(place_.ranks, node_of[rank_], place_.rank, &place_.node), "MPI_Comm_split");
    binding_ = std::make_unique<exec::MemoryBinding>(*machine_);
    place_processes();
    single_copy_ = settings_.single_copy_bytes > 0 && probe_single_copy();
}

bool ServedCommunicator::probe_single_copy() {
    // Where Yama lets a process read only its descendants, each lets any
    // process read it (as Open MPI's vader does for its own single copy).
    (void)prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
    static const std::uint64_t probe_word = 0x6e756d61636f6c6cull;
    const std::uint64_t mine[2] = {static_cast<std::uint64_t>(getpid()), reinterpret_cast<std::uintptr_t>(&probe_word)};
    int members = 0, member = 0;
    PMPI_Comm_size(place_.node, &members);
    PMPI_Comm_rank(place_.node, &member);
    std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(members));
    check(PMPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, place_.node), "MPI_Allgather");
    const std::size_t next = static_cast<std::size_t>((member + 1) % members);
    std::uint64_t seen = 0;
    int readable = exec::read_process_memory(static_cast<pid_t>(all[2 * next]), all[2 * next + 1],
                                             reinterpret_cast<std::byte*>(&seen), sizeof seen) &&
                   seen == probe_word;
    int everywhere = 0;
    // Alike on every process: the schedules must be.
    check(PMPI_Allreduce(&readable, &everywhere, 1, MPI_INT, MPI_MIN, place_.ranks), "MPI_Allreduce");
    return everywhere == 1;
}

ServedCommunicator::~ServedCommunicator() {
    entries_.clear();  // their segments first: freeing them is collective over the node
    if (place_.node != MPI_COMM_NULL) PMPI_Comm_free(&place_.node);
    if (place_.ranks != MPI_COMM_NULL) PMPI_Comm_free(&place_.ranks);
}

void ServedCommunicator::place_processes() {
    // Each process's PUs: its launcher's binding, else where it runs now
    // (another PU when a process placed earlier took that one's core).
    const int pu_count = machine_->pu_count();
    const std::vector<int> bound = binding_->launcher_bound_pus();
    const int here = current_pu(*machine_);
    // A row per process: its PUs, then how it was placed (0: bound nowhere,
    // 1: to one PU, 2: to several), then the PU it runs on.
    const std::size_t row_bytes = static_cast<std::size_t>(pu_count) + 2;
    std::vector<std::int32_t> mine(row_bytes, 0);
    for (int pu : bound) mine[static_cast<std::size_t>(pu)] = 1;
    mine[row_bytes - 2] = bound.empty() ? 0 : (bound.size() == 1 ? 1 : 2);
    mine[row_bytes - 1] = here >= 0 ? here : 0;
    int members = 0;
    PMPI_Comm_size(place_.node, &members);
    std::vector<std::int32_t> all(row_bytes * static_cast<std::size_t>(members));
    check(PMPI_Allgather(mine.data(), static_cast<int>(row_bytes), MPI_INT32_T, all.data(), static_cast<int>(row_bytes),
                         MPI_INT32_T, place_.node),
          "MPI_Allgather");
    std::vector<std::vector<int>> bound_to(static_cast<std::size_t>(members));
    int counts[3] = {0, 0, 0};
    for (int m = 0; m < members; ++m) {
        const std::int32_t* row = all.data() + static_cast<std::size_t>(m) * row_bytes;
        std::vector<int>& pus = bound_to[static_cast<std::size_t>(m)];
        const int kind = row[row_bytes - 2];
        ++counts[kind];
        if (kind == 0) {
            pus.push_back(row[row_bytes - 1]);  // where it runs first, then any other
            for (int pu = 0; pu < pu_count; ++pu)
                if (pu != row[row_bytes - 1]) pus.push_back(pu);
        } else {
            for (int pu = 0; pu < pu_count; ++pu)
                if (row[pu]) pus.push_back(pu);
        }
    }
    std::vector<int> pus = exec::pus_inside_bindings(bound_to, *machine_);
    // Every node's schedule ranks sit on node 0's PUs (nodes are copies of one machine).
    check(PMPI_Bcast(pus.data(), members, MPI_INT, 0, place_.ranks), "MPI_Bcast");
    check(PMPI_Bcast(counts, 3, MPI_INT, 0, place_.ranks), "MPI_Bcast");
    const std::set<int> distinct(pus.begin(), pus.end());
    algo::LayoutOptions options;
    options.nodes = nodes_;
    options.placement = algo::Placement::list;
    options.pu_list = pus;
    options.oversubscribe = distinct.size() < pus.size();
    layout_ = algo::make_layout(machine_, options);
    std::vector<std::string> kinds;
    if (counts[1] > 0) kinds.push_back(fmt::format("{} bound to a PU", counts[1]));
    if (counts[2] > 0) kinds.push_back(fmt::format("{} bound to several PUs", counts[2]));
    if (counts[0] > 0) kinds.push_back(fmt::format("{} bound nowhere: where it ran first", counts[0]));
    const std::string list = fmt::format("{}", fmt::join(pus, " "));
    // A field of the report: no commas.
    placement_ = fmt::format("{}; PUs {}{}", fmt::join(kinds, "; "), list, options.oversubscribe ? " (shared)" : "");
    if (rank_ == 0)
        say(fmt::format("{}: {} processes, {} node{} x {}, {}{}", name_, size_, nodes_, nodes_ == 1 ? "" : "s",
                        ranks_per_node_, placement_,
                        rank_order_is_node_order_ ? "" : "; its rank order interleaves the nodes"));
}

void ServedCommunicator::say(const std::string& line) const {
    if (settings_.verbose) std::fprintf(stderr, "numacoll: %s\n", line.c_str());
}

std::byte* ServedCommunicator::scratch(int area, std::size_t bytes) {
    if (area < 0 || area >= 3) throw Error(fmt::format("scratch area {} does not exist", area));
    std::vector<std::byte>& memory = scratch_[area];
    if (memory.size() < bytes) memory.resize(bytes);
    return memory.data();
}

namespace {

// What an entry costs the cache besides its segment and schedule: its place
// in the lists and maps, so that calls of countless sizes handed back stay
// bounded too.
constexpr std::size_t entry_bytes = 512;

std::string logged_datatype(const CallKey& key, const char* reason) {
    if (sched::is_reduction(key.collective) && reason != nullptr && std::string_view(reason) == "derived datatype")
        return "derived";
    return results::report_datatype(key.collective, key.datatype);
}

}  // namespace

CallLog::Row& ServedCommunicator::handed_back_row(const CallKey& key, const char* reason) {
    const std::uint64_t bucket = results::size_bucket(key.bytes);
    CallLog::Row*& row = handed_back_[{key.collective, key.datatype, bucket, reason}];
    if (row == nullptr)
        row = &log_.row({key.collective, native_algorithm, logged_datatype(key, reason), bucket, reason});
    return *row;
}

ServedCommunicator::Entry ServedCommunicator::make_entry(const CallKey& key) {
    Entry entry;
    entry.key = key;
    entry.cost_bytes = entry_bytes;
    // The MPI library serves it, for `reason`.
    const auto hand_back = [&](const char* reason) -> Entry {
        entry.service = {nullptr, &handed_back_row(key, reason)};
        entry.cost_bytes = entry_bytes;
        return std::move(entry);
    };
    const Choice choice = choose_algorithm(key, layout_, settings_, params_);
    const std::string what =
        fmt::format("{} {} {}{} on {}", mpi_name(key.collective), format_bytes(key.bytes), sched::to_string(key.datatype),
                    sched::is_reduction(key.collective) ? fmt::format(" {}", sched::to_string(key.op)) : "", name_);
    if (choice.algorithm == native_algorithm) {
        const char* reason = choice.why == "forced" ? "native asked for" : "native predicted faster";
        if (rank_ == 0) say(fmt::format("{}: the MPI library's ({})", what, reason));
        return hand_back(reason);
    }
    using C = sched::Collective;
    if (!rank_order_is_node_order_ && (key.collective == C::gather || key.collective == C::scatter ||
                                       key.collective == C::allgather))
        return hand_back("rank order interleaves nodes");
    sched::CollectiveSpec spec = spec_of(key, schedule_rank_of_[static_cast<std::size_t>(key.root)]);
    spec.algorithm = choice.algorithm;
    spec.options = choice.options;
    sched::Schedule schedule;
    try {
        // The segment's bound before anything is generated: every process
        // of the node holds at least its vector in it.
        if (key.bytes > settings_.max_segment_bytes) throw UsageError("beyond NUMACOLL_MPI_MAX_BYTES");
        const bool copies_only = key.collective == C::bcast || key.collective == C::scatter ||
                                 key.collective == C::gather || key.collective == C::allgather;
        const bool single_copy = single_copy_ && copies_only && key.bytes >= settings_.single_copy_bytes;
        schedule = sched::process_form(algo::generate_schedule(spec, layout_), {.single_copy = single_copy});
        const exec::SegmentPlan plan = exec::plan_node_segment(schedule, schedule.ranks[place_.rank].node);
        const std::size_t largest = *std::max_element(plan.portion_bytes.begin(), plan.portion_bytes.end());
        if (largest > settings_.max_segment_bytes) throw UsageError("beyond NUMACOLL_MPI_MAX_BYTES");
        // Every process of the node sees the same cost: the node's segment
        // (two copies at least) and the schedule's tasks.
        entry.cost_bytes += 2 * std::accumulate(plan.portion_bytes.begin(), plan.portion_bytes.end(), std::size_t{0}) +
                            static_cast<std::size_t>(schedule.task_count()) * 256;
    } catch (const UsageError& error) {
        // Alike on every process: the same spec, layout and bound.
        const char* reason = std::string(error.what()).find("NUMACOLL_MPI_MAX_BYTES") != std::string::npos
                                 ? "beyond segment bound"
                                 : "no schedule for this shape";
        if (rank_ == 0) say(fmt::format("{}: the MPI library's ({}: {})", what, reason, error.what()));
        return hand_back(reason);
    }
    if (entry.cost_bytes > settings_.cache_bytes) return hand_back("beyond cache bound");
    make_room(entry.cost_bytes);
    if (rank_ == 0) {
        say(fmt::format("{}: {} ({}){}, {} tasks", what, choice.algorithm, choice.why,
                        std::any_of(schedule.buffers().begin(), schedule.buffers().end(),
                                    [](const sched::Buffer& buffer) { return buffer.exposed; })
                            ? " in single copy"
                            : "", schedule.task_count()));
        if (!settings_.schedules_dir.empty()) {
            const std::string path =
                fmt::format("{}/{}-{}-{}-{}-{}B-{}x{}.schedule", settings_.schedules_dir, to_string(key.collective),
                            choice.algorithm, sched::to_string(key.datatype), sched::to_string(key.op), key.bytes,
                            nodes_, ranks_per_node_);
            try {
                write_output_file(path, sched::to_text(schedule));
            } catch (const std::exception& error) {
                std::fprintf(stderr, "numacoll: NUMACOLL_MPI_SCHEDULES: %s\n", error.what());
            }
        }
    }
    entry.served = std::make_unique<ServedCollective>(std::move(schedule), place_, *binding_);
    entry.algorithm = choice.algorithm;
    entry.service = {entry.served.get(),
                     &log_.row({key.collective, choice.algorithm, logged_datatype(key, nullptr),
                                results::size_bucket(key.bytes), ""})};
    if (choice.why != "forced" && settings_.trial_calls > 0) {
        entry.trial = std::make_unique<Entry::Trial>();
        entry.trial->native_row = &handed_back_row(key, "trial");
    }
    return entry;
}

void ServedCommunicator::trial_call_done(Entry& entry, std::uint64_t ticks) {
    Entry::Trial& trial = *entry.trial;
    // Each side's first calls find its memory cold: they are not counted.
    if (trial.calls >= 2 * Entry::Trial::warm_up_calls)
        (trial.calls % 2 == 0 ? trial.ours : trial.native).push_back(static_cast<double>(ticks));
    if (++trial.calls < 2 * (Entry::Trial::warm_up_calls + settings_.trial_calls)) return;
    // The slowest process's median of each side, in nanoseconds (processes
    // on other nodes count their own ticks).
    const double ns_per_tick = call_clock::ns_per_tick();
    const double mine[2] = {median(trial.ours) * ns_per_tick, median(trial.native) * ns_per_tick};
    double slowest[2] = {0, 0};
    check(PMPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, place_.ranks), "MPI_Allreduce");
    const std::string what = fmt::format("{} {} on {}", mpi_name(entry.key.collective), format_bytes(entry.key.bytes), name_);
    if (slowest[1] < slowest[0]) {
        if (rank_ == 0)
            say(fmt::format("{}: the MPI library's (measured faster: {:.0f} ns against {:.0f} of {})", what, slowest[1],
                            slowest[0], entry.algorithm));
        entry.served.reset();  // collective over the node: every process decides here alike
        cached_bytes_ -= entry.cost_bytes - entry_bytes;
        entry.cost_bytes = entry_bytes;
        entry.service = {nullptr, &handed_back_row(entry.key, "native measured faster"), nullptr};
    } else if (rank_ == 0) {
        say(fmt::format("{}: {} kept (measured {:.0f} ns against {:.0f} of the MPI library's)", what, entry.algorithm,
                        slowest[0], slowest[1]));
    }
    entry.trial.reset();
}

void ServedCommunicator::make_room(std::size_t bytes) {
    // The least recently used entries leave, on every process of the node
    // alike (their segments' freeing is collective).
    while (cached_bytes_ + bytes > settings_.cache_bytes && !entries_.empty()) {
        const auto last = std::prev(entries_.end());
        cached_bytes_ -= last->cost_bytes;
        by_key_.erase(last->key);
        entries_.erase(last);
    }
}

ServedCommunicator::Service ServedCommunicator::service(const CallKey& key) {
    if (!unserved_.empty()) return {nullptr, &handed_back_row(key, unserved_.c_str())};
    // The call made last again: no lookup.
    if (!entries_.empty() && entries_.front().key == key && !entries_.front().trial) return entries_.front().service;
    auto found = by_key_.find(key);
    if (found == by_key_.end()) {
        Entry entry = make_entry(key);
        if (entry.served == nullptr) make_room(entry.cost_bytes);
        cached_bytes_ += entry.cost_bytes;
        entries_.push_front(std::move(entry));
        found = by_key_.emplace(key, entries_.begin()).first;
    } else if (found->second != entries_.begin()) {
        entries_.splice(entries_.begin(), entries_, found->second);  // most recently used
    }
    Entry& entry = *found->second;
    if (!entry.trial) return entry.service;
    if (entry.trial->calls % 2 == 0) return {entry.service.served, entry.service.row, &entry};
    return {nullptr, entry.trial->native_row, &entry};
}

}  // namespace numacoll::interpose

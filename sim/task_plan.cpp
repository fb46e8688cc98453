#include "sim/task_plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <memory_resource>
#include <optional>
#include <unordered_map>

#include "common/error.hpp"
#include "schedule/byte_intervals.hpp"

namespace numacoll::sim {

namespace {

// Where some bytes live: their home (the writer's cache or DRAM), plus the
// sockets that hold a shared copy because a core there read them. `held` is
// the cache entry (DataLocations::Entry) that keeps them there, 0 for none.
struct SharedCopy {
    int domain = 0;
    int core = 0;       // whose cache holds it
    int made_by = -1;   // the task whose read puts it there
    std::uint32_t held = 0;
    bool operator==(const SharedCopy&) const = default;
};

// Allocator-aware: inside a planner's interval maps, its list of shared
// copies takes its memory from the maps' pool, like the map nodes (the
// planner releases that memory all at once: DataLocations).
struct Where {
    using allocator_type = std::pmr::polymorphic_allocator<SharedCopy>;

    Where(Endpoint home_at, std::uint32_t held_by) : home(home_at), held(held_by) {}
    Where(const Where&) = default;
    Where(Where&&) = default;
    Where& operator=(const Where&) = default;
    Where& operator=(Where&&) = default;
    Where(const Where& other, const allocator_type& allocator)
        : home(other.home), shared(other.shared, allocator), held(other.held) {}
    Where(Where&& other, const allocator_type& allocator)
        : home(other.home), shared(std::move(other.shared), allocator), held(other.held) {}

    Endpoint home;
    std::pmr::vector<SharedCopy> shared;
    std::uint32_t held = 0;  // when home is a cache
    bool operator==(const Where&) const = default;
};

// Where a read takes some bytes from: `source`, or `fallback` until task
// `ready_after` has finished.
struct ReadSource {
    Endpoint source;
    Endpoint fallback;
    int ready_after = -1;
    bool operator==(const ReadSource&) const = default;
};

// A piece of a read: `bytes` from `source`. A piece that the reader's own
// LLC holds (a cached home or a shared copy in its domain) also says where
// it stands in that cache's eviction order and where its bytes are once
// evicted, for the reading task's own stream to evict it (evicted_in_stream).
struct ReadPiece {
    ReadSource source;
    double bytes = 0;
    bool own_cached = false;
    std::uint64_t position = 0;   // of its first byte in the read range
    std::uint64_t fifo_rank = 0;  // bytes the cache evicts before its first byte
    Endpoint next_level{};        // where the bytes are once evicted
    double evicted_bytes = 0;     // of `bytes`: read from next_level instead
};

// Per buffer, byte intervals -> where those bytes live now; per last-level
// cache domain, what it holds, oldest first (a cache that kept every copy
// would spare deep trees their passes to DRAM).
class DataLocations {
public:
    // `ranks` outlives the locations.
    DataLocations(const std::vector<sched::RankInfo>& ranks, int nodes, const PlatformModel& platform)
        : ranks_(ranks), platform_(platform), where_(&intervals_memory_),
          caches_(static_cast<std::size_t>(nodes * platform.domain_count())) {
        entries_.push_back({});  // entry 0: "held by nothing"
    }
    // where_ is not destroyed: every byte of it is the pool's, which releases
    // it in large blocks ("winking out"). Destroying the maps walked half a
    // million nodes at a million tasks, 40-60 ms after the last task's plan.
    ~DataLocations() {}
    DataLocations(const DataLocations&) = delete;
    DataLocations& operator=(const DataLocations&) = delete;

    // The next buffer, in id order. An input has just been written by its
    // rank (the paper's Modified state): its bytes sit where that write put
    // them, so inputs come before any task, as in a generated schedule.
    void add_buffer(const sched::Buffer& buffer) {
        const int b = static_cast<int>(buffers_.size());
        buffers_.push_back({buffer.owner, buffer.numa, buffer.exposed});
        where_.emplace_back(buffer.bytes, Where{memory_of(b), 0}, &intervals_memory_);
        if (buffer.role == sched::BufferRole::input)
            record_write({b, 0, buffer.bytes}, after_write(ranks_[buffer.owner].core, b, buffer.bytes));
    }
    std::size_t buffer_count() const { return buffers_.size(); }
    int owner_of(int buffer) const { return buffers_[buffer].owner; }
    bool exposed(int buffer) const { return buffers_[buffer].exposed; }

    Endpoint memory_of(int buffer) const {
        const BufferPlace& info = buffers_[buffer];
        int numa = info.numa >= 0 ? info.numa : ranks_[info.owner].numa;
        if (numa < 0 || numa >= platform_.numa_count()) numa = 0;
        return {EndpointKind::memory, ranks_[info.owner].node, numa};
    }

    // Where m bytes written by `core` into `buffer` end up: their last bytes,
    // as many as its LLC holds, in its cache; the first ones, which the
    // write's own stream evicted, in the buffer's DRAM (bytes_to_memory).
    struct WriteTarget {
        Endpoint cache;
        Endpoint memory;
        std::uint64_t bytes_to_memory = 0;
        std::uint64_t bytes_to_cache = 0;
    };
    WriteTarget after_write(int core, int buffer, std::uint64_t bytes) const {
        const std::uint64_t capacity = platform_.cache_capacity_bytes(core);
        const std::uint64_t kept = std::min(bytes, capacity);
        return {{EndpointKind::cache, node_of(buffer), core}, memory_of(buffer), bytes - kept, kept};
    }

    // Records a write that after_write placed.
    void record_write(const sched::Range& range, const WriteTarget& target) {
        if (target.bytes_to_memory > 0)
            record({range.buffer, range.offset, target.bytes_to_memory}, target.memory);
        if (target.bytes_to_cache > 0)
            record({range.buffer, range.offset + target.bytes_to_memory, target.bytes_to_cache}, target.cache);
    }

    // What the last-level caches of `domain` on `node` hold now.
    std::uint64_t cached_bytes(int node, int domain) const {
        return caches_[static_cast<std::size_t>(node * platform_.domain_count() + domain)].live_bytes;
    }

    // Where task `task` on core `reader` gets each piece of a range from
    // (appended to `result`), and the shared copies the read leaves.
    void read(const sched::Range& range, int reader, int task, std::vector<ReadPiece>& result) {
        const int domain = platform_.domain_of_core(reader);
        const bool fits = range.bytes <= platform_.cache_capacity_bytes(reader);
        const std::uint32_t entry = fits ? new_entry(node_of(range.buffer), domain, range) : 0;
        where_[range.buffer].for_each(range.offset, range.bytes, [&](std::uint64_t start, std::uint64_t end, Where& where) {
            ReadPiece piece{{where.home, where.home, -1}, static_cast<double>(end - start)};
            const bool home_here = where.home.kind == EndpointKind::cache && platform_.domain_of_core(where.home.index) == domain;
            auto copy = std::find_if(where.shared.begin(), where.shared.end(), [&](const auto& c) { return c.domain == domain; });
            std::uint32_t held_here = home_here ? where.held : 0;
            if (!home_here && copy != where.shared.end()) {
                piece.source = {{EndpointKind::cache, where.home.node, copy->core}, where.home, copy->made_by};
                held_here = copy->held;
            }
            if (held_here) {
                piece.own_cached = true;
                piece.position = start - range.offset;
                piece.fifo_rank = fifo_rank(held_here, start);
                piece.next_level = home_here ? memory_of(range.buffer) : where.home;
            }
            if (!home_here && copy == where.shared.end() && fits) {
                where.shared.push_back({domain, reader, task, entry});
                entries_[entry].live_bytes += end - start;
            }
            result.push_back(piece);
        });
        if (entry && entries_[entry].live_bytes > 0)
            admit(entry);
        else if (entry)
            free_entry(entry);  // nothing of the range was copied here: nothing refers to it
    }

    // A write makes the writer's copy the only one, and takes room in its cache.
    void record(const sched::Range& range, Endpoint home) {
        std::uint32_t entry = 0;
        if (home.kind == EndpointKind::cache) {
            entry = new_entry(home.node, platform_.domain_of_core(home.index), range);
            entries_[entry].live_bytes = range.bytes;
        }
        // The bytes the range held until now no longer take room where they were.
        where_[range.buffer].replace(range.offset, range.bytes, {home, entry},
                                     [&](std::uint64_t start, std::uint64_t end, Where& where) {
                                         release(where.held, end - start);
                                         for (const SharedCopy& copy : where.shared) release(copy.held, end - start);
                                     });
        if (entry) admit(entry);
    }

private:
    // A range placed in one domain's last-level cache(s) by one write or read;
    // `live_bytes` of it are still there (later writes take bytes away).
    struct Entry {
        std::size_t cache = 0;  // (node, domain)
        sched::Range range;
        std::uint64_t live_bytes = 0;
        // Where its bytes stand in the cache's stream of admitted bytes.
        std::uint64_t admitted_at = 0;
        std::uint64_t admitted_end = 0;
    };
    struct Cache {
        std::deque<std::uint32_t> entries;  // oldest first
        std::uint64_t live_bytes = 0;       // of those entries
        std::uint64_t admitted_bytes = 0;   // ever, in order of admission
        std::uint64_t left_through = 0;     // admitted bytes up to here have left
    };

    // How many bytes the cache evicts before byte `offset` of entry `id`:
    // those admitted before it that have not left (bytes written over since
    // count as if they were there, so the rank is an upper bound), plus the
    // entry's own bytes before `offset`.
    std::uint64_t fifo_rank(std::uint32_t id, std::uint64_t offset) const {
        const Entry& entry = entries_[id];
        const Cache& cache = caches_[entry.cache];
        const std::uint64_t older = entry.admitted_at > cache.left_through ? entry.admitted_at - cache.left_through : 0;
        return std::min(older, cache.live_bytes) + (offset - entry.range.offset);
    }

    // An entry leaves its cache's order.
    void leave(Cache& cache, std::uint32_t id) {
        cache.left_through = std::max(cache.left_through, entries_[id].admitted_end);
    }

    // An entry gives up bytes that a later write took over.
    void release(std::uint32_t id, std::uint64_t bytes) {
        if (id == 0) return;
        entries_[id].live_bytes -= bytes;
        caches_[entries_[id].cache].live_bytes -= bytes;
    }

    int node_of(int buffer) const { return ranks_[buffers_[buffer].owner].node; }

    // Ids are reused once their entry has left its cache: a million-task plan
    // keeps as many entries as its caches hold at once, not one per read and write.
    std::uint32_t new_entry(int node, int domain, const sched::Range& range) {
        const Entry entry{static_cast<std::size_t>(node * platform_.domain_count() + domain), range, 0};
        if (!free_ids_.empty()) {
            const std::uint32_t id = free_ids_.back();
            free_ids_.pop_back();
            entries_[id] = entry;
            return id;
        }
        entries_.push_back(entry);
        return static_cast<std::uint32_t>(entries_.size() - 1);
    }

    // Only for an entry that no byte range refers to (live_bytes 0, or its
    // references just removed by an eviction) and that no cache lists.
    void free_entry(std::uint32_t id) { free_ids_.push_back(id); }

    // The entry's bytes now sit in its cache. What no longer fits is evicted,
    // oldest first: its bytes live in DRAM again (a written line is written
    // back), and a shared copy there is gone. Reads do not refresh an entry
    // (first in, first out).
    void admit(std::uint32_t id) {
        Cache& cache = caches_[entries_[id].cache];
        // Entries whose bytes were all written over hold nothing: the oldest
        // of them leave now (evicting them later would change nothing).
        while (!cache.entries.empty() && entries_[cache.entries.front()].live_bytes == 0) {
            leave(cache, cache.entries.front());
            free_entry(cache.entries.front());
            cache.entries.pop_front();
        }
        cache.entries.push_back(id);
        cache.live_bytes += entries_[id].live_bytes;
        entries_[id].admitted_at = cache.admitted_bytes;
        cache.admitted_bytes += entries_[id].live_bytes;
        entries_[id].admitted_end = cache.admitted_bytes;
        const int domain = static_cast<int>(entries_[id].cache % static_cast<std::size_t>(platform_.domain_count()));
        const std::uint64_t capacity = platform_.levels().llc_bytes_of_domain(domain);
        while (cache.live_bytes > capacity && cache.entries.size() > 1) {
            const std::uint32_t oldest = cache.entries.front();
            cache.entries.pop_front();
            leave(cache, oldest);
            Entry& old = entries_[oldest];
            cache.live_bytes -= old.live_bytes;
            if (old.live_bytes == 0) {
                free_entry(oldest);
                continue;
            }
            const Endpoint dram = memory_of(old.range.buffer);
            where_[old.range.buffer].for_each(old.range.offset, old.range.bytes,
                                              [&](std::uint64_t, std::uint64_t, Where& where) {
                                                  if (where.held == oldest) {
                                                      where.home = dram;
                                                      where.held = 0;
                                                  }
                                                  std::erase_if(where.shared, [&](const SharedCopy& copy) {
                                                      return copy.held == oldest;
                                                  });
                                              });
            old.live_bytes = 0;
            free_entry(oldest);
        }
    }

    // What placing needs of a buffer (a schedule's buffers also have names).
    struct BufferPlace {
        int owner = 0;
        int numa = -1;
        bool exposed = false;
    };

    const std::vector<sched::RankInfo>& ranks_;
    const PlatformModel& platform_;
    std::vector<BufferPlace> buffers_;  // by id
    // The byte intervals (the vector of maps, their nodes and the shared
    // copies' lists) take all their memory from a pool: half a million map
    // nodes at a million tasks, allocated and freed all through planning.
    // The pool reuses them without malloc, and its destructor hands them all
    // back at once.
    std::pmr::unsynchronized_pool_resource intervals_memory_;
    using Intervals = sched::ByteIntervals<Where, std::pmr::polymorphic_allocator<std::pair<const std::uint64_t, Where>>>;
    union {
        std::pmr::vector<Intervals> where_;  // per buffer; never destroyed (above)
    };
    std::vector<Entry> entries_;                      // by id; 0 is none
    std::vector<std::uint32_t> free_ids_;             // ids to reuse (never 0)
    std::vector<Cache> caches_;                       // per (node, domain)
};

// Evictions inside a stream. A copy or reduce on core t writes m bytes and
// reads its operands position by position; every byte it writes, and every
// operand byte it reads from outside t's LLC domain, enters that LLC, which
// evicts its oldest bytes (first in, first out) once it holds more than its
// capacity C. So at position p the stream has evicted L + r p - C bytes,
// where L is what the LLC held when the task began and r the bytes entering
// per position (its write and its outside reads, over m). An operand byte
// that the LLC held, with k bytes ahead of it in eviction order, is evicted
// before the stream reaches it when L + r p - C > k + (p - p0): the part of
// an operand that no longer fits is read from the next level (the bytes'
// DRAM, or the home of a shared copy). One stream that only reads what the
// LLC holds (r = 1) never evicts its operands; a copy of twice the LLC
// reads all of its operand from DRAM. (Concurrent streams in one LLC are not
// seen: planning takes one task at a time.)
void evicted_in_stream(std::vector<ReadPiece>& pieces, double write_bytes, double cached_bytes, double capacity_bytes) {
    if (write_bytes <= 0 || capacity_bytes <= 0) return;
    double entering_bytes = write_bytes;
    bool any_cached = false;
    for (const ReadPiece& piece : pieces) {
        if (!piece.own_cached) entering_bytes += piece.bytes;
        any_cached = any_cached || piece.own_cached;
    }
    const double entering_per_position = entering_bytes / write_bytes;
    if (!any_cached || entering_per_position <= 1 || cached_bytes + entering_bytes <= capacity_bytes) return;
    for (ReadPiece& piece : pieces) {
        if (!piece.own_cached) continue;
        // Positions beyond `kept_until` find the byte gone.
        const double start = static_cast<double>(piece.position);
        const double kept_until = (static_cast<double>(piece.fifo_rank) - start + capacity_bytes - cached_bytes) /
                                  (entering_per_position - 1);
        const double evicted = std::clamp(start + piece.bytes - std::max(kept_until, start), 0.0, piece.bytes);
        piece.evicted_bytes = evicted;
    }
}

// True for a transfer that only touches one core's private resources: its
// own cache, read or written by itself.
bool is_private(const Step& step) {
    if (step.source_ready_after >= 0) return false;
    return step.kind == Step::Kind::work ||
           (step.from.index == step.to.index && step.from.node == step.to.node &&
            ((step.from.kind == EndpointKind::cache && step.to.kind == EndpointKind::core) ||
             (step.from.kind == EndpointKind::core && step.to.kind == EndpointKind::cache)));
}

// Moves a copy's or reduce's private steps after its shared ones and merges
// them into one work step of the same duration. Nothing else contends for a
// core's own cache and arithmetic while it runs its task, so the time is
// exact, and SimGrid has half as many activities to track.
void merge_private_steps(std::vector<Step>& steps, const PlatformModel& platform, NodeRoutes& routes) {
    double private_ns = 0;
    Endpoint core;
    std::size_t kept = 0;  // the shared steps, compacted in place, in order
    for (std::size_t at = 0; at < steps.size(); ++at) {
        const Step& step = steps[at];
        if (!is_private(step)) {
            if (kept != at) steps[kept] = step;
            ++kept;
            continue;
        }
        if (step.kind == Step::Kind::work) {
            private_ns += step.amount / platform.params().reduce_bytes_per_ns.value;
            core = step.from;
        } else {
            private_ns += routes.uncontended_ns(step.from, step.to, step.amount);
            core = step.from.kind == EndpointKind::core ? step.from : step.to;
        }
    }
    steps.resize(kept);
    if (private_ns > 0)
        steps.push_back({Step::Kind::work, core, core, private_ns * platform.params().reduce_bytes_per_ns.value});
}

// Work steps are measured in bytes folded at the core's reduce rate; a flop
// of a compute task is worth reduce_bytes_per_ns / compute_flops_per_ns of them.
double compute_work_per_flop(const costs::Params& params) {
    if (!params.compute_flops_per_ns)
        throw UsageError(fmt::format("params '{}' give no core.compute_flops_per_ns, which the schedule's compute tasks "
                                     "need (docs/params.md)",
                                     params.origin));
    return params.reduce_bytes_per_ns.value / params.compute_flops_per_ns->value;
}

// What a copy from another process's exposed buffer costs its core beyond
// moving the bytes: the system call, and pinning each page of the source.
costs::Figure single_copy_overhead(const costs::Params& params, std::uint64_t bytes) {
    const costs::SingleCopyParams& costs = costs::single_copy_costs(params);
    return {costs.call_ns.value + costs::SingleCopyParams::pages(bytes) * costs.page_ns.value, costs.call_ns.source};
}

}  // namespace

TaskPlans::TaskPlans(const std::vector<TaskPlan>& plans) {
    for (const TaskPlan& plan : plans) add(plan.steps, plan.queue);
}

void TaskPlans::reserve(std::size_t tasks) {
    begin_.reserve(tasks);
    count_.reserve(tasks);
    queue_.reserve(tasks);
}

void TaskPlans::add(std::span<const Step> steps, int queue) {
    if (steps.size() > std::numeric_limits<std::uint32_t>::max())
        throw Error(fmt::format("a task of {} steps: more than a plan holds", steps.size()));
    if (chunks_.empty() || chunks_.back().capacity() - chunks_.back().size() < steps.size()) {
        chunks_.emplace_back();
        chunks_.back().reserve(std::max(chunk_steps, steps.size()));
    }
    std::vector<Step>& chunk = chunks_.back();
    const std::size_t at = chunk.size();
    chunk.insert(chunk.end(), steps.begin(), steps.end());  // within its capacity: nothing moves
    begin_.push_back(chunk.data() + at);
    count_.push_back(static_cast<std::uint32_t>(steps.size()));
    queue_.push_back(queue);
    queue_count_ = std::max(queue_count_, queue + 1);
    step_count_ += steps.size();
}

struct TaskPlanner::State {
    State(const PlatformModel& platform_model, ProgressStrategy strategy, std::vector<sched::RankInfo> rank_infos,
          int nodes, sched::RankKind rank_kind, sched::Datatype datatype, bool application_around)
        : platform_(platform_model), progress_(strategy), ranks_(std::move(rank_infos)),
          locations_(ranks_, nodes, platform_model), routes_(platform_model),
          messages_(platform_model.params().messages),
          processes_(rank_kind == sched::RankKind::process && messages_.has_value()),
          around_(application_around),
          gated_(around_ && (progress_ == ProgressStrategy::manual || progress_ == ProgressStrategy::offload)),
          network_gated_(gated_ && progress_ == ProgressStrategy::manual),
          eager_limit_bytes_(messages_ && messages_->network_eager_limit_bytes ? messages_->network_eager_limit_bytes->value
                                                                               : std::numeric_limits<double>::infinity()),
          line_bytes_(platform_model.params().cache_line_bytes),
          // Work is in bytes folded at the doubles' rate (the core's speed).
          work_per_reduced_byte_(platform_model.params().reduce_bytes_per_ns.value /
                                 costs::reduce_rate(platform_model.params(), datatype).value) {
        std::map<std::pair<int, int>, int> ranks_per_core;  // (node, core) -> ranks
        for (const sched::RankInfo& rank : ranks_) ++ranks_per_core[{rank.node, rank.core}];
        for (const sched::RankInfo& rank : ranks_) shares_core_.push_back(ranks_per_core[{rank.node, rank.core}] > 1);
    }

    // Asked at the first compute task: a schedule without one needs no compute rate.
    double work_per_flop() {
        if (!work_per_flop_) work_per_flop_ = compute_work_per_flop(platform_.params());
        return *work_per_flop_;
    }

    // A serial step (or a gap) of `figure` ns on `resource`, if it takes any
    // time, waiting for the progress of rank `progress_of` (-1: none).
    void serial(const Endpoint& resource, const costs::Figure& figure, int progress_of = -1,
                Step::Kind kind = Step::Kind::serial) {
        if (figure.value <= 0) return;
        steps_.push_back({kind, resource, resource, figure.value});
        steps_.back().progress_of = progress_of;
    }

    void plan(const sched::Task& task, int id);

    const PlatformModel& platform_;
    const ProgressStrategy progress_;
    const std::vector<sched::RankInfo> ranks_;
    DataLocations locations_;
    NodeRoutes routes_;  // a core's own-cache routes, once per kind of route
    TaskPlans plans_;
    std::vector<Step> steps_;  // one task's, reused
    std::vector<bool> shares_core_;  // per rank: hyper-threads of one core
    const std::optional<costs::MessageParams>& messages_;
    const bool processes_;
    // Protocols and progress only where the application computes around the collective.
    const bool around_;
    const bool gated_;
    const bool network_gated_;
    const double eager_limit_bytes_;
    const double line_bytes_;
    const double work_per_reduced_byte_;
    std::optional<double> work_per_flop_;
    std::unordered_map<std::uint64_t, int> queue_of_pair_;  // (sender, receiver) rank -> message queue
    // One copy's or reduce's reads, reused: their pieces, where each read's
    // pieces end, and one read's bytes per source.
    std::vector<ReadPiece> pieces_;
    std::vector<std::size_t> read_ends_;
    std::vector<std::pair<ReadSource, double>> sources_;
};

void TaskPlanner::State::plan(const sched::Task& task, int id) {
    const sched::RankInfo& rank = ranks_[task.thread];
    const Endpoint core{EndpointKind::core, rank.node, rank.core};
    steps_.clear();
    int queue = -1;  // a message's: its pair of ranks' queue
    switch (task.kind) {
        case sched::TaskKind::copy:
        case sched::TaskKind::reduce: {
            // Operands and result beyond the core's private caches: its
            // own data streams through its LLC instead.
            double working_set_bytes = static_cast<double>(task.write.bytes);
            for (const sched::Range& read : task.reads) working_set_bytes += static_cast<double>(read.bytes);
            const bool spills = costs::spills_private_cache(platform_.private_cache_bytes(), working_set_bytes);
            const Endpoint own_cache{EndpointKind::cache, rank.node, rank.core};
            const Endpoint own_llc{EndpointKind::llc, rank.node, rank.core};
            auto through_llc = [&](const Endpoint& at) { return spills && at == own_cache ? own_llc : at; };
            if (processes_ && std::any_of(task.reads.begin(), task.reads.end(), [&](const sched::Range& read) {
                    return locations_.owner_of(read.buffer) != task.thread;
                }))
                serial(core, messages_->process_receive_overhead_ns);
            if (task.kind == sched::TaskKind::copy && locations_.exposed(task.reads[0].buffer) &&
                locations_.owner_of(task.reads[0].buffer) != task.thread)
                serial(core, single_copy_overhead(platform_.params(), task.write.bytes));
            const int domain = platform_.domain_of_core(rank.core);
            const double cached_before = static_cast<double>(locations_.cached_bytes(rank.node, domain));
            pieces_.clear();
            read_ends_.clear();
            for (const sched::Range& read : task.reads) {
                locations_.read(read, rank.core, id, pieces_);
                read_ends_.push_back(pieces_.size());
            }
            evicted_in_stream(pieces_, static_cast<double>(task.write.bytes), cached_before,
                              static_cast<double>(platform_.levels().llc_bytes_of_domain(domain)));
            std::size_t begin = 0;
            for (const std::size_t end : read_ends_) {  // one read's pieces, summed per source
                sources_.clear();
                auto add = [&](const ReadSource& source, double bytes) {
                    if (bytes <= 0) return;
                    auto found = std::find_if(sources_.begin(), sources_.end(), [&](const auto& p) { return p.first == source; });
                    if (found == sources_.end())
                        sources_.emplace_back(source, bytes);
                    else
                        found->second += bytes;
                };
                for (std::size_t at = begin; at < end; ++at) {
                    const ReadPiece& piece = pieces_[at];
                    add(piece.source, piece.bytes - piece.evicted_bytes);
                    add({piece.next_level, piece.next_level, -1}, piece.evicted_bytes);
                }
                for (const auto& [location, bytes] : sources_) {
                    Step step{Step::Kind::transfer, through_llc(location.source), core, bytes};
                    if (location.ready_after >= 0 && location.ready_after != id) {
                        step.source_ready_after = location.ready_after;
                        step.fallback_from = through_llc(location.fallback);
                    }
                    steps_.push_back(step);
                }
                begin = end;
            }
            const double bytes = static_cast<double>(task.write.bytes);
            if (task.kind == sched::TaskKind::reduce && task.reads.size() > 1)
                steps_.push_back({Step::Kind::work, core, core,
                                  bytes * static_cast<double>(task.reads.size() - 1) * work_per_reduced_byte_});
            const auto target = locations_.after_write(rank.core, task.write.buffer, task.write.bytes);
            if (target.bytes_to_memory > 0)
                steps_.push_back({Step::Kind::transfer, core, target.memory, static_cast<double>(target.bytes_to_memory)});
            if (target.bytes_to_cache > 0 || target.bytes_to_memory == 0)
                steps_.push_back({Step::Kind::transfer, core, through_llc(target.cache), static_cast<double>(target.bytes_to_cache)});
            locations_.record_write(task.write, target);
            merge_private_steps(steps_, platform_, routes_);
            break;
        }
        case sched::TaskKind::flag: {
            const sched::RankInfo& waiter = ranks_[task.peer];
            if (processes_) serial(core, messages_->process_send_overhead_ns);
            steps_.push_back({Step::Kind::transfer, {EndpointKind::cache, rank.node, rank.core},
                             {EndpointKind::core, waiter.node, waiter.core}, line_bytes_});
            if (const auto& overhead = platform_.params().flag_overhead_ns; overhead && overhead->value > 0) {
                const Endpoint waiter_core{EndpointKind::core, waiter.node, waiter.core};
                steps_.push_back({shares_core_[task.peer] ? Step::Kind::shared_work : Step::Kind::work, waiter_core,
                                 waiter_core, overhead->value * platform_.params().reduce_bytes_per_ns.value});
            }
            break;
        }
        case sched::TaskKind::net: {
            const bool data = task.write.buffer >= 0;
            const sched::RankInfo& receiver = ranks_[task.peer];
            auto numa_of = [&](const sched::RankInfo& who) { return std::clamp(who.numa, 0, platform_.numa_count() - 1); };
            const Endpoint source = data ? locations_.memory_of(task.reads.front().buffer)
                                         : Endpoint{EndpointKind::memory, rank.node, numa_of(rank)};
            const Endpoint target = data ? locations_.memory_of(task.write.buffer)
                                         : Endpoint{EndpointKind::memory, receiver.node, numa_of(receiver)};
            // Each end goes through the NIC nearest its rank.
            const int sender_nic = platform_.nearest_nic(numa_of(rank));
            const int receiver_nic = platform_.nearest_nic(numa_of(receiver));
            const Endpoint receiver_core{EndpointKind::core, receiver.node, receiver.core};
            if (messages_) {
                serial(core, messages_->network_send_overhead_ns, gated_ ? task.thread : -1);
                serial({EndpointKind::nic, rank.node, sender_nic}, messages_->network_gap_ns, -1, Step::Kind::gap);
            }
            const double payload_bytes = data ? static_cast<double>(task.write.bytes) : 0.0;
            const Endpoint from_dma = platform_.dma(source.node, source.index, sender_nic);
            const Endpoint to_dma = platform_.dma(target.node, target.index, receiver_nic);
            const bool rendezvous = around_ && payload_bytes > eager_limit_bytes_;
            // The rendezvous request: no payload, on the message's route;
            // then the receiver's answer, which takes its progress engine
            // (no time of its own: its costs are the overheads), and the
            // data, read by the receiver's NIC.
            if (rendezvous) steps_.push_back({Step::Kind::transfer, from_dma, to_dma, 0.0});
            if (rendezvous && network_gated_) {
                steps_.push_back({Step::Kind::work, receiver_core, receiver_core, 0.0});
                steps_.back().progress_of = task.peer;
            }
            steps_.push_back({Step::Kind::transfer, from_dma, to_dma, payload_bytes});
            if (messages_) serial(receiver_core, messages_->network_receive_overhead_ns, network_gated_ ? task.peer : -1);
            if (data) locations_.record(task.write, target);
            const std::uint64_t pair = static_cast<std::uint64_t>(task.thread) << 32 | static_cast<std::uint32_t>(task.peer);
            queue = queue_of_pair_.try_emplace(pair, static_cast<int>(queue_of_pair_.size())).first->second;
            break;
        }
        case sched::TaskKind::compute:
            steps_.push_back({Step::Kind::work, core, core, task.flops * work_per_flop()});
            break;
        case sched::TaskKind::wait:
            steps_.push_back({Step::Kind::work, core, core, 0});
            break;
    }
    if (shares_core_[task.thread] && task.kind != sched::TaskKind::flag)  // a flag's work is its waiter's
        for (Step& step : steps_)
            if (step.kind == Step::Kind::work) step.kind = Step::Kind::shared_work;
    if (gated_ && !task.application) {
        if (task.kind == sched::TaskKind::flag) {
            // The setter's send overhead is its own; the spin loop that notices the flag is the waiter's.
            for (Step& step : steps_)
                if (step.kind == Step::Kind::serial) step.progress_of = task.thread;
                else if (step.kind != Step::Kind::transfer) step.progress_of = task.peer;
        } else if (task.kind != sched::TaskKind::net) {
            for (Step& step : steps_) step.progress_of = task.thread;
        }
    }
    // A polling progress thread shares the rank's core with the computation.
    if (around_ && progress_ == ProgressStrategy::shared_thread)
        for (Step& step : steps_)
            if (step.kind == Step::Kind::work) step.kind = Step::Kind::shared_work;
    plans_.add(steps_, queue);
}

TaskPlanner::TaskPlanner(const PlatformModel& platform, ProgressStrategy progress, std::vector<sched::RankInfo> ranks,
                         int nodes, sched::RankKind rank_kind, sched::Datatype datatype, bool application_around,
                         std::size_t expected_tasks)
    : state_(std::make_unique<State>(platform, progress, std::move(ranks), nodes, rank_kind, datatype,
                                     application_around)) {
    state_->plans_.reserve(expected_tasks);
}

TaskPlanner::~TaskPlanner() = default;

void TaskPlanner::add_buffer(const sched::Buffer& buffer) {
    if (buffer.owner < 0 || static_cast<std::size_t>(buffer.owner) >= state_->ranks_.size())
        throw Error(fmt::format("buffer {} belongs to rank {}, which does not exist", state_->locations_.buffer_count(),
                                buffer.owner));
    state_->locations_.add_buffer(buffer);
}

void TaskPlanner::add_task(const sched::Task& task) {
    const std::size_t ranks = state_->ranks_.size();
    const std::size_t buffers = state_->locations_.buffer_count();
    const int id = static_cast<int>(state_->plans_.size());
    auto known_rank = [&](int rank) { return rank >= 0 && static_cast<std::size_t>(rank) < ranks; };
    auto known_buffer = [&](const sched::Range& range) {
        return range.buffer >= 0 && static_cast<std::size_t>(range.buffer) < buffers;
    };
    const bool has_peer = task.kind == sched::TaskKind::flag || task.kind == sched::TaskKind::net;
    const bool writes = task.kind == sched::TaskKind::copy || task.kind == sched::TaskKind::reduce ||
                        (task.kind == sched::TaskKind::net && task.write.buffer >= 0);
    if (!known_rank(task.thread) || (has_peer && !known_rank(task.peer)) || (writes && !known_buffer(task.write)) ||
        !std::all_of(task.reads.begin(), task.reads.end(), known_buffer) ||
        (task.kind == sched::TaskKind::net && writes && task.reads.empty()))
        throw Error(fmt::format("task {} names a rank or buffer that does not exist yet", id));
    state_->plan(task, id);
}

std::size_t TaskPlanner::task_count() const { return state_->plans_.size(); }
std::size_t TaskPlanner::buffer_count() const { return state_->locations_.buffer_count(); }

TaskPlans TaskPlanner::take() { return std::move(state_->plans_); }

TaskPlans plan_tasks(const sched::Schedule& schedule, const PlatformModel& platform, ProgressStrategy progress) {
    TaskPlanner planner(platform, progress, schedule.ranks, schedule.nodes, schedule.rank_kind, schedule.spec.datatype,
                        schedule.has_application_tasks(), static_cast<std::size_t>(schedule.task_count()));
    for (const sched::Buffer& buffer : schedule.buffers()) planner.add_buffer(buffer);
    for (int id = 0; id < schedule.task_count(); ++id) planner.add_task(schedule.task(id));
    return planner.take();
}

}  // namespace numacoll::sim

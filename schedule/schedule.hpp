// sched::Schedule: one collective operation as a DAG of tasks over buffers.
//
// The schedule is the only thing the engines see: SimGrid (sim/) and the real
// executor (exec/) consume it and know nothing about the algorithm that made it.
//
// Model:
// - A buffer is a byte array owned by one rank, placed on a NUMA node of the
//   owner's node. Inputs and outputs of the collective are buffers with the
//   roles `input` / `output`; algorithms add `temp` buffers as they need.
// - A task runs on one thread (= rank). copy and reduce read byte ranges of
//   buffers on the thread's own node and write one range; the data is the
//   element type of the spec (schedule/datatype.hpp), and a reduction's
//   ranges are whole elements of it.
// - flag: thread `thread` signals thread `peer` (no data). net: thread
//   `thread` sends a range of a buffer on its node to a range of a buffer on
//   `peer`'s node, which must be another node.
// - compute: real work on the thread's core, `flops` floating-point
//   operations (charged at the compute rate of the cost parameters); no data.
//   wait: the thread only waits for its dependencies (a barrier's release,
//   data that others delivered), and does nothing else.
// - Edges are dependencies. An edge between two threads must leave a flag or
//   net task whose peer is the target's thread: that is how threads learn
//   that data is ready, and what the engines charge for synchronisation.
// - Each thread runs its tasks in the order of their ids among those of its
//   own thread (ids are a topological order; validate() checks it).
// - Application tasks (Task::application; overlap/compose.hpp makes them)
//   are not the collective's: they are the computation a rank does while a
//   nonblocking collective is in flight (compute) and its calls into the
//   MPI library's progress engine (wait: MPI_Test when its dependencies are
//   its own program order only, MPI_Wait when it also waits for the
//   collective's tasks). They move no data. What a rank can do while it
//   computes is needs_own_processor(): the tasks it runs itself wait for it
//   to enter the progress engine (or for a progress thread); the NIC's
//   transfers do not.
#pragma once

#include <boost/container/small_vector.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "common/progress.hpp"
#include "schedule/datatype.hpp"
#include "schedule/label.hpp"

namespace numacoll::sched {

// The names of these values live in a table in schedule.cpp, in this order.
enum class Collective { allreduce, reduce, bcast, barrier, scatter, gather, allgather, reduce_scatter, alltoall, pingpong };
// MPI's predefined operations (schedule/datatype.hpp says which types each
// applies to); minloc and maxloc reduce value-index pairs.
enum class ReduceOp { sum, min, max, prod, land, lor, lxor, band, bor, bxor, minloc, maxloc };
enum class TaskKind { copy, reduce, flag, net, compute, wait };  // wait last: Schedule counts each kind
enum class BufferRole { input, output, temp };
// What a rank is. A thread (HPDC'13: one process per node, ranks read each
// other's buffers) or an MPI process (Open MPI's algorithms, the NUIOA and
// hierarchical-communicators papers): between processes every hand-over is
// a message, and costs a send and a receive overhead on top of the copy.
// Or MPI processes over a segment of memory they share (schedule/process_form.hpp:
// MPICH's CH4 posix and UCC's tl/shm collectives): a hand-over is a flag
// in the segment, as between threads, and a rank touches another's data only
// in the segment.
enum class RankKind { thread, process, shared_process };

const char* to_string(Collective collective);
const char* to_string(ReduceOp op);
const char* to_string(TaskKind kind);
const char* to_string(BufferRole role);
const char* to_string(RankKind kind);
Collective parse_collective(const std::string& text);
ReduceOp parse_reduce_op(const std::string& text);
TaskKind parse_task_kind(const std::string& text);
BufferRole parse_buffer_role(const std::string& text);
RankKind parse_rank_kind(const std::string& text);
bool is_reduction(Collective collective);

// Whether a task of the collective occupies its own rank's processor: copies
// and reductions it performs, its waits (it polls), its flags (a store), its
// compute. A net task's transfer is the NICs' (only its send and receive
// overheads take the two ranks' processors: sim/task_plan.hpp).
inline bool needs_own_processor(TaskKind kind) { return kind != TaskKind::net; }

inline constexpr std::uint64_t cache_line_bytes = 64;

// What the caller asked for: the collective, its size and the algorithm with
// its options (free-form key=value, each generator documents and checks its own).
struct CollectiveSpec {
    Collective collective = Collective::allreduce;
    std::string algorithm;
    std::uint64_t bytes = 0;  // per-rank vector size
    int root = 0;
    ReduceOp op = ReduceOp::sum;
    // The elements: a reduction's bytes are a whole number of them; a
    // collective that only copies moves any number of bytes.
    Datatype datatype = Datatype::double_;
    std::map<std::string, std::string> options;
};

// The size of one element of the spec's datatype: what a reduction's ranges
// and every cut of its vector are multiples of.
inline std::uint64_t element_bytes(const CollectiveSpec& spec) { return element_size(spec.datatype); }
// For a reduction: UsageError unless its operation applies to its datatype
// and its size is a whole number of elements.
void check_datatype(const CollectiveSpec& spec);

struct Buffer {
    std::string name;
    int owner = 0;  // global rank
    std::uint64_t bytes = 0;
    BufferRole role = BufferRole::temp;
    int numa = -1;  // logical NUMA node on the owner's node; -1: the owner's local node
    // In its node's shared segment (schedule/process_form.hpp): between
    // processes, a buffer that another rank reads or writes must be; the
    // others are the owner's private memory. Threads share all memory.
    bool shared = false;
    // Private, but read by other ranks of its node through the kernel, as
    // one copy from its owner's memory (Linux's cross-memory attach,
    // process_vm_readv; schedule/process_form.hpp's single copy). Only its
    // owner writes it.
    bool exposed = false;
    bool operator==(const Buffer&) const = default;
};

// A byte range [offset, offset + bytes) of one buffer.
struct Range {
    int buffer = -1;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
    std::uint64_t end() const { return offset + bytes; }
    bool overlaps(const Range& other) const {
        return buffer == other.buffer && offset < other.end() && other.offset < end();
    }
    bool operator==(const Range&) const = default;
};

// A task's reads, inline up to two (every copy and net task, and most
// reductions): a million tasks make no heap block for them.
using Reads = boost::container::small_vector<Range, 2>;

struct Task {
    TaskKind kind = TaskKind::copy;
    int thread = 0;           // the rank that executes it
    int peer = -1;            // flag: the waiting rank; net: the receiving rank
    // The application's computation or progress call, not the collective's
    // (here, in what would be padding: a million tasks take no more memory).
    bool application = false;
    Reads reads;              // copy/net: one; reduce: one or more, all of write's length
    Range write;              // buffer -1 for flag, compute and wait
    double flops = 0;         // compute only: the work, > 0
    Label label;              // for people: phase and step, no spaces
    bool operator==(const Task&) const = default;
};

// The rank that writes a task's write range: a net task's receiver (the
// process that receives the message), any other task's own rank. Its reads
// are always its own rank's.
inline int writing_rank(const Task& task) { return task.kind == TaskKind::net ? task.peer : task.thread; }

// The dependency graph as Boost.Graph sees it (for its algorithms: a
// topological sort, Graphviz): compressed rows both ways, 32-bit ids.
using TaskGraph = boost::compressed_sparse_row_graph<boost::bidirectionalS, boost::no_property, boost::no_property,
                                                     boost::no_property, std::uint32_t, std::uint32_t>;

// Compressed rows: the row of task t is ids[first[t] .. first[t + 1]), ascending.
struct TaskRows {
    std::vector<std::uint32_t> first{0};
    std::vector<int> ids;
    std::size_t size() const { return first.size() - 1; }
    const int* begin(int task) const { return ids.data() + first[task]; }
    const int* end(int task) const { return ids.data() + first[task + 1]; }
};

// Who the ranks are, copied from the Layout so that a schedule read back from
// a file is complete on its own.
struct RankInfo {
    int node = 0;
    int core = 0;
    int pu = 0;
    int numa = -1;
    int package = -1;
    bool operator==(const RankInfo&) const = default;
};

// A bound on the tasks a schedule may get while it is generated, for the
// calling thread while a TaskBudget lives: a layout or an option that would
// make millions of tasks stops at the bound (UsageError naming it, what it
// costs in memory, and how to raise it) instead of running for minutes and
// taking gigabytes. NUMACOLL_MAX_TASKS replaces the default bound.
// The bound is also the memory this machine has available (MemAvailable in
// /proc/meminfo, at bytes_per_task), unless NUMACOLL_MAX_TASKS sets it. While
// it lives, a budget shows generation's progress on stderr (common/progress.hpp).
class TaskBudget {
public:
    static constexpr std::size_t default_max_tasks = std::size_t{4} << 20;  // about 1.7 GB to simulate
    // Measured, the whole `numacoll sim` command (generation, planning,
    // simulation) at its peak: 383 MB for a million tasks on one 1024-core
    // node, 1,079 MB for 2.06 million on 4,096 westmere nodes (525 bytes a
    // task: SimGrid's state for each node adds to the schedule's).
    static constexpr double bytes_per_task = 530;
    // `what` names the schedule in the message ("allreduce tree 1MiB");
    // `expected_tasks` is the estimate the progress line counts towards.
    explicit TaskBudget(std::string what, std::size_t expected_tasks = 0);
    ~TaskBudget();
    TaskBudget(const TaskBudget&) = delete;
    TaskBudget& operator=(const TaskBudget&) = delete;

    // The bound in force: NUMACOLL_MAX_TASKS, else the smaller of
    // default_max_tasks and what the available memory holds.
    static std::size_t max_tasks();
    // UsageError when `tasks` exceed the bound; `estimated` says the count is
    // an estimate made before generating.
    static void check(std::size_t tasks, const std::string& what, bool estimated);
    // An estimate of the tasks, made in floating point (it can be absurdly
    // large), as the count check() takes: 1e18 at most.
    static std::size_t count_of_estimate(double tasks);
    // Called by Schedule::add_task with the count it reached.
    static void charge(std::size_t tasks);

private:
    std::string what_;
    const TaskBudget* previous_;
    std::unique_ptr<ProgressReport> progress_;
};

class Schedule;

// Told of every buffer and task a schedule gets, on the thread that adds
// them, while a ScheduleWatch installed on that thread lives: a consumer
// can follow a schedule as it is generated (sim/planning_beside_generation.hpp)
// instead of after. It sees the schedule just after each addition; it must
// not throw.
class ScheduleWatcher {
public:
    virtual void buffer_added(const Schedule& schedule, int id) noexcept = 0;
    virtual void task_added(const Schedule& schedule, int id) noexcept = 0;

protected:
    ~ScheduleWatcher() = default;
};

// Installs `watcher` (nullptr: none) for the calling thread while it lives.
class ScheduleWatch {
public:
    explicit ScheduleWatch(ScheduleWatcher* watcher);
    ~ScheduleWatch();
    ScheduleWatch(const ScheduleWatch&) = delete;
    ScheduleWatch& operator=(const ScheduleWatch&) = delete;

private:
    ScheduleWatcher* previous_;
};

// A schedule's tasks, in blocks of 8,192 (1 MiB): appending never moves
// what is stored (a vector of a million tasks would briefly hold one and a
// half times their memory to grow) and allocates once per block
// (std::deque's 512-byte blocks cost a malloc per four tasks to generate and
// a free per four to destroy). A block's memory is touched as tasks fill it.
class TaskBlocks {
public:
    TaskBlocks() = default;
    TaskBlocks(const TaskBlocks& other);
    TaskBlocks(TaskBlocks&& other) noexcept;
    TaskBlocks& operator=(const TaskBlocks& other);
    TaskBlocks& operator=(TaskBlocks&& other) noexcept;
    ~TaskBlocks() { clear(); }

    std::size_t size() const { return size_; }
    const Task& operator[](std::size_t index) const { return blocks_[index / block_tasks].get()[index % block_tasks]; }
    void push_back(Task task);
    void clear();

private:
    static constexpr std::size_t block_tasks = (std::size_t{1} << 20) / sizeof(Task);
    struct BlockRelease {
        void operator()(Task* block) const { std::allocator<Task>().deallocate(block, block_tasks); }
    };
    std::vector<std::unique_ptr<Task, BlockRelease>> blocks_;  // raw memory; tasks [0, size_) constructed
    std::size_t size_ = 0;
};

class Schedule {
public:
    CollectiveSpec spec;
    int nodes = 1;
    RankKind rank_kind = RankKind::thread;
    std::vector<RankInfo> ranks;
    // What produced it: topology, numacoll version... (written into every export).
    std::map<std::string, std::string> provenance;

    int add_buffer(Buffer buffer);
    // Adds a task with exactly these dependencies; returns its id.
    int add_task(Task task, const std::vector<int>& deps);
    void add_edge(int from, int to);

    int rank_count() const { return static_cast<int>(ranks.size()); }
    int task_count() const { return static_cast<int>(tasks_.size()); }
    // Kept as tasks are added: a million-task schedule answers without a
    // pass over its tasks.
    bool has_application_tasks() const { return counts_.application > 0; }
    bool has_tasks_of(TaskKind kind) const { return counts_.of_kind[static_cast<std::size_t>(kind)] > 0; }
    const Task& task(int id) const { return tasks_[id]; }
    const std::vector<Buffer>& buffers() const { return buffers_; }
    const Buffer& buffer(int id) const { return buffers_[id]; }
    // Made on first use after a change, and kept (not thread-safe while the
    // schedule changes; concurrent readers of a finished schedule are fine).
    const TaskGraph& graph() const;
    const TaskRows& predecessor_rows() const { return predecessors_; }
    const TaskRows& successor_rows() const;
    std::vector<int> predecessors(int id) const { return {predecessors_.begin(id), predecessors_.end(id)}; }
    std::vector<int> successors(int id) const;
    int edge_count() const { return static_cast<int>(predecessors_.ids.size()); }

    // Which schedule's additions these contents are: a new schedule gets its
    // own; a copy or a move carries it with the contents. A watcher that saw
    // every addition to one schedule and finds the lineage and the counts of
    // tasks and buffers unchanged has seen all of these contents.
    std::uint64_t lineage() const { return lineage_; }

    // Buffer id of a rank's input / output, -1 if it has none.
    int input_of(int rank) const { return buffer_of(rank, BufferRole::input); }
    int output_of(int rank) const { return buffer_of(rank, BufferRole::output); }
    // Its first buffer of that role, -1 if none.
    int buffer_of(int rank, BufferRole role) const;

private:
    // What graph() and successor_rows() derive from the predecessors, made
    // once per state of the schedule.
    struct Derived {
        TaskRows successors;
        std::unique_ptr<TaskGraph> graph;
    };
    Derived& derived() const;

    std::vector<Buffer> buffers_;
    TaskBlocks tasks_;
    TaskRows predecessors_;  // filled as tasks are added: generation is one pass
    // How many tasks are the application's and of each kind; a schedule
    // moved from has none, like its tasks.
    struct TaskCounts {
        int application = 0;
        std::array<int, static_cast<std::size_t>(TaskKind::wait) + 1> of_kind{};  // by TaskKind

        TaskCounts() = default;
        TaskCounts(const TaskCounts&) = default;
        TaskCounts& operator=(const TaskCounts&) = default;
        TaskCounts(TaskCounts&& other) noexcept : application(other.application), of_kind(other.of_kind) { other.clear(); }
        TaskCounts& operator=(TaskCounts&& other) noexcept {
            application = other.application;
            of_kind = other.of_kind;
            other.clear();
            return *this;
        }
        void clear() {
            application = 0;
            of_kind.fill(0);
        }
    };
    TaskCounts counts_;
    mutable std::shared_ptr<Derived> derived_;
    std::uint64_t lineage_ = new_lineage();
    static std::uint64_t new_lineage();
};

bool operator==(const Schedule& a, const Schedule& b);

}  // namespace numacoll::sched

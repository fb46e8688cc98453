#include "schedule/schedule.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "common/error.hpp"

namespace numacoll::sched {

namespace {

// Each enum's names, in the order of its values: one table serves both directions.
constexpr std::array collective_names = {"allreduce", "reduce",         "bcast",    "barrier", "scatter", "gather",
                                         "allgather", "reduce_scatter", "alltoall", "pingpong"};
constexpr std::array op_names = {"sum", "min", "max", "prod", "land", "lor", "lxor", "band", "bor", "bxor", "minloc", "maxloc"};
constexpr std::array kind_names = {"copy", "reduce", "flag", "net", "compute", "wait"};
constexpr std::array role_names = {"input", "output", "temp"};
constexpr std::array rank_kind_names = {"threads", "processes", "processes-sharing-memory"};

template <typename Enum, std::size_t N>
const char* name_of(Enum value, const std::array<const char*, N>& names) {
    const auto index = static_cast<std::size_t>(value);
    return index < N ? names[index] : "?";
}

template <typename Enum, std::size_t N>
Enum parse_name(const std::string& text, const std::array<const char*, N>& names, const char* what) {
    std::string expected;
    for (std::size_t index = 0; index < N; ++index) {
        if (text == names[index]) return static_cast<Enum>(index);
        expected += (expected.empty() ? "" : ", ") + std::string(names[index]);
    }
    throw UsageError(fmt::format("unknown {} '{}': expected one of {}", what, text, expected));
}

}  // namespace

const char* to_string(Collective collective) { return name_of(collective, collective_names); }
const char* to_string(ReduceOp op) { return name_of(op, op_names); }
const char* to_string(TaskKind kind) { return name_of(kind, kind_names); }
const char* to_string(BufferRole role) { return name_of(role, role_names); }
const char* to_string(RankKind kind) { return name_of(kind, rank_kind_names); }

Collective parse_collective(const std::string& text) {
    return parse_name<Collective>(text, collective_names, "collective");
}
ReduceOp parse_reduce_op(const std::string& text) { return parse_name<ReduceOp>(text, op_names, "reduction operator"); }
TaskKind parse_task_kind(const std::string& text) { return parse_name<TaskKind>(text, kind_names, "task kind"); }
BufferRole parse_buffer_role(const std::string& text) {
    return parse_name<BufferRole>(text, role_names, "buffer role");
}
RankKind parse_rank_kind(const std::string& text) { return parse_name<RankKind>(text, rank_kind_names, "rank kind"); }

bool is_reduction(Collective collective) {
    return collective == Collective::allreduce || collective == Collective::reduce ||
           collective == Collective::reduce_scatter;
}

namespace {

thread_local ScheduleWatcher* current_watcher = nullptr;

}  // namespace

ScheduleWatch::ScheduleWatch(ScheduleWatcher* watcher) : previous_(current_watcher) { current_watcher = watcher; }

ScheduleWatch::~ScheduleWatch() { current_watcher = previous_; }

std::uint64_t Schedule::new_lineage() {
    static std::atomic<std::uint64_t> next{1};
    return next.fetch_add(1, std::memory_order_relaxed);
}

int Schedule::add_buffer(Buffer buffer) {
    buffers_.push_back(std::move(buffer));
    const int id = static_cast<int>(buffers_.size()) - 1;
    if (current_watcher != nullptr) current_watcher->buffer_added(*this, id);
    return id;
}

namespace {

thread_local const TaskBudget* current_budget = nullptr;
thread_local const std::string* current_budget_what = nullptr;
thread_local std::size_t current_budget_max = 0;
thread_local ProgressReport* current_progress = nullptr;

// MemAvailable from /proc/meminfo, in bytes; 0 when it cannot be read.
double available_memory_bytes() {
    std::FILE* file = std::fopen("/proc/meminfo", "r");
    if (file == nullptr) return 0;
    char line[256];
    double kib = 0;
    while (std::fgets(line, sizeof line, file) != nullptr)
        if (std::sscanf(line, "MemAvailable: %lf kB", &kib) == 1) break;
    std::fclose(file);
    return kib * 1024;
}

}  // namespace

TaskBudget::TaskBudget(std::string what, std::size_t expected_tasks)
    : what_(std::move(what)), previous_(current_budget),
      progress_(std::make_unique<ProgressReport>("generating " + what_, "tasks", expected_tasks)) {
    current_budget = this;
    current_budget_what = &what_;
    current_budget_max = max_tasks();
    current_progress = progress_.get();
}

TaskBudget::~TaskBudget() {
    current_budget = previous_;
    current_budget_what = previous_ ? &previous_->what_ : nullptr;
    current_budget_max = previous_ ? max_tasks() : 0;
    current_progress = previous_ ? previous_->progress_.get() : nullptr;
}

std::size_t TaskBudget::max_tasks() {
    const char* text = std::getenv("NUMACOLL_MAX_TASKS");
    if (text == nullptr || *text == '\0') {
        const double available = available_memory_bytes();
        const auto fits = static_cast<std::size_t>(available / bytes_per_task);
        return available > 0 ? std::min(default_max_tasks, fits) : default_max_tasks;
    }
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (end == text || *end != '\0' || value == 0)
        throw UsageError(fmt::format("NUMACOLL_MAX_TASKS must be a positive count (got '{}')", text));
    return static_cast<std::size_t>(value);
}

std::size_t TaskBudget::count_of_estimate(double tasks) { return static_cast<std::size_t>(std::min(tasks, 1e18)); }

void TaskBudget::check(std::size_t tasks, const std::string& what, bool estimated) {
    const std::size_t bound = max_tasks();
    if (tasks <= bound) return;
    const bool memory_bound = bound < default_max_tasks && std::getenv("NUMACOLL_MAX_TASKS") == nullptr;
    throw UsageError(fmt::format(
        "the {} schedule would have {} {} tasks (about {:.1f} GB); numacoll makes at most {}{}: fewer ranks or nodes, "
        "a smaller size, or larger strips or segments make fewer (NUMACOLL_MAX_TASKS raises the bound)",
        what, estimated ? "about" : "more than", estimated ? tasks : bound,
        static_cast<double>(estimated ? tasks : bound) * bytes_per_task / 1e9, bound,
        memory_bound ? fmt::format(" (what the {:.1f} GB of available memory hold)", available_memory_bytes() / 1e9)
                     : ""));
}

void TaskBudget::charge(std::size_t tasks) {
    if (current_budget == nullptr) return;
    if (tasks > current_budget_max) check(tasks, *current_budget_what, false);
    current_progress->advance(tasks);
}

TaskBlocks::TaskBlocks(const TaskBlocks& other) {
    for (std::size_t index = 0; index < other.size(); ++index) push_back(other[index]);
}

TaskBlocks::TaskBlocks(TaskBlocks&& other) noexcept : blocks_(std::move(other.blocks_)), size_(other.size_) {
    other.blocks_.clear();
    other.size_ = 0;
}

TaskBlocks& TaskBlocks::operator=(const TaskBlocks& other) {
    if (this != &other) {
        TaskBlocks copy(other);
        *this = std::move(copy);
    }
    return *this;
}

TaskBlocks& TaskBlocks::operator=(TaskBlocks&& other) noexcept {
    if (this != &other) {
        clear();
        blocks_ = std::move(other.blocks_);
        size_ = other.size_;
        other.blocks_.clear();
        other.size_ = 0;
    }
    return *this;
}

void TaskBlocks::push_back(Task task) {
    if (size_ == blocks_.size() * block_tasks) {
        std::unique_ptr<Task, BlockRelease> block(std::allocator<Task>().allocate(block_tasks));
        blocks_.push_back(std::move(block));
    }
    std::construct_at(blocks_[size_ / block_tasks].get() + size_ % block_tasks, std::move(task));
    ++size_;
}

void TaskBlocks::clear() {
    for (std::size_t index = 0; index < size_; ++index)
        std::destroy_at(blocks_[index / block_tasks].get() + index % block_tasks);
    size_ = 0;
    blocks_.clear();
}

int Schedule::add_task(Task task, const std::vector<int>& deps) {
    TaskBudget::charge(tasks_.size() + 1);
    const int id = static_cast<int>(tasks_.size());
    // Repeats among `deps` count once; the row stays ascending.
    const std::size_t row = predecessors_.ids.size();
    predecessors_.ids.insert(predecessors_.ids.end(), deps.begin(), deps.end());
    const auto begin = predecessors_.ids.begin() + static_cast<std::ptrdiff_t>(row);
    std::sort(begin, predecessors_.ids.end());
    predecessors_.ids.erase(std::unique(begin, predecessors_.ids.end()), predecessors_.ids.end());
    for (auto it = predecessors_.ids.begin() + static_cast<std::ptrdiff_t>(row); it != predecessors_.ids.end(); ++it)
        if (*it < 0 || *it > id) {
            const int bad = *it;
            predecessors_.ids.resize(row);
            throw CheckError(fmt::format("edge {} -> {} names a task that does not exist", bad, id));
        }
    predecessors_.first.push_back(static_cast<std::uint32_t>(predecessors_.ids.size()));
    if (task.application) ++counts_.application;
    ++counts_.of_kind.at(static_cast<std::size_t>(task.kind));
    tasks_.push_back(std::move(task));
    derived_.reset();
    if (current_watcher != nullptr) current_watcher->task_added(*this, id);
    return id;
}

void Schedule::add_edge(int from, int to) {
    if (from < 0 || to < 0 || from >= task_count() || to >= task_count())
        throw CheckError(fmt::format("edge {} -> {} names a task that does not exist", from, to));
    auto& ids = predecessors_.ids;
    const auto row_begin = ids.begin() + predecessors_.first[to], row_end = ids.begin() + predecessors_.first[to + 1];
    const auto at = std::lower_bound(row_begin, row_end, from);
    if (at != row_end && *at == from) return;
    ids.insert(at, from);  // rare after generation (tests, edits): the rows after it move
    for (std::size_t task = static_cast<std::size_t>(to) + 1; task < predecessors_.first.size(); ++task)
        ++predecessors_.first[task];
    derived_.reset();
}

namespace {

// Guards the making of a schedule's derived rows when readers share it.
std::mutex derived_mutex;

}  // namespace

Schedule::Derived& Schedule::derived() const {
    const std::lock_guard<std::mutex> lock(derived_mutex);
    if (derived_) return *derived_;
    auto made = std::make_shared<Derived>();
    // Successors by counting: each row ascending because sources are visited in id order.
    TaskRows& successors = made->successors;
    const std::size_t tasks = tasks_.size();
    successors.first.assign(tasks + 1, 0);
    for (int id : predecessors_.ids) ++successors.first[static_cast<std::size_t>(id) + 1];
    for (std::size_t task = 0; task < tasks; ++task) successors.first[task + 1] += successors.first[task];
    successors.ids.resize(predecessors_.ids.size());
    std::vector<std::uint32_t> next(successors.first.begin(), successors.first.end() - 1);
    for (std::size_t target = 0; target < tasks; ++target)
        for (const int* source = predecessors_.begin(static_cast<int>(target));
             source != predecessors_.end(static_cast<int>(target)); ++source)
            successors.ids[next[static_cast<std::size_t>(*source)]++] = static_cast<int>(target);
    derived_ = made;
    return *derived_;
}

const TaskRows& Schedule::successor_rows() const { return derived().successors; }

std::vector<int> Schedule::successors(int id) const {
    const TaskRows& rows = successor_rows();
    return {rows.begin(id), rows.end(id)};
}

const TaskGraph& Schedule::graph() const {
    Derived& made = derived();
    const std::lock_guard<std::mutex> lock(derived_mutex);
    if (!made.graph) {
        // Edges in the order of their sources, then targets: Boost keeps each row in that order.
        std::vector<std::pair<std::uint32_t, std::uint32_t>> edges;
        edges.reserve(made.successors.ids.size());
        for (std::size_t source = 0; source < made.successors.size(); ++source)
            for (const int* target = made.successors.begin(static_cast<int>(source));
                 target != made.successors.end(static_cast<int>(source)); ++target)
                edges.emplace_back(static_cast<std::uint32_t>(source), static_cast<std::uint32_t>(*target));
        made.graph = std::make_unique<TaskGraph>(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(),
                                                 static_cast<std::uint32_t>(tasks_.size()));
    }
    return *made.graph;
}

int Schedule::buffer_of(int rank, BufferRole role) const {
    for (std::size_t i = 0; i < buffers_.size(); ++i)
        if (buffers_[i].owner == rank && buffers_[i].role == role) return static_cast<int>(i);
    return -1;
}

bool operator==(const Schedule& a, const Schedule& b) {
    if (a.spec.collective != b.spec.collective || a.spec.algorithm != b.spec.algorithm ||
        a.spec.bytes != b.spec.bytes || a.spec.root != b.spec.root || a.spec.op != b.spec.op ||
        a.spec.datatype != b.spec.datatype ||
        a.spec.options != b.spec.options || a.nodes != b.nodes || a.rank_kind != b.rank_kind || a.ranks != b.ranks ||
        a.provenance != b.provenance || a.task_count() != b.task_count() ||
        a.buffers().size() != b.buffers().size())
        return false;
    if (a.buffers() != b.buffers()) return false;
    for (int id = 0; id < a.task_count(); ++id) {
        if (!(a.task(id) == b.task(id))) return false;
        if (a.predecessors(id) != b.predecessors(id)) return false;
    }
    return true;
}

}  // namespace numacoll::sched

#include "spread/distribution.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/fork_gate.hpp"
#include "common/progress.hpp"
#include "exec/mpi_world.hpp"

namespace numacoll::spread {

namespace {

// Message tags between process 0 and the others.
constexpr int tag_result = 701;   // a worker's result or first requests ("none_left"): index, then the text
constexpr int tag_failed = 702;   // a worker's failure: exit code, then its line
constexpr int tag_assign = 703;   // process 0's answer: the next index, or none_left
constexpr std::uint64_t none_left = std::numeric_limits<std::uint64_t>::max();

// Waiting for a message sleeps between polls: the process waited for is
// usually simulating on the core this one would spin on. The pause grows
// while nothing comes: at a fixed 100 us, process 0's server woke ten
// thousand times a second, each time taking a core from a simulation.
constexpr auto first_poll_pause = std::chrono::microseconds(20);
constexpr auto longest_poll_pause = std::chrono::microseconds(2000);

// Points a worker holds at once: the one it computes and the next, so that
// it never waits for the server's (sleeping) answer between two points.
constexpr int points_ahead = 2;

int exit_code_of(const std::exception& error) { return dynamic_cast<const UsageError*>(&error) ? 2 : 1; }

// `points`, longest expected first (ties in point order).
std::vector<std::size_t> longest_first(std::vector<std::size_t> points, const std::vector<double>& cost) {
    std::stable_sort(points.begin(), points.end(), [&](std::size_t a, std::size_t b) { return cost[a] > cost[b]; });
    return points;
}

// The points of the share still to compute, longest expected first.
std::vector<std::size_t> to_compute(const SpreadRequest& request) {
    std::vector<std::size_t> points;
    for (std::size_t point : points_of_shard(request.expected_cost, request.shard))
        if (!request.finished.count(point)) points.push_back(point);
    return longest_first(std::move(points), request.expected_cost);
}

// Process 0's side: what is handed out, what came back, and the journal.
class Ledger {
public:
    Ledger(const SpreadRequest& request, std::vector<std::size_t> order)
        : request_(request),
          order_(std::move(order)),
          results_(request.expected_cost.size()),
          progress_(request.progress_what, request.progress_unit, order_.size()) {
        for (std::size_t point : order_) work_total_ += request.expected_cost[point] + 1;
        // A resumed sweep's finished points go into the new journal too, so
        // that it alone holds every point the share finished.
        const std::vector<std::size_t> share = points_of_shard(request.expected_cost, request.shard);
        for (std::size_t point : share)
            if (const auto found = request.finished.find(point); found != request.finished.end()) {
                results_[point] = found->second;
                if (request.journal) request.journal->record(point, found->second);
            }
    }

    std::optional<std::size_t> take() {
        const std::lock_guard lock(mutex_);
        if (stopped_ || next_ == order_.size()) return std::nullopt;
        return order_[next_++];
    }

    void record(std::size_t point, std::string result) {
        const std::lock_guard lock(mutex_);
        if (request_.journal) request_.journal->record(point, result);
        if (request_.on_result) request_.on_result(point, result);
        results_[point] = std::move(result);
        work_done_ += request_.expected_cost[point] + 1;
        progress_.advance_each(++done_, work_done_, work_total_);
    }

    // No more hand-outs (a failure is being reported).
    void stop() {
        const std::lock_guard lock(mutex_);
        stopped_ = true;
    }

    std::vector<std::optional<std::string>> results() {
        const std::lock_guard lock(mutex_);
        return std::move(results_);
    }

private:
    const SpreadRequest& request_;
    std::mutex mutex_;
    std::vector<std::size_t> order_;
    std::size_t next_ = 0;
    bool stopped_ = false;
    std::vector<std::optional<std::string>> results_;
    ProgressReport progress_;
    std::size_t done_ = 0;
    double work_done_ = 0, work_total_ = 0;
};

// The line that ends a job whose point failed on process `process`.
std::string failure_line(const SpreadRequest& request, int process, const std::string& what) {
    return fmt::format("numacoll: process {}: {}{}", process, what,
                       request.rows_kept_in.empty()
                           ? std::string()
                           : fmt::format(" (the finished points stay in {}: the same command with --resume computes "
                                         "the others)",
                                         request.rows_kept_in));
}

void check_mpi(int code, const char* call) {
    if (code != MPI_SUCCESS) throw Error(fmt::format("{} failed (MPI error {})", call, code));
}

void send_bytes(const std::string& bytes, int to, int tag, MPI_Comm comm) {
    check_mpi(MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_BYTE, to, tag, comm), "MPI_Send");
}

// Waits (polling, sleeping between polls) for a message from `from` (or
// any process) and receives it whole. A thread that holds the fork gate
// (`gate`) lets it go only while it sleeps.
std::string receive_bytes(int from, MPI_Comm comm, MPI_Status& status, std::unique_lock<std::mutex>* gate = nullptr) {
    auto pause = first_poll_pause;
    for (int arrived = 0;;) {
        check_mpi(MPI_Iprobe(from, MPI_ANY_TAG, comm, &arrived, &status), "MPI_Iprobe");
        if (arrived) break;
        if (gate) gate->unlock();
        std::this_thread::sleep_for(pause);
        if (gate) gate->lock();
        pause = std::min(pause * 2, longest_poll_pause);
    }
    int count = 0;
    check_mpi(MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
    std::string bytes(static_cast<std::size_t>(count), '\0');
    check_mpi(MPI_Recv(bytes.data(), count, MPI_BYTE, status.MPI_SOURCE, status.MPI_TAG, comm, MPI_STATUS_IGNORE),
              "MPI_Recv");
    return bytes;
}

std::string with_index(std::uint64_t index, const std::string& text) {
    std::string bytes(sizeof index, '\0');
    std::memcpy(bytes.data(), &index, sizeof index);
    return bytes + text;
}

std::uint64_t index_of(const std::string& bytes) {
    std::uint64_t index = none_left;
    if (bytes.size() >= sizeof index) std::memcpy(&index, bytes.data(), sizeof index);
    return index;
}

// Process 0's server: answers every request of every other process (its
// `points_ahead` first ones, then one with each result) until each has
// returned every point it was given and been told that none is left.
// Beside process 0's own simulations, which fork, it holds the fork gate
// but while it sleeps.
void serve(const exec::MpiWorld& world, Ledger& ledger, const SpreadRequest& request, bool beside_forks) {
    std::unique_lock gate(fork_gate(), std::defer_lock);
    if (beside_forks) gate.lock();
    struct Worker {
        std::size_t requests = 0, results = 0, given = 0;
        bool told_none = false;
    };
    std::vector<Worker> workers(static_cast<std::size_t>(world.size()));
    const auto finished = [](const Worker& worker) {
        return worker.told_none && worker.results == worker.given &&
               worker.requests == worker.results + static_cast<std::size_t>(points_ahead);
    };
    for (int still_working = world.size() - 1; still_working > 0;) {
        MPI_Status status;
        const std::string bytes = receive_bytes(MPI_ANY_SOURCE, world.comm(), status, beside_forks ? &gate : nullptr);
        if (status.MPI_TAG == tag_failed) {
            ledger.stop();
            int code = 1;
            if (bytes.size() >= sizeof code) std::memcpy(&code, bytes.data(), sizeof code);
            world.abort(failure_line(request, status.MPI_SOURCE, bytes.substr(sizeof code)), code);
        }
        Worker& worker = workers[static_cast<std::size_t>(status.MPI_SOURCE)];
        ++worker.requests;
        const std::uint64_t returned = index_of(bytes);
        if (returned != none_left) {
            ++worker.results;
            ledger.record(returned, bytes.substr(sizeof returned));
        }
        const std::optional<std::size_t> next = worker.told_none ? std::nullopt : ledger.take();
        send_bytes(with_index(next ? *next : none_left, ""), status.MPI_SOURCE, tag_assign, world.comm());
        if (next)
            ++worker.given;
        else
            worker.told_none = true;
        if (finished(worker)) --still_working;
    }
}

// A worker asks for `points_ahead` points, then returns each result with a
// request for one more, until every answer has come back.
void work_for_process_zero(const exec::MpiWorld& world, const ComputePoint& compute) {
    for (int ask = 0; ask < points_ahead; ++ask) send_bytes(with_index(none_left, ""), 0, tag_result, world.comm());
    for (int unanswered = points_ahead; unanswered > 0;) {
        MPI_Status status;
        const std::uint64_t point = index_of(receive_bytes(0, world.comm(), status));
        --unanswered;
        if (point == none_left) continue;
        std::string result;
        try {
            result = compute(static_cast<std::size_t>(point));
        } catch (const std::exception& error) {
            const int code = exit_code_of(error);
            std::string bytes(sizeof code, '\0');
            std::memcpy(bytes.data(), &code, sizeof code);
            send_bytes(bytes + error.what(), 0, tag_failed, world.comm());
            // Process 0 ends the job; should it not, this process does.
            std::this_thread::sleep_for(std::chrono::seconds(30));
            world.abort(fmt::format("numacoll: process {}: {}", world.rank(), error.what()), code);
        }
        send_bytes(with_index(point, result), 0, tag_result, world.comm());
        ++unanswered;
    }
}

}  // namespace

std::vector<std::size_t> points_of_shard(const std::vector<double>& expected_cost, const Shard& shard) {
    std::vector<std::size_t> all(expected_cost.size());
    std::iota(all.begin(), all.end(), std::size_t{0});
    if (shard.whole()) return all;
    // Longest first, each to the least loaded share (the lowest on a tie):
    // every shard's run computes the same assignment.
    std::vector<double> load(static_cast<std::size_t>(shard.count), 0.0);
    std::vector<std::size_t> mine;
    for (std::size_t point : longest_first(all, expected_cost)) {
        const auto least = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
        load[least] += expected_cost[point] + 1;  // + 1: every point costs something
        if (least == static_cast<std::size_t>(shard.index - 1)) mine.push_back(point);
    }
    std::sort(mine.begin(), mine.end());
    return mine;
}

std::vector<std::optional<std::string>> compute_points(const SpreadRequest& request, const ComputePoint& compute) {
    const exec::MpiWorld* world = request.world;
    if (world != nullptr && world->size() > 1 && world->rank() != 0) {
        work_for_process_zero(*world, compute);
        return {};
    }
    Ledger ledger(request, to_compute(request));
    if (world == nullptr || world->size() == 1) {
        while (const std::optional<std::size_t> point = ledger.take()) ledger.record(*point, compute(*point));
        return ledger.results();
    }
    // Process 0 computes too, beside its server, when MPI lets two threads
    // call it; otherwise it only serves.
    std::thread server;
    if (world->thread_multiple()) {
        server = std::thread([&] {
            try {
                serve(*world, ledger, request, true);
            } catch (const std::exception& error) {  // MPI itself failed: nobody may wait
                world->abort(failure_line(request, 0, error.what()), 1);
            }
        });
        while (const std::optional<std::size_t> point = ledger.take()) {
            std::string result;
            try {
                result = compute(*point);
            } catch (const std::exception& error) {
                ledger.stop();
                world->abort(failure_line(request, 0, error.what()), exit_code_of(error));
            }
            ledger.record(*point, std::move(result));
        }
        server.join();
    } else {
        serve(*world, ledger, request, false);
    }
    return ledger.results();
}

}  // namespace numacoll::spread

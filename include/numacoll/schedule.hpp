// numacoll/schedule.hpp: a collective as a task DAG. A CollectiveSpec says
// what to compute (collective, algorithm, size, root, operation, datatype,
// the algorithm's options); Schedule::generate turns it into the DAG for a
// Layout; prove() runs the symbolic checker, which proves that every output
// byte holds what the collective's contract says.
//
// A generator of one's own writes its DAG with a ScheduleWriter: buffers,
// then copy, reduce, flag, net and wait tasks over byte ranges, each after
// the tasks it names. The writer keeps every rank's program order (a rank's
// copies and reductions follow one another), so a generator states only who
// waits for whom. The format and its rules: docs/schedule-format.md.
//
// Invariants: a Schedule is immutable once made; its task ids are a
// topological order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "numacoll/machine.hpp"

namespace numacoll {

namespace sched {
class Schedule;
}
namespace algo {
class ScheduleBuilder;
}

struct CollectiveSpec {
    std::string collective = "allreduce";  // allreduce, reduce, bcast, barrier, scatter, gather, allgather, reduce_scatter, alltoall, pingpong
    std::string algorithm = "tree";        // algorithms() lists them
    std::uint64_t bytes = 0;               // per rank's vector (0 for a barrier)
    int root = 0;
    std::string op = "sum";           // MPI's predefined operations: sum, min, max, prod, land, ...
    std::string datatype = "double";  // MPI's predefined datatypes: double, float, int, long_double_int, ...
    std::map<std::string, std::string> options{};  // the algorithm's options; defaults fill the rest
};

struct AlgorithmDescription {
    std::string collective;
    std::string name;
    std::string summary;
    std::string source;  // paper and section
    std::vector<std::string> options;  // "arity (default 2): ..."
    bool has_model = false;            // a closed form model_ns() evaluates
};

// Every algorithm numacoll generates.
std::vector<AlgorithmDescription> algorithms();

struct Proof {
    bool holds = false;
    std::vector<std::string> problems;  // empty when it holds
    int outputs_checked = 0;
};

class Schedule {
public:
    // Checks the spec against the algorithm (UsageError naming what is
    // wrong) and the task budget (refused with its estimate), then generates.
    static Schedule generate(const CollectiveSpec& spec, const Layout& layout);
    // A file in the text or JSON format; several collectives in one file
    // are run one after another and come back as several schedules.
    static std::vector<Schedule> load(const std::string& path);
    static Schedule from_text(const std::string& text);
    static Schedule from_json(const std::string& text);

    std::string to_text() const;
    std::string to_json() const;

    CollectiveSpec spec() const;
    int nodes() const;
    int ranks() const;
    int buffers() const;
    int tasks() const;
    // threads, processes or processes-sharing-memory.
    std::string rank_kind() const;

    // The structural rules and the symbolic proof of the contract.
    Proof prove() const;

private:
    friend struct api::Access;
    Schedule() = default;  // made by the functions above only
    std::shared_ptr<const sched::Schedule> schedule_;
};

// Bytes [offset, offset + bytes) of a buffer.
struct Range {
    int buffer = -1;
    std::uint64_t offset = 0;
    std::uint64_t bytes = 0;
};

class ScheduleWriter {
public:
    // `spec.algorithm` names the new algorithm; its options are not checked.
    ScheduleWriter(const Layout& layout, const CollectiveSpec& spec);
    ~ScheduleWriter();
    ScheduleWriter(const ScheduleWriter&) = delete;
    ScheduleWriter& operator=(const ScheduleWriter&) = delete;

    // The collective's own buffers (one input and/or output per rank, as
    // its contract says), and scratch space. Each returns the buffer's id.
    int add_input(int rank, std::uint64_t bytes);
    int add_output(int rank, std::uint64_t bytes);
    int add_temp(int rank, std::uint64_t bytes, const std::string& name);

    // Each returns the task's id; `deps` are ids of earlier tasks.
    int copy(int rank, Range from, Range to, const std::vector<int>& deps, const std::string& label = "");
    int reduce(int rank, const std::vector<Range>& from, Range to, const std::vector<int>& deps,
               const std::string& label = "");
    // `from` tells `to` that its deps (and its own earlier tasks) are done:
    // the only way data or a signal passes between ranks of one node.
    int flag(int from, int to, const std::vector<int>& deps, const std::string& label = "");
    // A message to a rank of another node, with data (both ranges) or without.
    int net(int from, int to, Range from_range, Range to_range, const std::vector<int>& deps,
            const std::string& label = "");
    // `rank` waits for deps: a rank leaves after its last task.
    int wait(int rank, const std::vector<int>& deps, const std::string& label = "");

    // The schedule; the writer starts again, empty, afterwards.
    Schedule finish();

private:
    std::shared_ptr<const algo::Layout> layout_;  // the builder reads it until finish()
    std::unique_ptr<algo::ScheduleBuilder> builder_;
};

}  // namespace numacoll

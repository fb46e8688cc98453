// The public CollectiveSpec, Schedule and ScheduleWriter
// (numacoll/schedule.hpp) over schedule/ and the generators' registry.
#include "numacoll/schedule.hpp"

#include <fmt/format.h>

#include "algorithms/builder.hpp"
#include "algorithms/registry.hpp"
#include "api/access.hpp"
#include "common/error.hpp"
#include "models/registry.hpp"
#include "schedule/schedule_io.hpp"
#include "schedule/symbolic_checker.hpp"

namespace numacoll {

using api::Access;

namespace api {

sched::CollectiveSpec internal_spec(const CollectiveSpec& spec) {
    sched::CollectiveSpec internal;
    internal.collective = sched::parse_collective(spec.collective);
    internal.algorithm = spec.algorithm;
    internal.bytes = spec.bytes;
    internal.root = spec.root;
    internal.op = sched::parse_reduce_op(spec.op);
    internal.datatype = sched::parse_datatype(spec.datatype);
    internal.options = spec.options;
    return internal;
}

CollectiveSpec public_spec(const sched::CollectiveSpec& spec) {
    return {sched::to_string(spec.collective), spec.algorithm, spec.bytes, spec.root, sched::to_string(spec.op),
            sched::to_string(spec.datatype), spec.options};
}

}  // namespace api

std::vector<AlgorithmDescription> algorithms() {
    std::vector<AlgorithmDescription> all;
    for (const algo::AlgorithmInfo& info : algo::algorithm_registry()) {
        AlgorithmDescription description{sched::to_string(info.collective), info.name, info.summary, info.source, {},
                                         models::find_model(info.collective, info.name) != nullptr};
        for (const auto& option : info.options)
            description.options.push_back(fmt::format("{} (default {}): {}", option.name, option.default_value, option.help));
        all.push_back(std::move(description));
    }
    return all;
}

Schedule Schedule::generate(const CollectiveSpec& spec, const Layout& layout) {
    return Access::wrap(algo::generate_schedule(api::internal_spec(spec), Access::of(layout)));
}

std::vector<Schedule> Schedule::load(const std::string& path) {
    std::vector<Schedule> schedules;
    for (sched::Schedule& schedule : sched::schedules_from_file(path)) schedules.push_back(Access::wrap(std::move(schedule)));
    return schedules;
}

Schedule Schedule::from_text(const std::string& text) { return Access::wrap(sched::schedule_from_text(text)); }
Schedule Schedule::from_json(const std::string& text) { return Access::wrap(sched::schedule_from_json(text)); }
std::string Schedule::to_text() const { return sched::to_text(*schedule_); }
std::string Schedule::to_json() const { return sched::to_json(*schedule_); }
CollectiveSpec Schedule::spec() const { return api::public_spec(schedule_->spec); }
int Schedule::nodes() const { return schedule_->nodes; }
int Schedule::ranks() const { return schedule_->rank_count(); }
int Schedule::buffers() const { return static_cast<int>(schedule_->buffers().size()); }
int Schedule::tasks() const { return schedule_->task_count(); }
std::string Schedule::rank_kind() const { return sched::to_string(schedule_->rank_kind); }

Proof Schedule::prove() const {
    const sched::CheckReport report = sched::check_schedule(*schedule_);
    return {report.holds, report.problems, report.outputs_checked};
}

namespace {

// A writer's arguments are a user's: each is checked before the builder,
// which trusts its generators, sees it.
void check_rank(const algo::ScheduleBuilder& builder, int rank) {
    if (rank < 0 || rank >= builder.layout().size())
        throw UsageError(fmt::format("rank {} does not exist: ranks are 0..{}", rank, builder.layout().size() - 1));
}

sched::Range internal_range(const algo::ScheduleBuilder& builder, const Range& range) {
    if (range.buffer < 0 || range.buffer >= builder.buffer_count())
        throw UsageError(fmt::format("buffer {} does not exist: buffers are 0..{}", range.buffer,
                                     builder.buffer_count() - 1));
    return {range.buffer, range.offset, range.bytes};
}

void check_deps(const algo::ScheduleBuilder& builder, const std::vector<int>& deps) {
    for (const int dep : deps)
        if (dep < 0 || dep >= builder.task_count())
            throw UsageError(fmt::format("task {} does not exist yet: a task depends on tasks made before it (0..{})",
                                         dep, builder.task_count() - 1));
}

}  // namespace

ScheduleWriter::ScheduleWriter(const Layout& layout, const CollectiveSpec& spec)
    : layout_(Access::shared(layout)),
      builder_(std::make_unique<algo::ScheduleBuilder>(*layout_, api::internal_spec(spec))) {}

ScheduleWriter::~ScheduleWriter() = default;

int ScheduleWriter::add_input(int rank, std::uint64_t bytes) {
    check_rank(*builder_, rank);
    return builder_->add_input(rank, bytes);
}

int ScheduleWriter::add_output(int rank, std::uint64_t bytes) {
    check_rank(*builder_, rank);
    return builder_->add_output(rank, bytes);
}

int ScheduleWriter::add_temp(int rank, std::uint64_t bytes, const std::string& name) {
    check_rank(*builder_, rank);
    return builder_->add_temp(rank, bytes, name);
}

int ScheduleWriter::copy(int rank, Range from, Range to, const std::vector<int>& deps, const std::string& label) {
    check_rank(*builder_, rank);
    check_deps(*builder_, deps);
    return builder_->copy(rank, internal_range(*builder_, from), internal_range(*builder_, to), deps, label);
}

int ScheduleWriter::reduce(int rank, const std::vector<Range>& from, Range to, const std::vector<int>& deps,
                           const std::string& label) {
    check_rank(*builder_, rank);
    check_deps(*builder_, deps);
    std::vector<sched::Range> ranges;
    for (const Range& range : from) ranges.push_back(internal_range(*builder_, range));
    return builder_->reduce(rank, ranges, internal_range(*builder_, to), deps, label);
}

int ScheduleWriter::flag(int from, int to, const std::vector<int>& deps, const std::string& label) {
    check_rank(*builder_, from);
    check_rank(*builder_, to);
    check_deps(*builder_, deps);
    return builder_->flag(from, to, deps, label);
}

int ScheduleWriter::net(int from, int to, Range from_range, Range to_range, const std::vector<int>& deps,
                        const std::string& label) {
    check_rank(*builder_, from);
    check_rank(*builder_, to);
    check_deps(*builder_, deps);
    // A message without data leaves both ranges empty (buffer -1).
    const bool data = from_range.buffer >= 0 || to_range.buffer >= 0;
    return builder_->net(from, to, data ? internal_range(*builder_, from_range) : sched::Range{},
                         data ? internal_range(*builder_, to_range) : sched::Range{}, deps, label);
}

int ScheduleWriter::wait(int rank, const std::vector<int>& deps, const std::string& label) {
    check_rank(*builder_, rank);
    check_deps(*builder_, deps);
    return builder_->wait(rank, deps, label);
}

Schedule ScheduleWriter::finish() {
    const sched::CollectiveSpec spec = builder_->spec();
    sched::Schedule schedule = builder_->finish();
    builder_ = std::make_unique<algo::ScheduleBuilder>(*layout_, spec);  // empty, for the next one
    schedule.provenance["topology"] = layout_->machine->label();
    return Access::wrap(std::move(schedule));
}

}  // namespace numacoll

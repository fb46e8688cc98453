#include "schedule/symbolic_checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "schedule/collective_contract.hpp"
#include "schedule/validate_schedule.hpp"

namespace numacoll::sched {

namespace {

// A run of consecutive ranks whose bytes sit at the same shift, each counted
// `count` times: a complete sum over P ranks is one run, not P terms, so the
// checker's memory grows with the schedule's segments, not with segments x
// ranks.
struct Term {
    int first_rank = 0;
    int rank_count = 1;
    std::int64_t shift = 0;  // byte x holds element x + shift of each rank's input
    int count = 0;
    int end_rank() const { return first_rank + rank_count; }
    bool operator==(const Term&) const = default;
};

// Sorted by (shift, first_rank); runs of one shift are disjoint, and two runs
// that touch with the same count are one: each multiset has one form, so
// equality of multisets is equality of vectors.
using Terms = std::vector<Term>;

void append_run(Terms& terms, std::int64_t shift, int first_rank, int end_rank, int count) {
    if (first_rank >= end_rank || count == 0) return;
    if (!terms.empty()) {
        Term& last = terms.back();
        if (last.shift == shift && last.count == count && last.end_rank() == first_rank) {
            last.rank_count += end_rank - first_rank;
            return;
        }
    }
    terms.push_back({first_rank, end_rank - first_rank, shift, count});
}

Terms shifted(const Terms& terms, std::int64_t delta) {
    Terms result = terms;
    for (Term& term : result) term.shift += delta;
    return result;
}

// The multiset sum, by a sweep over both lists in (shift, rank) order.
void add_into(Terms& sum, const Terms& more) {
    Terms merged;
    merged.reserve(sum.size() + more.size());
    std::size_t i = 0, j = 0;
    int a_from = sum.empty() ? 0 : sum[0].first_rank;    // unconsumed start of sum[i]
    int b_from = more.empty() ? 0 : more[0].first_rank;  // unconsumed start of more[j]
    auto next_a = [&] { if (++i < sum.size()) a_from = sum[i].first_rank; };
    auto next_b = [&] { if (++j < more.size()) b_from = more[j].first_rank; };
    while (i < sum.size() || j < more.size()) {
        const bool a_only = j == more.size() || (i < sum.size() && sum[i].shift < more[j].shift);
        const bool b_only = i == sum.size() || (j < more.size() && more[j].shift < sum[i].shift);
        if (a_only) {
            append_run(merged, sum[i].shift, a_from, sum[i].end_rank(), sum[i].count);
            next_a();
            continue;
        }
        if (b_only) {
            append_run(merged, more[j].shift, b_from, more[j].end_rank(), more[j].count);
            next_b();
            continue;
        }
        const Term& a = sum[i];
        const Term& b = more[j];
        if (a_from < b_from) {
            const int end = std::min(a.end_rank(), b_from);
            append_run(merged, a.shift, a_from, end, a.count);
            a_from = end;
            if (a_from == a.end_rank()) next_a();
        } else if (b_from < a_from) {
            const int end = std::min(b.end_rank(), a_from);
            append_run(merged, b.shift, b_from, end, b.count);
            b_from = end;
            if (b_from == b.end_rank()) next_b();
        } else {
            const int end = std::min(a.end_rank(), b.end_rank());
            append_run(merged, a.shift, a_from, end, a.count + b.count);
            a_from = b_from = end;
            const bool a_done = a_from == a.end_rank();
            const bool b_done = b_from == b.end_rank();
            if (a_done) next_a();
            if (b_done) next_b();
        }
    }
    sum = std::move(merged);
}

// One count per (rank, shift), for explaining a difference in words.
std::map<std::pair<int, std::int64_t>, int> expand(const Terms& terms) {
    std::map<std::pair<int, std::int64_t>, int> counts;
    for (const Term& term : terms)
        for (int rank = term.first_rank; rank < term.end_rank(); ++rank) counts[{rank, term.shift}] = term.count;
    return counts;
}

struct Segment {
    std::uint64_t end = 0;
    bool written = false;
    Terms terms;
};

// A piece of a source range, in destination coordinates.
struct Piece {
    std::uint64_t start = 0, end = 0;
    bool written = false;
    Terms terms;
};

class SymbolicMemory {
public:
    explicit SymbolicMemory(const Schedule& schedule) : segments_(schedule.buffers().size()) {
        for (std::size_t b = 0; b < segments_.size(); ++b) {
            const Buffer& buffer = schedule.buffer(static_cast<int>(b));
            Segment all{buffer.bytes, buffer.role == BufferRole::input, {}};
            if (all.written) all.terms = {{buffer.owner, 1, 0, 1}};
            if (buffer.bytes > 0) segments_[b][0] = all;
        }
    }

    // The contents of `from`, moved to start at `to_offset`.
    std::vector<Piece> read(const Range& from, std::uint64_t to_offset) const {
        std::vector<Piece> pieces;
        const auto& map = segments_[from.buffer];
        auto it = map.upper_bound(from.offset);
        if (it != map.begin()) --it;
        const auto delta = static_cast<std::int64_t>(from.offset) - static_cast<std::int64_t>(to_offset);
        for (; it != map.end() && it->first < from.end(); ++it) {
            const std::uint64_t start = std::max(it->first, from.offset);
            const std::uint64_t end = std::min(it->second.end, from.end());
            if (start >= end) continue;
            pieces.push_back({start - from.offset + to_offset, end - from.offset + to_offset, it->second.written,
                              shifted(it->second.terms, delta)});
        }
        return pieces;
    }

    void write(const Range& to, const std::vector<Piece>& pieces) {
        if (to.bytes == 0) return;
        auto& map = segments_[to.buffer];
        cut(map, to.offset);
        cut(map, to.end());
        map.erase(map.lower_bound(to.offset), map.lower_bound(to.end()));
        for (const Piece& piece : pieces) map[piece.start] = Segment{piece.end, piece.written, piece.terms};
    }


private:
    static void cut(std::map<std::uint64_t, Segment>& map, std::uint64_t at) {
        auto it = map.upper_bound(at);
        if (it == map.begin()) return;
        --it;
        if (it->first < at && at < it->second.end) {
            Segment tail = it->second;
            it->second.end = at;
            map[at] = tail;
        }
    }

    std::vector<std::map<std::uint64_t, Segment>> segments_;
};

// Sum of several inputs, each already in destination coordinates.
std::vector<Piece> add_pieces(const std::vector<std::vector<Piece>>& inputs, const Range& to) {
    std::vector<std::uint64_t> cuts{to.offset, to.end()};
    for (const auto& pieces : inputs)
        for (const Piece& piece : pieces) cuts.insert(cuts.end(), {piece.start, piece.end});
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<Piece> result;
    std::vector<std::size_t> cursor(inputs.size(), 0);
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) {
        Piece sum{cuts[c], cuts[c + 1], true, {}};
        for (std::size_t i = 0; i < inputs.size(); ++i) {
            const auto& pieces = inputs[i];
            while (cursor[i] < pieces.size() && pieces[cursor[i]].end <= sum.start) ++cursor[i];
            if (cursor[i] == pieces.size() || pieces[cursor[i]].start > sum.start || !pieces[cursor[i]].written) {
                sum.written = false;
                continue;
            }
            add_into(sum.terms, pieces[cursor[i]].terms);
        }
        if (!sum.written) sum.terms.clear();
        result.push_back(std::move(sum));
    }
    return result;
}

std::string explain_difference(const Terms& got_runs, const Terms& expected_runs) {
    const auto got = expand(got_runs);
    const auto expected = expand(expected_runs);
    for (const auto& [want, want_count] : expected) {
        // Plain copies: clang 14 cannot capture structured bindings in a lambda.
        const auto rank = want.first;
        const auto shift = want.second;
        auto it = got.find(want);
        if (it == got.end()) {
            auto moved = std::find_if(got.begin(), got.end(), [&](const auto& have) { return have.first.first == rank; });
            if (moved != got.end())
                return fmt::format("holds rank {}'s data from {} bytes away (misplaced)", rank, moved->first.second - shift);
            return fmt::format("is missing rank {}'s contribution", rank);
        }
        if (it->second != want_count)
            return fmt::format("holds rank {}'s contribution {} times instead of {}", rank, it->second, want_count);
    }
    for (const auto& [have, have_count] : got) {
        if (expected.contains(have)) continue;
        const auto [rank, shift] = have;
        return shift == 0 ? fmt::format("holds rank {}'s contribution, which does not belong there", rank)
                          : fmt::format("holds rank {}'s data from {} bytes away (misplaced)", rank, shift);
    }
    return "differs from what the collective requires";
}

void run_tasks(const Schedule& schedule, SymbolicMemory& memory, std::vector<std::string>& problems) {
    for (int id = 0; id < schedule.task_count(); ++id) {
        const Task& task = schedule.task(id);
        if (task.write.buffer < 0 || task.reads.empty()) continue;
        std::vector<std::vector<Piece>> inputs;
        for (const Range& range : task.reads) inputs.push_back(memory.read(range, task.write.offset));
        std::vector<Piece> result = task.kind == TaskKind::reduce ? add_pieces(inputs, task.write) : inputs.front();
        for (const Piece& piece : result)
            if (!piece.written) {
                problems.push_back(fmt::format("{} uses bytes that hold nothing", describe_task(schedule, id)));
                return;
            }
        memory.write(task.write, result);
    }
}

// Every output block must hold exactly its sources' bytes, each once.
void check_outputs(const Schedule& schedule, const SymbolicMemory& memory, CheckReport& report) {
    const std::vector<RequiredBlock> blocks = required_blocks(schedule.spec, schedule.rank_count());
    int last_rank = -1;
    for (const RequiredBlock& block : blocks) {
        if (block.rank != last_rank) ++report.outputs_checked, last_rank = block.rank;
        const int output = schedule.output_of(block.rank);
        const auto shift = static_cast<std::int64_t>(block.input_offset) - static_cast<std::int64_t>(block.output_offset);
        std::vector<int> sources = block.sources;
        std::sort(sources.begin(), sources.end());
        Terms expected;
        for (int source : sources) append_run(expected, shift, source, source + 1, 1);
        for (const Piece& piece : memory.read({output, block.output_offset, block.bytes}, block.output_offset)) {
            const std::string where = describe_range(schedule, {output, piece.start, piece.end - piece.start});
            if (!piece.written) {
                report.problems.push_back(fmt::format("rank {}'s output {} is never written", block.rank, where));
                return;
            }
            if (piece.terms != expected) {
                report.problems.push_back(fmt::format("rank {}'s output {} {}", block.rank, where,
                                                      explain_difference(piece.terms, expected)));
                return;
            }
        }
    }
}

// With no data, correctness is synchronisation: no rank may leave before
// every rank has arrived. A rank leaves after the last task it runs (a
// signal aimed at it that none of its tasks waits for holds nobody back),
// and every task of a rank happens after it arrived: rank q has arrived
// before rank r leaves when some task of q leads to a task r runs.
void check_synchronisation(const Schedule& schedule, CheckReport& report) {
    const int ranks = schedule.rank_count();
    const int tasks = schedule.task_count();
    std::vector<std::vector<int>> involving(ranks);
    std::vector<std::vector<int>> successors(tasks);
    for (int id = 0; id < tasks; ++id) {
        const Task& task = schedule.task(id);
        involving[task.thread].push_back(id);
        successors[id] = schedule.successors(id);
    }
    std::vector<char> after_arrival(tasks);
    for (int arriver = 0; arriver < ranks && ranks > 1; ++arriver) {
        // Everything reachable from the arriver's own tasks.
        std::fill(after_arrival.begin(), after_arrival.end(), 0);
        std::vector<int> stack;
        for (int id = 0; id < tasks; ++id)
            if (schedule.task(id).thread == arriver) stack.push_back(id), after_arrival[id] = 1;
        if (stack.empty()) {
            report.problems.push_back(fmt::format("rank {} runs no task: the others cannot know it arrived", arriver));
            return;
        }
        while (!stack.empty()) {
            const int id = stack.back();
            stack.pop_back();
            for (int next : successors[id])
                if (!after_arrival[next]) after_arrival[next] = 1, stack.push_back(next);
        }
        for (int leaver = 0; leaver < ranks; ++leaver) {
            if (leaver == arriver) continue;
            const bool waits = std::any_of(involving[leaver].begin(), involving[leaver].end(),
                                           [&](int id) { return after_arrival[id] != 0; });
            if (!waits) {
                report.problems.push_back(
                    fmt::format("rank {} can finish before rank {} arrives (no path between them)", leaver, arriver));
                return;
            }
        }
    }
    report.outputs_checked = ranks;
}

// Every rank must own exactly the input and output buffers the collective
// gives it, of the contract's sizes: otherwise there is nothing (or not
// everything) to prove.
void check_buffers(const Schedule& schedule, CheckReport& report) {
    if (schedule.rank_count() == 0) {
        report.problems.push_back("the schedule has no ranks");
        return;
    }
    const CollectiveSpec& spec = schedule.spec;
    for (int rank = 0; rank < schedule.rank_count(); ++rank) {
        for (auto [buffer, role, owns, wanted] :
             {std::tuple{schedule.input_of(rank), "input", has_input(spec, rank),
                         contract_input_bytes(spec, schedule.rank_count(), rank)},
              std::tuple{schedule.output_of(rank), "output", has_output(spec, rank),
                         contract_output_bytes(spec, schedule.rank_count(), rank)}}) {
            if (buffer < 0 && owns) {
                report.problems.push_back(fmt::format("rank {} has no {} buffer", rank, role));
                return;
            }
            if (buffer >= 0 && !owns) {
                report.problems.push_back(
                    fmt::format("rank {} has an {} buffer, which {} does not give it", rank, role, to_string(spec.collective)));
                return;
            }
            if (buffer >= 0 && schedule.buffer(buffer).bytes != wanted) {
                report.problems.push_back(fmt::format("rank {}'s {} holds {} bytes, not the {} the collective moves", rank,
                                                      role, schedule.buffer(buffer).bytes, wanted));
                return;
            }
        }
    }
}

}  // namespace

CheckReport check_schedule(const Schedule& schedule) {
    CheckReport report;
    report.problems = find_schedule_problems(schedule);
    if (!report.problems.empty()) return report;
    check_buffers(schedule, report);
    if (!report.problems.empty()) return report;

    SymbolicMemory memory(schedule);
    run_tasks(schedule, memory, report.problems);
    if (report.problems.empty()) {
        if (synchronisation_only(schedule.spec))
            check_synchronisation(schedule, report);
        else
            check_outputs(schedule, memory, report);
    }
    report.holds = report.problems.empty();
    return report;
}

}  // namespace numacoll::sched

// The symbolic checker: runs a schedule over sets of contributions instead of
// numbers, and proves that every output holds exactly what the collective
// requires.
//
// A byte x of a buffer holds a multiset of terms (rank q, shift s, count c),
// meaning "c times byte x+s of rank q's input". Inputs start as
// {(q, 0, 1)}; a copy moves terms (adjusting shifts); a reduce adds the
// multisets of its inputs. Every output block of the collective's contract
// (collective_contract.hpp) must hold exactly its sources, each once: for
// allreduce, {(q, 0, 1)} for every rank q; for a gather, block q holds
// {(q, -q*m, 1)}. None lost, none doubled, none misplaced. Terms of
// consecutive ranks with one shift and one count are stored as one run, so
// a sum over all ranks costs one term and the checker's memory grows with
// the schedule's segments rather than with segments x ranks. For a barrier,
// and an allreduce or allgather of nothing, it proves instead that every
// rank's completion depends on every rank's arrival.
//
// The structural validation (validate_schedule.hpp) runs first, so the
// result does not depend on which topological order the checker walks.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

struct CheckReport {
    bool holds = false;
    std::vector<std::string> problems;  // empty when it holds
    int outputs_checked = 0;
};

CheckReport check_schedule(const Schedule& schedule);

}  // namespace numacoll::sched

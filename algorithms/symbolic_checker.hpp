// The symbolic checker: runs a schedule over sets of contributions instead of
// numbers, and proves that every output holds exactly what the collective
// requires.
//
// A byte x of a buffer holds a multiset of terms (rank q, shift s, count c),
// meaning "c times element x+s of rank q's input". Inputs start as
// {(q, 0, 1)}; a copy moves terms (adjusting shifts); a reduce adds the
// multisets of its inputs. For allreduce, each rank's output must hold
// {(q, 0, 1)} for every rank q: each input exactly once, none lost, none
// doubled, none misplaced. For an empty vector (a barrier in disguise) it
// proves instead that every rank's completion depends on every rank's arrival.
//
// The structural validation (validate_schedule.hpp) runs first, so the
// result does not depend on which topological order the checker walks.
#pragma once

#include <string>
#include <vector>

#include "algorithms/schedule.hpp"

namespace numacoll::algo {

struct CheckReport {
    bool holds = false;
    std::vector<std::string> problems;  // empty when it holds
    int outputs_checked = 0;
};

CheckReport check_schedule(const Schedule& schedule);

}  // namespace numacoll::algo

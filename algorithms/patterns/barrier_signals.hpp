// What the barriers are written with: a rank tells another that it has got
// there and heard what it has heard (a flag inside a node, a message
// without data between nodes), and every rank leaves once it has heard
// what its algorithm says. `heard[r]` lists the signals rank r has
// received so far; a signal a rank sends waits for all of them, so the
// knowledge of who arrived travels with it.
// Invariant: a rank leaves only after the signals it heard (settle).
#pragma once

#include <string>
#include <vector>

#include "algorithms/builder.hpp"

namespace numacoll::algo {

class BarrierSignals {
public:
    explicit BarrierSignals(ScheduleBuilder& builder)
        : builder_(builder), heard_(static_cast<std::size_t>(builder.layout().size())) {}

    // `from` signals `to` (after everything `from` has heard); `to` hears it.
    void send(int from, int to, const std::string& label);
    // One round: every pair (from, to) signals with what `from` had heard
    // before the round, so the round's signals go at once.
    void round(const std::vector<std::pair<int, int>>& pairs, const std::string& label);

    // Every rank waits for what it heard, and the schedule is done.
    Schedule finish();

private:
    int signal(int from, int to, const std::vector<int>& deps, const std::string& label);

    ScheduleBuilder& builder_;
    std::vector<std::vector<int>> heard_;
};

}  // namespace numacoll::algo

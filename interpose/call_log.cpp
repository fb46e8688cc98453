#include "interpose/call_log.hpp"

#include "common/statistics.hpp"

namespace numacoll::interpose {

CallLog::Row& CallLog::row(const CallRow& row) {
    Row& found = rows_[{static_cast<int>(row.collective), row.algorithm, row.datatype, row.bucket_bytes, row.reason}];
    if (found.calls == 0) found.row = row;
    return found;
}

void CallLog::record(Row& row, double time) {
    ++row.calls;
    row.total += time;
    if (row.samples.size() < max_samples) {
        row.samples.push_back(time);
        return;
    }
    // Reservoir sampling: every call stays with the same chance (a
    // xorshift draw: a call's cost, not a distribution object's).
    random_state_ ^= random_state_ << 13;
    random_state_ ^= random_state_ >> 7;
    random_state_ ^= random_state_ << 17;
    const std::uint64_t slot = random_state_ % row.calls;
    if (slot < max_samples) row.samples[slot] = time;
}

std::vector<CallLog::Summary> CallLog::summaries(double ns_per_unit) const {
    std::vector<Summary> out;
    for (const auto& [key, row] : rows_) {
        if (row.calls == 0) continue;
        out.push_back({row.row, row.calls, row.total * ns_per_unit, median(row.samples) * ns_per_unit});
    }
    return out;
}

}  // namespace numacoll::interpose

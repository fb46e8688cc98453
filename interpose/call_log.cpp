#include "interpose/call_log.hpp"

#include <algorithm>

namespace numacoll::interpose {

void CallLog::record(const CallRow& row, double time_ns) {
    Tally& tally = rows_[{static_cast<int>(row.collective), row.algorithm, row.datatype, row.bucket_bytes, row.reason}];
    if (tally.calls == 0) tally.row = row;
    ++tally.calls;
    tally.total_ns += time_ns;
    if (tally.samples.size() < max_samples) {
        tally.samples.push_back(time_ns);
    } else {
        // Reservoir sampling: every call stays with the same chance.
        const std::uint64_t slot = std::uniform_int_distribution<std::uint64_t>(0, tally.calls - 1)(random_);
        if (slot < max_samples) tally.samples[slot] = time_ns;
    }
}

std::vector<CallLog::Summary> CallLog::summaries() const {
    std::vector<Summary> out;
    for (const auto& [key, tally] : rows_) {
        std::vector<double> samples = tally.samples;
        const std::size_t middle = samples.size() / 2;
        std::nth_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(middle), samples.end());
        double median = samples.empty() ? 0 : samples[middle];
        if (!samples.empty() && samples.size() % 2 == 0) {
            const double below = *std::max_element(samples.begin(), samples.begin() + static_cast<std::ptrdiff_t>(middle));
            median = (median + below) / 2;
        }
        out.push_back({tally.row, tally.calls, tally.total_ns, median});
    }
    return out;
}

}  // namespace numacoll::interpose

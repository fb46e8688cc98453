#include "interpose/call_log.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace numacoll::interpose {

std::uint64_t size_bucket(std::uint64_t bytes) {
    std::uint64_t bucket = 1;
    while (bucket < bytes && bucket < (1ull << 62)) bucket <<= 1;
    return bytes == 0 ? 0 : bucket;
}

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

std::string report_header() {
    return "communicator,ranks,nodes,ranks_per_node,placement,collective,algorithm,datatype,size_bucket_bytes,calls,"
           "total_ns,median_ns,handed_back_because\n";
}

std::string report_line(const std::string& communicator, const std::string& shape, const std::string& placement,
                        const CallLog::Summary& summary) {
    const CallRow& row = summary.row;
    return fmt::format("{},{},{},{},{},{},{},{},{:.0f},{:.0f},{}\n", communicator, shape, placement,
                       sched::to_string(row.collective), row.algorithm, row.datatype, row.bucket_bytes, summary.calls,
                       summary.total_ns, summary.median_ns, row.reason);
}

}  // namespace numacoll::interpose

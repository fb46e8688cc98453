#include "interpose/settings.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "algorithms/registry.hpp"
#include "common/byte_size.hpp"
#include "common/error.hpp"

namespace numacoll::interpose {

namespace {

std::string variable(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

bool served(sched::Collective collective) {
    using C = sched::Collective;
    return collective != C::pingpong;
}

// "allreduce:tiled,bcast:native"
std::map<sched::Collective, std::string> parse_forced(const std::string& text) {
    std::map<sched::Collective, std::string> forced;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        start = comma + 1;
        if (item.empty()) continue;
        const std::size_t colon = item.find(':');
        if (colon == std::string::npos)
            throw UsageError(fmt::format("NUMACOLL_MPI_ALGORITHM: '{}' must look like collective:algorithm "
                                         "(allreduce:tiled,bcast:native)",
                                         item));
        sched::Collective collective{};
        try {
            collective = sched::parse_collective(item.substr(0, colon));
        } catch (const Error& error) {
            throw UsageError(fmt::format("NUMACOLL_MPI_ALGORITHM: {}", error.what()));
        }
        if (!served(collective))
            throw UsageError(fmt::format("NUMACOLL_MPI_ALGORITHM: {} is no MPI collective", item.substr(0, colon)));
        const std::string algorithm = item.substr(colon + 1);
        if (algorithm != native_algorithm) {
            try {
                (void)algo::find_algorithm(collective, algorithm);
            } catch (const Error& error) {
                throw UsageError(fmt::format("NUMACOLL_MPI_ALGORITHM: {} (or native)", error.what()));
            }
        }
        forced[collective] = algorithm;
    }
    return forced;
}

std::uint64_t byte_variable(const char* name, std::uint64_t fallback, std::uint64_t smallest) {
    const std::string text = variable(name);
    if (text.empty()) return fallback;
    std::uint64_t bytes = 0;
    try {
        bytes = parse_byte_size(text, name);
    } catch (const Error& error) {
        throw UsageError(error.what());
    }
    if (bytes < smallest)
        throw UsageError(fmt::format("{}={} is below the smallest useful value, {}", name, text, format_bytes(smallest)));
    return bytes;
}

int count_variable(const char* name, int fallback, int largest) {
    const std::string text = variable(name);
    if (text.empty()) return fallback;
    std::size_t end = 0;
    long value = -1;
    try {
        value = std::stol(text, &end);
    } catch (const std::exception&) {
        end = 0;
    }
    if (end != text.size() || value < 0 || value > largest)
        throw UsageError(fmt::format("{}={}: expected a whole number from 0 to {}", name, text, largest));
    return static_cast<int>(value);
}

bool switch_variable(const char* name, bool fallback) {
    const std::string text = variable(name);
    if (text.empty()) return fallback;
    if (text == "1" || text == "on" || text == "yes" || text == "true") return true;
    if (text == "0" || text == "off" || text == "no" || text == "false") return false;
    throw UsageError(fmt::format("{}={}: expected 1 or 0 (on or off)", name, text));
}

}  // namespace

Settings settings_from_environment() {
    Settings settings;
    const std::string on_error = variable("NUMACOLL_MPI_ON_ERROR");
    if (!on_error.empty() && on_error != "native" && on_error != "abort")
        throw UsageError(fmt::format("NUMACOLL_MPI_ON_ERROR={}: expected native or abort", on_error));
    settings.native_on_error = on_error == "native";
    settings.enabled = switch_variable("NUMACOLL_MPI", true);
    settings.forced = parse_forced(variable("NUMACOLL_MPI_ALGORITHM"));
    settings.selection_path = variable("NUMACOLL_MPI_SELECTION");
    settings.params_spec = variable("NUMACOLL_MPI_PARAMS");
    settings.report_path = variable("NUMACOLL_MPI_REPORT");
    settings.verbose = switch_variable("NUMACOLL_MPI_VERBOSE", false);
    settings.schedules_dir = variable("NUMACOLL_MPI_SCHEDULES");
    settings.max_segment_bytes = byte_variable("NUMACOLL_MPI_MAX_BYTES", settings.max_segment_bytes, 4096);
    settings.cache_bytes = byte_variable("NUMACOLL_MPI_CACHE_BYTES", settings.cache_bytes, 1 << 20);
    if (variable("NUMACOLL_MPI_SINGLE_COPY") == "off")
        settings.single_copy_bytes = 0;
    else
        settings.single_copy_bytes = byte_variable("NUMACOLL_MPI_SINGLE_COPY", settings.single_copy_bytes, 1);
    settings.trial_calls = count_variable("NUMACOLL_MPI_TRIAL", settings.trial_calls, 1000);
    return settings;
}

const char* mpi_name(sched::Collective collective) {
    using C = sched::Collective;
    switch (collective) {
        case C::allreduce: return "MPI_Allreduce";
        case C::reduce: return "MPI_Reduce";
        case C::bcast: return "MPI_Bcast";
        case C::barrier: return "MPI_Barrier";
        case C::scatter: return "MPI_Scatter";
        case C::gather: return "MPI_Gather";
        case C::allgather: return "MPI_Allgather";
        case C::reduce_scatter: return "MPI_Reduce_scatter";
        case C::alltoall: return "MPI_Alltoall";
        case C::pingpong: break;
    }
    return "MPI";
}

}  // namespace numacoll::interpose

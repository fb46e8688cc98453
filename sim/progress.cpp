#include "sim/progress.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace numacoll::sim {

const char* to_string(ProgressStrategy strategy) {
    switch (strategy) {
        case ProgressStrategy::manual: return "manual";
        case ProgressStrategy::thread: return "thread";
        case ProgressStrategy::shared_thread: return "shared-thread";
        case ProgressStrategy::offload: return "offload";
    }
    return "?";
}

ProgressStrategy parse_progress_strategy(const std::string& text) {
    for (ProgressStrategy strategy : {ProgressStrategy::manual, ProgressStrategy::thread,
                                      ProgressStrategy::shared_thread, ProgressStrategy::offload})
        if (text == to_string(strategy)) return strategy;
    throw UsageError(fmt::format("progress '{}' is not manual, thread, shared-thread or offload", text));
}

}  // namespace numacoll::sim

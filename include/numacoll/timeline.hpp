// numacoll/timeline.hpp: when each task of a schedule ran, as an engine saw
// it. Both engines, the simulator and the executor, produce one, in
// nanoseconds from the start of the collective, so that their timelines can
// be compared and drawn side by side (`--trace` writes them).
#pragma once

#include <vector>

namespace numacoll {

struct TaskTime {
    double start_ns = 0;
    double end_ns = 0;
};

struct Timeline {
    std::vector<TaskTime> tasks;  // indexed by task id
    double makespan_ns = 0;       // end of the last task
};

}  // namespace numacoll

// sched::Timeline: when each task of a schedule ran (numacoll/timeline.hpp,
// the public type), under the name the engines and writers use.
#pragma once

#include "numacoll/timeline.hpp"

namespace numacoll::sched {

using numacoll::TaskTime;
using numacoll::Timeline;

}  // namespace numacoll::sched

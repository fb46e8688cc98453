// The schedule IR's names as the generators write them: a generator builds a
// sched::Schedule out of Ranges and a CollectiveSpec, reading its options with
// an OptionReader, and says so without a prefix on every line. The types
// live in schedule/, and only there.
#pragma once

#include "schedule/options.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::algo {

using sched::BufferRole;
using sched::cache_line_bytes;
using sched::Collective;
using sched::CollectiveSpec;
using sched::element_bytes;
using sched::is_reduction;
using sched::OptionInfo;
using sched::OptionReader;
using sched::Range;
using sched::RankKind;
using sched::Schedule;
using sched::TaskKind;
using sched::to_string;

}  // namespace numacoll::algo

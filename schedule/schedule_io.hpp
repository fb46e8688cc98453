// Schedules as files: diffable text (one task per line), JSON, and DOT.
// Text and JSON read back into an identical Schedule; a file may hold
// several, one after another (see schedules_from_text).
//
// Text format (version 3), one record per line, fields `key=value`:
//   numacoll-schedule 3
//   spec collective=allreduce algorithm=tree bytes=64 root=0 op=sum nodes=1 ranks=threads
//   option arity=2
//   provenance topology=westmere
//   rank 0 node=0 core=0 pu=0 numa=0 package=0
//   buffer 0 name=in0 owner=0 bytes=64 role=input numa=0
//   task 5 reduce thread=0 write=1@0+64 read=0@0+64,3@0+64 deps=2,4 label=c0:reduce:L3:r0
// Ranges are buffer@offset+bytes; peer= appears on flag and net tasks,
// flops= on compute tasks; values never contain spaces (provenance values
// are %-escaped); ranks= says whether ranks are threads or processes. JSON
// holds the same fields ("format", "version", "spec", "nodes", "rank_kind",
// "provenance", "ranks", "buffers", "tasks").
// Version 2 files load with threads as ranks (version 2 had no ranks=).
// Version 1 files (text and JSON) still load: version 1 had no `wait` kind,
// and wrote a task that only waits as `compute` with no flops, which loads
// as a wait task; a version-1 compute task with flops stays a compute task
// (the simulator now charges it at the compute rate, not the reduce rate).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::sched {

std::string to_text(const Schedule& schedule);
std::string to_json(const Schedule& schedule);
// Graphviz: one cluster per node and, inside it, one per last-level-cache
// domain (`llc_domain_of_rank[rank]`, as the cost model numbers them), or per
// NUMA node when the caller has no machine to tell (an empty vector).
std::string to_dot(const Schedule& schedule, const std::vector<int>& llc_domain_of_rank = {});

// Throw InputError naming the line (text) or the field (JSON) that is wrong,
// or when the text holds more than one schedule.
Schedule schedule_from_text(const std::string& text);
Schedule schedule_from_json(const std::string& text);

// A file may hold several schedules, run one after another
// (sched::sequence): in text, each starts with its own `numacoll-schedule`
// header (so `cat a.txt b.txt` makes one); in JSON, a list of schedule
// objects. A file of one schedule reads as a list of one.
std::vector<Schedule> schedules_from_text(const std::string& text);
std::vector<Schedule> schedules_from_json(const std::string& text);

}  // namespace numacoll::sched

// Schedules as files: diffable text (one task per line), JSON, and DOT.
// Text and JSON read back into an identical Schedule; a file may hold
// several, one after another (see schedules_from_text).
//
// docs/schedule-format.md specifies both formats (the text grammar, the
// JSON schema, what a rank does at a time) with a worked example. Text
// (version 4), one record per line, fields `key=value`:
//   numacoll-schedule 4
//   spec collective=allreduce algorithm=tree bytes=64 root=0 op=sum datatype=double nodes=1 ranks=threads
//   option arity=2
//   provenance topology=westmere
//   rank 0 node=0 core=0 pu=0 numa=0 package=0
//   buffer 0 name=in0 owner=0 bytes=64 role=input numa=0
//   task 5 reduce thread=0 write=1@0+64 read=0@0+64,3@0+64 deps=2,4 label=c0:reduce:L3:r0
// A key its record (or JSON object) does not take is refused with its line.
// Versions 1 to 3 still load: version 3 had no datatype= (doubles), version
// 2 no ranks= (threads), and version 1 wrote a task that only waits as
// `compute` with no flops, which loads as a wait task.
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
// A file in either format (JSON when it starts with '{' or '['), at most
// schedule_file_cap_bytes: InputError naming the file otherwise.
std::vector<Schedule> schedules_from_file(const std::string& path);

}  // namespace numacoll::sched

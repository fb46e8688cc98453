// Reading a whole text file with errors that name it. Every module reads its
// inputs (topology XML, schedules, parameter sets) through this, so a
// missing, unreadable, directory or oversized path always fails the same
// way: InputError, one line, the system's reason ("Is a directory").
//
// Every kind of input has a size cap, so that a path such as /dev/zero or a
// wrong multi-gigabyte file is refused after reading at most the cap, not
// read until memory runs out. NUMACOLL_MAX_INPUT_BYTES (a size such as
// 4GiB) raises or lowers every cap at once.
#pragma once

#include <cstdint>
#include <string>

namespace numacoll {

// The caps, by kind of input: far above what real files need (a 1024-core
// machine's hwloc XML is a few MB; a million-task schedule as text about 60 MB).
inline constexpr std::uint64_t topology_file_cap_bytes = std::uint64_t{64} << 20;
inline constexpr std::uint64_t params_file_cap_bytes = std::uint64_t{16} << 20;
inline constexpr std::uint64_t selection_file_cap_bytes = std::uint64_t{16} << 20;
inline constexpr std::uint64_t schedule_file_cap_bytes = std::uint64_t{1} << 30;

// The cap in force for one of the caps above (NUMACOLL_MAX_INPUT_BYTES
// replaces it when set; UsageError when that is not a size).
std::uint64_t input_cap_bytes(std::uint64_t default_cap_bytes);

// `what` names the kind of file in the message: "cannot read params 'x.json': ...".
// InputError when the file holds more than `cap_bytes` (input_cap_bytes applied).
std::string read_text_file(const std::string& path, const std::string& what, std::uint64_t cap_bytes);

}  // namespace numacoll

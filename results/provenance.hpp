// What produced a result: the numacoll version and git revision, the build
// type, the SimGrid it simulates with, the host and the date. Every result file carries these fields, so
// that a row read months later still says where it came from.
#pragma once

#include <string>
#include <vector>

namespace numacoll::results {

struct Provenance {
    std::string numacoll;    // "0.1.0 (1e0662e)"
    std::string build_type;  // "RelWithDebInfo"
    std::string simgrid;     // "3.32": the SimGrid numacoll was built against
    std::string host;        // this machine's name
    std::string date;        // UTC, ISO 8601: "2026-11-22T21:30:50Z"
    std::string mpi;         // the MPI engine's library, thread level and processes; empty otherwise
};

// This process, now.
Provenance current_provenance();

// The provenance columns, in the order every result file writes them.
std::vector<std::string> provenance_columns();
std::vector<std::string> provenance_fields(const Provenance& provenance);

}  // namespace numacoll::results

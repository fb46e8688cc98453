#include "results/provenance.hpp"

#include <unistd.h>

#include <ctime>

#include "numacoll/version.hpp"

namespace numacoll::results {

Provenance current_provenance() {
    Provenance provenance;
    provenance.numacoll = numacoll::version_and_revision;
    provenance.build_type = numacoll::build_type;
    provenance.simgrid = numacoll::simgrid_version;
    char host[256] = {};
    provenance.host = ::gethostname(host, sizeof host - 1) == 0 ? host : "unknown";
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    ::gmtime_r(&now, &utc);
    char date[32] = {};
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &utc);
    provenance.date = date;
    return provenance;
}

std::vector<std::string> provenance_columns() { return {"numacoll", "build_type", "simgrid", "host", "date", "mpi"}; }

std::vector<std::string> provenance_fields(const Provenance& provenance) {
    return {provenance.numacoll, provenance.build_type, provenance.simgrid, provenance.host, provenance.date, provenance.mpi};
}

}  // namespace numacoll::results

// Open MPI's coll/tuned algorithms under numacoll's names: which of its
// algorithms a flat numacoll algorithm stands for, the value its MCA
// parameter coll_tuned_<collective>_algorithm takes, and its number there
// (Open MPI 4.1, `ompi_info --param coll tuned --level 9`). A baseline run
// forces one of them, so that numacoll's simulation of, say, a binomial
// broadcast can be put next to Open MPI's own binomial broadcast.
#pragma once

#include <string>
#include <vector>

#include "schedule/schedule.hpp"

namespace numacoll::exec {

struct OmpiTunedAlgorithm {
    sched::Collective collective;
    std::string name;        // numacoll's: "binomial", "split-binary", "recursive-doubling"
    std::string mca_value;   // Open MPI's: "binomial", "split_binary_tree", "recursive_doubling"
    int id = 0;              // its number in coll_tuned_<collective>_algorithm
};

const std::vector<OmpiTunedAlgorithm>& ompi_tuned_algorithms();

// UsageError listing the names that exist for the collective.
const OmpiTunedAlgorithm& find_ompi_tuned_algorithm(sched::Collective collective, const std::string& name);

// The MCA parameter that forces an algorithm for a collective, and the one
// that sets its segment size: "coll_tuned_bcast_algorithm".
std::string ompi_algorithm_parameter(sched::Collective collective);
std::string ompi_segment_parameter(sched::Collective collective);

}  // namespace numacoll::exec

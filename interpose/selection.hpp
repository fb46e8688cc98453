// interpose::Selection: which algorithm serves a call, or whether the MPI
// library's own collective does (native). In order: the algorithm the
// environment forces for the collective; else the selection table's row
// for the call (NUMACOLL_MPI_SELECTION: tune::row_for_call); else the closed-form models'
// fastest for this communicator's shape with the machine's params
// (models/), where "native" stands for the fastest of the MPI library's own
// algorithms that numacoll models (Open MPI's flat broadcasts and
// reductions): a size where one of those is predicted faster goes back to
// the library.
#pragma once

#include <map>
#include <string>

#include "algorithms/layout.hpp"
#include "costs/params.hpp"
#include "interpose/call_spec.hpp"
#include "interpose/settings.hpp"

namespace numacoll::interpose {

struct Choice {
    std::string algorithm;  // or native_algorithm
    std::map<std::string, std::string> options;
    std::string why;  // "forced", "tuned", "models"
};

Choice choose_algorithm(const CallKey& key, const algo::Layout& layout, const Settings& settings,
                        const costs::Params& params);

}  // namespace numacoll::interpose

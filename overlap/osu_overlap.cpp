#include "overlap/osu_overlap.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace numacoll::overlap {

double osu_overlap_percent(double pure_ns, double compute_ns, double overall_ns) {
    if (!(pure_ns > 0) || !(compute_ns >= 0) || !(overall_ns >= 0) || !std::isfinite(pure_ns + compute_ns + overall_ns))
        throw Error(fmt::format("overlap needs a pure time above 0 and times of at least 0 (pure {} ns, compute {} ns, "
                                "overall {} ns)",
                                pure_ns, compute_ns, overall_ns));
    return std::max(0.0, 100.0 - 100.0 * (overall_ns - compute_ns) / pure_ns);
}

}  // namespace numacoll::overlap

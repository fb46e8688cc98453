// What `numacoll model` and `numacoll sim` share: a closed-form model's
// prediction for a spec on a layout (models/registry.hpp), with the
// algorithm's option defaults filled in as the generators fill them.
#pragma once

#include <optional>

#include "algorithms/layout.hpp"
#include "costs/params.hpp"
#include "schedule/schedule.hpp"

namespace numacoll::cli {

// The spec as the generator reads it: UsageError for an unknown algorithm,
// an option it does not have, or a size it does not take.
sched::CollectiveSpec spec_with_defaults(sched::CollectiveSpec spec, const algo::Layout& layout);

// The model's time in ns, or none when the algorithm has no model or the
// model does not reach this shape.
std::optional<double> model_ns(const sched::CollectiveSpec& spec, const algo::Layout& layout,
                               const costs::Params& params);

}  // namespace numacoll::cli

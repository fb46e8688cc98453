// The closed-form models, one file per algorithm (models/allreduce/tree.cpp),
// looked up like the algorithms. Every registered algorithm either has a
// model here or is listed among those without one, with the reason: a test
// holds the two lists to the generators' registry.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "algorithms/layout.hpp"
#include "costs/params.hpp"
#include "models/model.hpp"

namespace numacoll::models {

const std::vector<ModelInfo>& model_registry();

// The model of an algorithm, or nullptr when it has none.
const ModelInfo* find_model(sched::Collective collective, const std::string& algorithm);

// The model's time in ns for `spec` (its options' defaults filled in, as
// algo::spec_with_defaults fills them) on `layout`; none when the algorithm
// has no model or the model does not reach this shape.
std::optional<double> model_ns(const sched::CollectiveSpec& spec, const algo::Layout& layout,
                               const costs::Params& params);

struct WithoutModel {
    sched::Collective collective;
    std::string name;
    std::string why;
};

// The algorithms that have no closed form here, and why.
const std::vector<WithoutModel>& algorithms_without_model();

}  // namespace numacoll::models

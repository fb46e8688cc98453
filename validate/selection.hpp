// validate::select_algorithms: the question users ask of a validation,
// which algorithm to pick at which size, answered by the measurement, the
// simulation and the closed-form model side by side.
//
// At each size of a collective, each source picks the algorithm it finds
// fastest (the measurement by its median). A prediction's pick agrees when
// it is the measured best, or an algorithm whose measured median lies
// within the measured best's p10-p90 spread (the machine cannot tell them
// apart). A crossover of two algorithms is where the faster of them
// changes between two neighbouring sizes.
//
// Invariants: only sizes at which every algorithm of the collective was
// run count; the model picks only where every algorithm has a model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "validate/validation.hpp"

namespace numacoll::validate {

struct SizeChoice {
    std::uint64_t bytes = 0;
    std::string measured, simulated;
    std::optional<std::string> model;
    bool simulated_agrees = false;
    std::optional<bool> model_agrees;
};

// Where the faster of two algorithms changes: "between 4KiB and 8KiB" per
// crossing, for each source.
struct Crossover {
    std::string first, second;
    std::vector<std::string> measured, simulated, modelled;
    bool modelled_known = false;  // both algorithms have a model at every size
};

struct CollectiveSelection {
    std::string collective;
    std::vector<std::string> algorithms;
    std::vector<SizeChoice> sizes;
    double simulated_agreement = 0;            // share of sizes
    std::optional<double> model_agreement;     // over the sizes the model picks at
    std::vector<Crossover> crossovers;         // each pair of algorithms
};

std::vector<CollectiveSelection> select_algorithms(const std::vector<ValidationPoint>& points);

// The summary's part: per collective with two algorithms or more.
std::string selection_text(const std::vector<CollectiveSelection>& selections);

}  // namespace numacoll::validate

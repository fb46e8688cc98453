// The source papers' findings, each with the simulations that test it, the
// paper's number, numacoll's number and a verdict (numacoll reproduce).
//
// Verdicts (docs/fidelity.md): a numeric model check is reproduced within
// 10% of the paper's measurement; a crossover within a factor 1.5; a gain
// within the paper's range, or above half of its lower end; an ordering
// ("X is best") when it holds at every size the paper shows. A finding that
// holds in direction but not in size is reproduced qualitatively. Every
// number comes from simulations of bundled machines with bundled params,
// none of which is fitted to the finding it tests (a parameter fitted to
// anything says so in its source, and the finding that uses it says so too;
// a finding a parameter is derived from is a calibration input).
//
// Papers: HPDC'13 (Li, Hoefler, Snir, and its extended version), the
// hierarchical communicators paper (Goglin, Jeannot, Mansouri, Mercier,
// Parallel Computing 2018), the NUIOA paper (Goglin, Moreaud, CASS 2011).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reproduce/experiment.hpp"

namespace numacoll::reproduce {

// calibration_input: a microbenchmark of the paper's machine that a bundled
// parameter is derived from (its source says so), as calibrate derives one
// on the machine at hand: shown with numacoll's number, never counted as
// reproduced.
enum class Verdict { reproduced, qualitative, not_reproduced, calibration_input };
// "reproduced", "reproduced qualitatively", "not reproduced", "calibration input"
const char* to_string(Verdict verdict);

// A figure drawn from the simulations, with the paper's values marked.
struct Series {
    std::string label;
    std::vector<double> x, y;
};
struct Mark {
    char axis = 'x';  // a vertical ('x') or horizontal ('y') line, or the paper's claim in words ('c')
    double value = 0;
    std::string label;
};
struct FigureData {
    std::string name;  // file stem, e.g. hpdc13-fig18-westmere-crossover
    std::string title, x_label, y_label;
    bool log_x = true, log_y = true;
    std::vector<Series> series;
    std::vector<Mark> marks;
};

struct Outcome {
    std::string numacoll;  // numacoll's number(s), in words
    Verdict verdict = Verdict::not_reproduced;
    std::string why;       // how the verdict follows, and for a miss, the mechanism
    std::string command;   // a `numacoll sim` command that gives the number
    std::vector<FigureData> figures;
};

struct Finding {
    std::string name;   // e.g. hpdc13-westmere-crossover
    std::string paper;  // paper and section or figure
    std::string setup;  // the paper's machine and experiment
    std::string claim;  // what the paper found, with its number
    std::function<Outcome(Experiment&)> evaluate;
};

// Every finding, in paper order.
const std::vector<Finding>& findings();
// The findings of one paper (each file adds its own).
std::vector<Finding> hpdc13_findings();
std::vector<Finding> nuioa_findings();
std::vector<Finding> hierarchical_findings();

}  // namespace numacoll::reproduce

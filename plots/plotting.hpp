// Drawing a folder's tables with the matplotlib scripts of this folder
// (plots/*.py), embedded in the binary.
//
// The scripts reach python3 on its standard input, with a loader that
// imports them from there: nothing is written to /tmp, so an interrupted
// run leaves no scripts behind. The tables are read from one folder and
// the pictures written into another (a run's staging folder,
// common/output_folder.hpp).
#pragma once

#include <string>
#include <vector>

namespace numacoll::plots {

// Runs python3 ($PYTHON, else python3 on the PATH if it has matplotlib,
// else /usr/bin/python3) on an embedded plotting script (by its stem) for
// the tables of `input`, which must hold `needed`, drawing into `output`;
// returns the names of the pictures drawn. InputError (exit 2) when a table
// is missing, too large (NUMACOLL_MAX_INPUT_BYTES) or cannot be read; Error
// when python3 or matplotlib is missing or the script fails otherwise.
// `provenance` is the line every picture carries under its axes (what
// produced it: see picture_provenance); `subject` what a title names beyond
// the table's own (NUMACOLL_PLOT_SUBJECT: "allreduce, params generic" for a
// whatif map); empty for none.
std::vector<std::string> plot_folder(const std::string& input, const std::string& output,
                                     const std::string& script_stem = "plot_validation",
                                     const std::string& needed = "validation.csv", const std::string& provenance = "",
                                     const std::string& subject = "");

// "numacoll 0.1.0 (5d9bcb7) · sim engine · westmere · params bundled:westmere":
// the numacoll that drew it, the engine, the machine and the params.
std::string picture_provenance(const std::string& engine, const std::string& machine, const std::string& params);

// The pictures `numacoll plot` draws (latency.png, compare-*.png,
// error-*.png, best-*.png, gantt*.png): whether `name` is one.
bool is_validation_picture(const std::string& name);

}  // namespace numacoll::plots

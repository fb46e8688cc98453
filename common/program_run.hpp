// run_program: another program (python3, graphviz's dot) run from
// numacoll without a shell, its output kept or passed through.
#pragma once

#include <string>
#include <vector>

namespace numacoll {

// A program's run: its exit status (-1 when it could not start or was
// killed by a signal) and, when asked for, what it printed.
struct ProgramRun {
    int status = -1;
    std::string output, errors;
};

// Runs a program with arguments, without a shell; `input` goes to its
// standard input; `environment` (NAME=VALUE) is added to this process's for
// it (never set here: Open MPI's threads may read the environment).
// `capture`: keep its standard output and error (else they stay this
// process's). An interruption of this process ends it too.
ProgramRun run_program(std::vector<std::string> arguments, bool capture, const std::string& input = "",
                       const std::vector<std::string>& environment = {});

}  // namespace numacoll

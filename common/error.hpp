// Typed errors shared by every numacoll module.
//
// Library code never exits: it throws one of these, and the CLI turns them into
// one line on stderr and an exit code (2 for usage errors, 1 for failures).
// They live in common/, below every module.
#pragma once

#include <stdexcept>
#include <string>

namespace numacoll {

// Base of every error numacoll throws on purpose.
class Error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The user asked for something impossible or malformed (exit code 2).
class UsageError : public Error {
public:
    using Error::Error;
};

// An input file is missing, unreadable or malformed (exit code 2).
class InputError : public UsageError {
public:
    using UsageError::UsageError;
};

// A computation ran but its result is wrong (exit code 1), e.g. a schedule
// that fails validation or the symbolic checker.
class CheckError : public Error {
public:
    using Error::Error;
};

}  // namespace numacoll

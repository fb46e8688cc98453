// numacoll/error.hpp: the errors numacoll throws, for the command line and
// for programs that use the library alike.
//
// Library code never exits and prints nothing: it throws one of these, with
// one line that says what is wrong, and the command line turns them into
// that line on stderr and an exit code (2 for usage errors, 1 for failures).
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

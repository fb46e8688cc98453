// The typed errors every module throws live in the public API's header
// (numacoll/error.hpp), so that a library user catches the same types the
// command line turns into exit codes.
#pragma once

#include "numacoll/error.hpp"

// The shared library's own object: what it says it is.
#include "numacoll/numacoll.hpp"

namespace numacoll {

const char* library_version() { return version_and_revision; }

}  // namespace numacoll

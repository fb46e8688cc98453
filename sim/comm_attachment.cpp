#include "sim/comm_attachment.hpp"

#include <xbt/base.h>  // SG_BEGIN_DECL, XBT_PUBLIC: version.h needs them first
#include <simgrid/version.h>

#include <cstdlib>
#include <cstring>

#if defined(NUMACOLL_SIMGRID_ATTACHED_COMMS) && SIMGRID_VERSION < 33400
#include <dlfcn.h>
#define NUMACOLL_INTERPOSE_DETACH 1
#endif

namespace numacoll::sim {

namespace {

bool kept_attached = false;
std::size_t kept_count = 0;

}  // namespace

#ifdef NUMACOLL_INTERPOSE_DETACH

namespace {

// simgrid::kernel::activity::CommImpl& CommImpl::detach(): a member function
// with `this` as its only argument, returning a reference (a pointer in the
// ABI). Declared under its mangled name so that no private SimGrid header is needed.
using DetachFunction = void* (*)(void*);
constexpr const char* detach_symbol = "_ZN7simgrid6kernel8activity8CommImpl6detachEv";

DetachFunction simgrid_detach() {
    static const auto original = reinterpret_cast<DetachFunction>(::dlsym(RTLD_NEXT, detach_symbol));
    return original;
}

// Built when SimGrid's own definition can be found to fall back on; on by
// default, off with NUMACOLL_SIMGRID_ATTACHED_COMMS=0 (to compare).
const bool attachment_available = [] {
    const bool found = simgrid_detach() != nullptr;
    kept_attached = found && simgrid_substitutes_requested();
    return found;
}();

}  // namespace

bool comm_attachment_built() { return attachment_available; }

}  // namespace numacoll::sim

extern "C" void* numacoll_comm_impl_detach(void* comm) __asm__("_ZN7simgrid6kernel8activity8CommImpl6detachEv");

extern "C" void* numacoll_comm_impl_detach(void* comm) {
    if (numacoll::sim::kept_attached) {
        ++numacoll::sim::kept_count;
        return comm;
    }
    return numacoll::sim::simgrid_detach()(comm);
}

namespace numacoll::sim {

#else

bool comm_attachment_built() { return false; }

#endif

bool simgrid_substitutes_requested() {
    const char* setting = std::getenv("NUMACOLL_SIMGRID_ATTACHED_COMMS");
    return setting == nullptr || std::strcmp(setting, "0") != 0;
}

bool comms_kept_attached() { return kept_attached; }

void keep_comms_attached(bool enabled) { kept_attached = enabled && comm_attachment_built(); }

std::size_t comms_kept_attached_count() { return kept_count; }

}  // namespace numacoll::sim

// Keeps numacoll's SimGrid comms out of maestro's activity list on SimGrid < 3.34.
//
// Why: in SimGrid 3.32, Comm::sendto_init() detaches every comm, and
// CommImpl::detach() appends it to maestro's activity list, a std::list;
// CommImpl::finish() then removes it with std::list::remove, a walk over
// every comm in flight at each completion. Measured with perf on the
// 2-core machine: 57% of the simulating process for 100k tasks on a
// 1024-core node (about 517 comms in flight), 76% at 512 westmere nodes ×
// 1 MiB (about 2,300). SimGrid 3.34 keeps that list in a std::set.
//
// How: CommImpl::detach() is an exported symbol that libsimgrid calls
// through its PLT, so a definition in the numacoll binary takes precedence
// (comm_attachment.cpp). Ours leaves the comm attached: it never enters the
// list, and finish() skips the removal. That is safe because the engine
// holds a handle on every comm until its completion callback has run
// (sim/engine.cpp) and numacoll makes no mailbox comm. Everything else a
// detached flag changes in 3.32 concerns mailboxes and actors.
//
// Built when NUMACOLL_SIMGRID_ATTACHED_COMMS is ON (the default) and the
// SimGrid headers are older than 3.34; the switch below can turn it off at
// run time, so that a test compares traces with and without it
// (tests/sim/comm_attachment_test.cpp: byte-identical).
#pragma once

#include <cstddef>

namespace numacoll::sim {

// Whether this build interposes CommImpl::detach().
bool comm_attachment_built();
// Whether simulations started from now on keep comms attached (default:
// comm_attachment_built(), unless NUMACOLL_SIMGRID_ATTACHED_COMMS=0).
// Turning it on in a build without it does nothing.
bool comms_kept_attached();
void keep_comms_attached(bool enabled);
// Comms this process kept out of the list (the simulating child counts its own).
std::size_t comms_kept_attached_count();

// The one switch for every SimGrid substitute (this one and
// sim/platform_lookups.hpp): false when NUMACOLL_SIMGRID_ATTACHED_COMMS=0.
bool simgrid_substitutes_requested();

}  // namespace numacoll::sim

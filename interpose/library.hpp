// interpose::Library: the state the interposition library keeps for the
// whole process: the settings (read at MPI_Init), the machine (hwloc, at
// the first served call), the models' params, and the communicators it
// serves, each hung on its MPI communicator as an attribute whose delete
// callback frees it when the application frees the communicator. An
// attribute on MPI_COMM_SELF, whose callback MPI runs first in
// MPI_Finalize, writes the report and frees what is left, so that the
// library intercepts no more of MPI than the collectives and MPI_Init.
//
// Errors: a wrong setting ends the job at MPI_Init with one line from
// process 0 (or, with NUMACOLL_MPI_ON_ERROR=native, a warning and every
// call handed back); an error inside a served call aborts the job with one
// line naming the process and the call. Nothing else is printed unless
// NUMACOLL_MPI_VERBOSE asks.
#pragma once

#include <mpi.h>

namespace numacoll::interpose {

class ServedCommunicator;

// After PMPI_Init*: reads the settings; aborts the job on a wrong one.
void initialise_library();
// Whether calls are to be served at all (settings read and enabled).
bool library_active();
// The communicator's state, made on first use (collective over `comm`).
ServedCommunicator& served_communicator(MPI_Comm comm);
// Ends the job from inside a call that failed: one line, then MPI_Abort.
[[noreturn]] void abort_call(MPI_Comm comm, const char* call, const char* what);

}  // namespace numacoll::interpose

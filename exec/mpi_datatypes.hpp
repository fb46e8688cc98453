// numacoll's datatypes and operations as the MPI library names them
// (schedule/datatype.hpp holds numacoll's side): MPI_UNSIGNED_LONG for
// unsigned_long, MPI_MINLOC for minloc. One table, both directions.
#pragma once

#include <mpi.h>

#include <optional>

#include "schedule/schedule.hpp"

namespace numacoll::exec {

MPI_Datatype mpi_datatype(sched::Datatype datatype);
MPI_Op mpi_op(sched::ReduceOp op);

// The numacoll datatype that an MPI library's predefined datatype is, none
// for a derived one or one that numacoll does not reduce.
std::optional<sched::Datatype> datatype_of(MPI_Datatype datatype);
std::optional<sched::ReduceOp> op_of(MPI_Op op);

}  // namespace numacoll::exec

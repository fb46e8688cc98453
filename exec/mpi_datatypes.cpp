#include "exec/mpi_datatypes.hpp"

#include <utility>
#include <vector>

namespace numacoll::exec {

namespace {

// MPI's handles are not constants in every library (Open MPI's are addresses
// of globals): the tables are made at first use, after MPI_Init.
const std::vector<std::pair<sched::Datatype, MPI_Datatype>>& datatype_table() {
    using D = sched::Datatype;
    static const std::vector<std::pair<D, MPI_Datatype>> table = {
        {D::int8, MPI_INT8_T},
        {D::int16, MPI_INT16_T},
        {D::int32, MPI_INT32_T},
        {D::int64, MPI_INT64_T},
        {D::uint8, MPI_UINT8_T},
        {D::uint16, MPI_UINT16_T},
        {D::uint32, MPI_UINT32_T},
        {D::uint64, MPI_UINT64_T},
        {D::char_, MPI_CHAR},
        {D::signed_char, MPI_SIGNED_CHAR},
        {D::unsigned_char, MPI_UNSIGNED_CHAR},
        {D::short_, MPI_SHORT},
        {D::unsigned_short, MPI_UNSIGNED_SHORT},
        {D::int_, MPI_INT},
        {D::unsigned_, MPI_UNSIGNED},
        {D::long_, MPI_LONG},
        {D::unsigned_long, MPI_UNSIGNED_LONG},
        {D::long_long, MPI_LONG_LONG},
        {D::unsigned_long_long, MPI_UNSIGNED_LONG_LONG},
        {D::float_, MPI_FLOAT},
        {D::double_, MPI_DOUBLE},
        {D::long_double, MPI_LONG_DOUBLE},
        {D::c_float_complex, MPI_C_FLOAT_COMPLEX},
        {D::c_double_complex, MPI_C_DOUBLE_COMPLEX},
        {D::c_long_double_complex, MPI_C_LONG_DOUBLE_COMPLEX},
        {D::c_bool, MPI_C_BOOL},
        {D::integer, MPI_INTEGER},
        {D::real, MPI_REAL},
        {D::double_precision, MPI_DOUBLE_PRECISION},
        {D::complex, MPI_COMPLEX},
        {D::double_complex, MPI_DOUBLE_COMPLEX},
        {D::logical, MPI_LOGICAL},
        {D::byte, MPI_BYTE},
        {D::float_int, MPI_FLOAT_INT},
        {D::double_int, MPI_DOUBLE_INT},
        {D::long_int, MPI_LONG_INT},
        {D::two_int, MPI_2INT},
        {D::short_int, MPI_SHORT_INT},
        {D::long_double_int, MPI_LONG_DOUBLE_INT},
    };
    return table;
}

const std::vector<std::pair<sched::ReduceOp, MPI_Op>>& op_table() {
    using O = sched::ReduceOp;
    static const std::vector<std::pair<O, MPI_Op>> table = {
        {O::sum, MPI_SUM},   {O::min, MPI_MIN},   {O::max, MPI_MAX},   {O::prod, MPI_PROD},
        {O::land, MPI_LAND}, {O::lor, MPI_LOR},   {O::lxor, MPI_LXOR}, {O::band, MPI_BAND},
        {O::bor, MPI_BOR},   {O::bxor, MPI_BXOR}, {O::minloc, MPI_MINLOC}, {O::maxloc, MPI_MAXLOC},
    };
    return table;
}

}  // namespace

MPI_Datatype mpi_datatype(sched::Datatype datatype) {
    for (const auto& [ours, theirs] : datatype_table())
        if (ours == datatype) return theirs;
    return MPI_DATATYPE_NULL;
}

MPI_Op mpi_op(sched::ReduceOp op) {
    for (const auto& [ours, theirs] : op_table())
        if (ours == op) return theirs;
    return MPI_OP_NULL;
}

std::optional<sched::Datatype> datatype_of(MPI_Datatype datatype) {
    for (const auto& [ours, theirs] : datatype_table())
        if (theirs == datatype) return ours;
    return std::nullopt;
}

std::optional<sched::ReduceOp> op_of(MPI_Op op) {
    for (const auto& [ours, theirs] : op_table())
        if (theirs == op) return ours;
    return std::nullopt;
}

}  // namespace numacoll::exec

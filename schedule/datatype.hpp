// The element types of a collective and which reduction operations apply to
// each, as MPI defines them (MPI 4.0, section 6.9.2, "Predefined Reduction
// Operations"): the predefined types a C or Fortran program reduces.
//
// A Datatype is MPI's name (MPI_UNSIGNED_LONG is unsigned_long); several
// name the same representation on x86-64 Linux (int and int32, long and
// long_long, real and float), which is what the kernels work on
// (Representation). Every element is 1 to 32 bytes, a power of two, so a cut
// at a cache line is a cut between elements.
//
// Invariants: element_size() is the C/Fortran type's size, padding included
// (MPI's extent: double_int is 16 bytes, long_double 16); value bytes are
// those that carry the value (long_double: 10), the others are padding that
// no reduction defines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numacoll::sched {

enum class ReduceOp;

// MPI's groups of types for reductions.
// MPI_CHAR is text: no operation applies to it (MPI_SIGNED_CHAR is the
// C integer of a char's size).
enum class TypeClass { c_integer, fortran_integer, floating, complex, logical, byte, pair, character };

// The names of these values live in a table in datatype.cpp, in this order.
enum class Datatype {
    int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    char_, signed_char, unsigned_char, short_, unsigned_short, int_, unsigned_, long_, unsigned_long, long_long,
    unsigned_long_long,
    float_, double_, long_double,
    c_float_complex, c_double_complex, c_long_double_complex,
    c_bool,
    integer, real, double_precision, complex, double_complex, logical,
    byte,
    float_int, double_int, long_int, two_int, short_int, long_double_int,
};

// What the kernels compute on.
enum class Representation {
    i8, i16, i32, i64, u8, u16, u32, u64,
    f32, f64, f80,
    cf32, cf64, cf80,
    bool8,      // C _Bool: 0 or 1
    logical32,  // Fortran LOGICAL: 0 false, anything else true
    byte,
    float_int, double_int, long_int, int_int, short_int, long_double_int,  // {value, int index}
};

const char* to_string(Datatype datatype);
Datatype parse_datatype(const std::string& text);
// Every name, in order (for help texts and tests).
const std::vector<Datatype>& all_datatypes();
// The first datatype of each representation: one per kernel.
const std::vector<Datatype>& one_datatype_per_representation();

TypeClass type_class(Datatype datatype);
Representation representation(Datatype datatype);
std::uint64_t element_size(Datatype datatype);

// Whether MPI defines `op` on `datatype`.
bool applies(ReduceOp op, Datatype datatype);
// The classes `op` applies to, for a message ("C integer, Fortran integer and byte").
std::string classes_of(ReduceOp op);
// Every operation that applies to `datatype`.
std::vector<ReduceOp> operations_on(Datatype datatype);

}  // namespace numacoll::sched

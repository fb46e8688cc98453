// What every rank puts in its input before each iteration, and what the
// result must be, computed straight from those values (not from any
// schedule): the executor's independent reference.
//
// Every predefined datatype and operation has its own values, chosen so
// that the result is exact in any order of reduction and results compare
// exactly: unsigned integers wrap (any order gives the same bits), signed
// ones stay within their type (an overflow is undefined in C and MPI: sums
// of small values, products of 1 and -1), floating-point
// sums add quarters from 0 to 255.75 (exact up to 16,384 ranks in a float),
// products multiply by 1/2, 1 or 2 (exact while the exponent stays in range:
// 126 ranks in a float), minima and maxima take whole numbers, complex
// values do the same per component or are powers of two times 1, i, -1 or
// -i, logical values are mostly true for land and mostly false for lor (both
// outcomes occur), minloc and maxloc draw values from 16 so that ties, and
// the index rule, are common. The values come from a hash of (rank, element,
// iteration): they change with the iteration (a result left from an earlier
// one does not pass) and follow no period in ranks or offsets (a misplaced or
// missing contribution changes the result). Padding bytes (a long double's
// last six, a pair's gap) hold hashed bytes too, so copies are checked byte
// for byte; reductions compare the value bytes only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "schedule/schedule.hpp"

namespace numacoll::exec {

// Byte `offset` of rank's input, so copy-only collectives of any byte count can be checked.
std::uint8_t input_byte(int rank, std::size_t offset, std::uint32_t iteration, sched::Datatype datatype,
                        sched::ReduceOp op);
// Writes the first `bytes` bytes of rank's input (whole elements, then a tail).
void fill_input(std::byte* input, std::size_t bytes, int rank, std::uint32_t iteration, sched::Datatype datatype,
                sched::ReduceOp op);

// Elements [first, first + count) of rank's input, element_size(datatype)
// bytes each, at `out`. An operation that does not apply to the datatype (a
// copy-only collective keeps the default sum) gives the datatype's values
// for sum, or hashed bytes.
void fill_elements(std::byte* out, int rank, std::size_t first, std::size_t count, std::uint32_t iteration,
                   sched::Datatype datatype, sched::ReduceOp op);

// The reduction of elements [first, first + count) over ranks 0..ranks-1, into `out`.
void reduced_elements(std::byte* out, int ranks, std::size_t first, std::size_t count, std::uint32_t iteration,
                      sched::Datatype datatype, sched::ReduceOp op);
// Whether two elements hold the same value: bit for bit in their value bytes,
// floating-point values by == (the sign of a zero aside).
bool same_value(const std::byte* a, const std::byte* b, sched::Datatype datatype);
// An element as people read it: 42, -0.25, (1,-2), (3.5,7).
std::string element_text(const std::byte* element, sched::Datatype datatype);

// The double case, for the microbenchmarks and tests that reduce doubles.
double input_value(int rank, std::size_t element, std::uint32_t iteration, sched::ReduceOp op);
double reduced_value(int ranks, std::size_t element, std::uint32_t iteration, sched::ReduceOp op);
void fill_input(std::byte* input, std::size_t bytes, int rank, std::uint32_t iteration, sched::ReduceOp op);
std::uint8_t input_byte(int rank, std::size_t offset, std::uint32_t iteration, sched::ReduceOp op);

}  // namespace numacoll::exec

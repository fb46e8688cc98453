// What every rank puts in its input before each iteration, and what the
// result must be, computed straight from those values (not from any
// schedule): the executor's independent reference.
//
// The values are exactly representable and their sums and products stay
// exact, so every reduction order gives the same bits and results compare
// with ==. They come from a hash of (rank, element, iteration): they change
// with the iteration (a result left from an earlier one does not pass) and
// follow no period in ranks or offsets (a misplaced or missing contribution
// changes the result).
#pragma once

#include <cstddef>
#include <cstdint>

#include "schedule/schedule.hpp"

namespace numacoll::exec {

double input_value(int rank, std::size_t element, std::uint32_t iteration, sched::ReduceOp op);

// Byte `offset` of rank's input: the bytes of input_value(rank, offset / 8)
// in memory order, so copy-only collectives of any byte count can be checked.
std::uint8_t input_byte(int rank, std::size_t offset, std::uint32_t iteration, sched::ReduceOp op);
// Writes the first `bytes` bytes of rank's input (whole doubles, then a tail).
void fill_input(std::byte* input, std::size_t bytes, int rank, std::uint32_t iteration, sched::ReduceOp op);

// The allreduce of input_value over ranks 0..ranks-1.
double reduced_value(int ranks, std::size_t element, std::uint32_t iteration, sched::ReduceOp op);

}  // namespace numacoll::exec

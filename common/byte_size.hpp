// Byte sizes as people write them: "64", "8B", "4KiB", "16MiB", "1G".
// K, KB and KiB all mean 1024 bytes (as MPI benchmarks use them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numacoll {

// Throws UsageError naming `what` for anything that is not a size, for
// negative values and for sizes that overflow 64 bits.
std::uint64_t parse_byte_size(const std::string& text, const std::string& what = "size");

// A list of sizes: "8B:16MiB" (doubling from the first to the last),
// "64,4KiB,1MiB" (a comma list), or a mix of both.
std::vector<std::uint64_t> parse_byte_sizes(const std::string& text, const std::string& what = "sizes");

// "16MiB", "4KiB", "100B": exact when possible.
std::string format_bytes(std::uint64_t bytes);

}  // namespace numacoll

// Test support: reading the files that the code under test writes.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace numacoll::test_support {

// A file's whole contents as bytes ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace numacoll::test_support

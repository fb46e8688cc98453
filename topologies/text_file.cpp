#include "topologies/text_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "topologies/error.hpp"

namespace numacoll {

std::string read_text_file(const std::string& path, const std::string& what) {
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw InputError(fmt::format("cannot read {} '{}': it is a directory", what, path));
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(errno)));
    std::ostringstream text;
    // An empty file sets failbit on `text` as well; only a failed read is an error.
    if (!(text << in.rdbuf()) && in.peek() != std::ifstream::traits_type::eof())
        throw InputError(fmt::format("cannot read {} '{}': the read failed", what, path));
    return text.str();
}

}  // namespace numacoll

#include "common/text_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "common/byte_size.hpp"
#include "common/error.hpp"

namespace numacoll {

std::uint64_t input_cap_bytes(std::uint64_t default_cap_bytes) {
    const char* override_text = std::getenv("NUMACOLL_MAX_INPUT_BYTES");
    if (override_text == nullptr || *override_text == '\0') return default_cap_bytes;
    return parse_byte_size(override_text, "NUMACOLL_MAX_INPUT_BYTES");
}

std::string read_text_file(const std::string& path, const std::string& what, std::uint64_t cap_bytes) {
    const std::uint64_t cap = input_cap_bytes(cap_bytes);
    const auto fail = [&](int error) {
        return InputError(fmt::format("cannot read {} '{}': {}", what, path, std::strerror(error)));
    };
    const auto too_large = [&] {
        return InputError(fmt::format("{} '{}' holds more than {}, the most numacoll reads for one (set "
                                      "NUMACOLL_MAX_INPUT_BYTES to read more)",
                                      what, path, format_bytes(cap)));
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw fail(errno);
    struct stat info {};
    if (::fstat(fd, &info) != 0 || S_ISDIR(info.st_mode)) {
        const int error = S_ISDIR(info.st_mode) ? EISDIR : errno;
        ::close(fd);
        throw fail(error);
    }
    if (S_ISREG(info.st_mode) && static_cast<std::uint64_t>(info.st_size) > cap) {
        ::close(fd);
        throw too_large();
    }
    std::string text;
    char buffer[1 << 16];
    while (true) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0) {
            if (errno == EINTR) continue;
            const int error = errno;
            ::close(fd);
            throw fail(error);
        }
        if (got == 0) break;
        if (text.size() + static_cast<std::uint64_t>(got) > cap) {  // a device or a pipe that does not end
            ::close(fd);
            throw too_large();
        }
        text.append(buffer, static_cast<std::size_t>(got));
    }
    ::close(fd);
    return text;
}

}  // namespace numacoll

// A word as a POSIX shell reads it back unchanged: as it is when it holds
// only characters no shell treats specially, else in single quotes (a
// quote inside becomes '\''). For the commands numacoll prints for users
// to paste (reproduce.csv).
#pragma once

#include <string>

namespace numacoll {

inline std::string shell_word(const std::string& text) {
    const bool plain = !text.empty() && text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                               "0123456789@%+=:,./_-") == std::string::npos;
    if (plain) return text;
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

}  // namespace numacoll

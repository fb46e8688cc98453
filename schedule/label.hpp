// sched::Label: a task's label for people ("c0:reduce:package+L3:r0").
//
// Labels are interned: a million tasks share a few thousand texts, so a task
// holds one pointer instead of a string (32 bytes inline, plus a heap block
// for any label over 15 characters). Equal texts are the same pointer.
#pragma once

#include <fmt/format.h>

#include <ostream>
#include <string>
#include <string_view>

namespace numacoll::sched {

class Label {
public:
    Label() = default;
    Label(std::string_view text);  // NOLINT: implicit, labels are written as text
    Label(const std::string& text) : Label(std::string_view(text)) {}  // NOLINT
    Label(const char* text) : Label(std::string_view(text)) {}        // NOLINT

    const std::string& text() const;
    operator const std::string&() const { return text(); }  // NOLINT
    bool empty() const { return text_ == nullptr; }
    bool operator==(const Label&) const = default;

    friend std::ostream& operator<<(std::ostream& out, const Label& label) { return out << label.text(); }

private:
    const std::string* text_ = nullptr;  // interned for the life of the process; null when empty
};

}  // namespace numacoll::sched

// Labels format as their text.
template <>
struct fmt::formatter<numacoll::sched::Label> : fmt::formatter<std::string_view> {
    auto format(const numacoll::sched::Label& label, fmt::format_context& context) const {
        return fmt::formatter<std::string_view>::format(label.text(), context);
    }
};

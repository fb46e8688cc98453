#include "schedule/label.hpp"

#include <mutex>
#include <unordered_set>

namespace numacoll::sched {

namespace {

// Lets find() take a string_view: no string is built for a text already known.
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

struct InternedTexts {
    std::mutex mutex;
    std::unordered_set<std::string, TextHash, std::equal_to<>> texts;  // nodes never move: pointers stay valid
};

InternedTexts& interned() {
    static auto* table = new InternedTexts;  // never destroyed: labels may outlive static destruction
    return *table;
}

}  // namespace

Label::Label(std::string_view text) {
    if (text.empty()) return;
    InternedTexts& table = interned();
    const std::lock_guard lock(table.mutex);
    auto known = table.texts.find(text);
    if (known == table.texts.end()) known = table.texts.emplace(text).first;
    text_ = &*known;
}

const std::string& Label::text() const {
    static const std::string none;
    return text_ ? *text_ : none;
}

}  // namespace numacoll::sched

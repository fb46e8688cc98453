#include "spread/point_journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "common/error.hpp"
#include "common/text_file.hpp"

namespace numacoll::spread {

namespace {

constexpr const char* first_line = "numacoll sweep points 1";
// A journal of 100,000 points of a few hundred bytes each is far below this.
constexpr std::uint64_t journal_cap_bytes = std::uint64_t{1} << 30;
constexpr int max_shards = 100000;

std::string escaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '\\') out += "\\\\";
        else if (c == '\t') out += "\\t";
        else if (c == '\n') out += "\\n";
        else out += c;
    }
    return out;
}

// False when `text` holds an escape that escaped() does not make.
bool unescaped(const std::string& text, std::string& out) {
    out.clear();
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (++i == text.size()) return false;
        if (text[i] == '\\') out += '\\';
        else if (text[i] == 't') out += '\t';
        else if (text[i] == 'n') out += '\n';
        else return false;
    }
    return true;
}

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const auto tab = line.find('\t', start);
        fields.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
        if (tab == std::string::npos) return fields;
        start = tab + 1;
    }
}

bool whole_number(const std::string& text, std::uint64_t& value) {
    if (text.empty() || text.size() > 20) return false;
    value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        const std::uint64_t next = value * 10 + static_cast<std::uint64_t>(c - '0');
        if (next / 10 != value) return false;
        value = next;
    }
    return true;
}

}  // namespace

Shard parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    std::uint64_t index = 0, count = 0;
    if (slash == std::string::npos || !whole_number(text.substr(0, slash), index) ||
        !whole_number(text.substr(slash + 1), count) || count < 1 || count > max_shards || index < 1 || index > count)
        throw UsageError(fmt::format("--shard '{}': expected K/N, the K-th of N shares (1 <= K <= N <= {}), such as 2/8",
                                     text, max_shards));
    return {static_cast<int>(index), static_cast<int>(count)};
}

std::uint64_t fingerprint_of(const std::vector<std::string>& keys) {
    std::uint64_t hash = 14695981039346656037ull;
    const auto add = [&](unsigned char byte) {
        hash ^= byte;
        hash *= 1099511628211ull;
    };
    for (const std::string& key : keys) {
        for (char c : key) add(static_cast<unsigned char>(c));
        add('\n');
    }
    return hash;
}

PointJournal::PointJournal(std::string path, const JournalHead& head) : path_(std::move(path)) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (fd_ < 0) throw UsageError(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    std::string text = fmt::format("{}\nsweep\t{}\nversion\t{}\npoints\t{}\t{:016x}\nshard\t{}/{}\ncommand", first_line,
                                   escaped(head.signature), escaped(head.version), head.points, head.fingerprint,
                                   head.shard.index, head.shard.count);
    for (const std::string& word : head.command) text += "\t" + escaped(word);
    text += "\n";
    const ssize_t written = ::write(fd_, text.data(), text.size());
    if (written != static_cast<ssize_t>(text.size())) {
        const int error = errno;
        ::close(fd_);
        fd_ = -1;
        throw UsageError(fmt::format("cannot write '{}': {}", path_, written < 0 ? std::strerror(error) : "short write"));
    }
}

PointJournal::~PointJournal() {
    if (fd_ >= 0) ::close(fd_);
}

void PointJournal::record(std::size_t point, const std::string& result) {
    // One write per line: with O_APPEND a line lands whole or, killed
    // midway, as the torn last line reading drops.
    const std::string line = fmt::format("{}\t{}\n", point, escaped(result));
    const ssize_t written = ::write(fd_, line.data(), line.size());
    if (written != static_cast<ssize_t>(line.size()))
        throw Error(fmt::format("cannot write '{}': {}", path_, written < 0 ? std::strerror(errno) : "short write"));
}

void PointJournal::finish(std::size_t count) {
    const std::string line = fmt::format("end\t{}\n", count);
    const ssize_t written = ::write(fd_, line.data(), line.size());
    if (written != static_cast<ssize_t>(line.size()) || ::fsync(fd_) != 0)
        throw Error(fmt::format("cannot write '{}': {}", path_, written < 0 ? std::strerror(errno) : "short write"));
}

JournalContents read_journal(const std::string& path) {
    const std::string text = read_text_file(path, "sweep points", journal_cap_bytes);
    const auto damaged = [&](const std::string& why) {
        return InputError(fmt::format("'{}' is not a numacoll sweep's points: {}", path, why));
    };
    JournalContents contents;
    JournalHead& head = contents.head;
    std::istringstream lines(text);
    std::string line;
    const auto next_head_line = [&](const char* key) {
        if (!std::getline(lines, line) || lines.eof())
            throw damaged(fmt::format("its head ends before its '{}' line", key));
        std::vector<std::string> fields = fields_of(line);
        if (fields.front() != key) throw damaged(fmt::format("expected its '{}' line, found '{}'", key, fields.front()));
        fields.erase(fields.begin());
        return fields;
    };
    if (!std::getline(lines, line) || line != first_line) throw damaged("its first line is not '" + std::string(first_line) + "'");
    std::vector<std::string> fields = next_head_line("sweep");
    if (fields.size() != 1 || !unescaped(fields[0], head.signature)) throw damaged("a damaged 'sweep' line");
    fields = next_head_line("version");
    if (fields.size() != 1 || !unescaped(fields[0], head.version)) throw damaged("a damaged 'version' line");
    fields = next_head_line("points");
    std::uint64_t number = 0;
    if (fields.size() != 2 || !whole_number(fields[0], number) || fields[1].size() != 16)
        throw damaged("a damaged 'points' line");
    head.points = number;
    try {
        std::size_t used = 0;
        head.fingerprint = std::stoull(fields[1], &used, 16);
        if (used != 16) throw damaged("a damaged 'points' line");
    } catch (const std::logic_error&) {
        throw damaged("a damaged 'points' line");
    }
    fields = next_head_line("shard");
    try {
        if (fields.size() != 1) throw damaged("a damaged 'shard' line");
        head.shard = parse_shard(fields[0]);
    } catch (const UsageError&) {
        throw damaged("a damaged 'shard' line");
    }
    fields = next_head_line("command");
    for (const std::string& field : fields) {
        std::string word;
        if (!unescaped(field, word)) throw damaged("a damaged 'command' line");
        head.command.push_back(std::move(word));
    }
    while (std::getline(lines, line)) {
        // The last line without its newline was torn by a kill: not a point.
        if (lines.eof()) break;
        fields = fields_of(line);
        if (contents.ended) throw damaged("a line after its 'end' line");
        if (fields.size() == 2 && fields[0] == "end") {
            if (!whole_number(fields[1], number)) throw damaged("a damaged 'end' line");
            contents.ended = number == contents.results.size();
            if (!contents.ended)
                throw damaged(fmt::format("its 'end' line counts {} points and it holds {}", number, contents.results.size()));
            continue;
        }
        std::string result;
        if (fields.size() != 2 || !whole_number(fields[0], number) || !unescaped(fields[1], result))
            throw damaged(fmt::format("a damaged line '{}'", line.substr(0, 60)));
        if (number >= head.points) throw damaged(fmt::format("point {} of a sweep of {}", number, head.points));
        if (!contents.results.emplace(number, std::move(result)).second)
            throw damaged(fmt::format("point {} given twice", number));
    }
    return contents;
}

std::string difference(const JournalHead& a, const JournalHead& b) {
    if (a.version != b.version) return fmt::format("numacoll's version differs ({} and {})", a.version, b.version);
    if (a.signature != b.signature) return "the command or its options differ";
    if (a.points != b.points || a.fingerprint != b.fingerprint)
        return fmt::format("the points differ ({} and {} points; the machine, params or sizes changed)", a.points, b.points);
    return "";
}

}  // namespace numacoll::spread

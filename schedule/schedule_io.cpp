#include "schedule/schedule_io.hpp"

#include <boost/graph/graphviz.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <climits>
#include <initializer_list>
#include <map>
#include <sstream>

#include "common/error.hpp"
#include "common/text_file.hpp"

namespace numacoll::sched {

namespace {

constexpr const char* text_magic = "numacoll-schedule";
constexpr int format_version = 4;
// Version 4 names the datatype; before, every element was a double.
// Version 1 had no wait kind: a task that only waited was a compute task of
// no flops. Such files still load, their waiting points becoming wait tasks.
constexpr int oldest_readable_version = 1;

bool readable_version(int version) { return version >= oldest_readable_version && version <= format_version; }

// A version-1 compute task of no flops was a waiting point.
void upgrade_task(Task& task, int version) {
    if (version == 1 && task.kind == TaskKind::compute && task.flops == 0) task.kind = TaskKind::wait;
}

// Values are written without blanks or control characters, so that every
// line splits on whitespace and reads back to the same bytes.
std::string escape(const std::string& value) {
    std::string out;
    for (char c : value) {
        if (static_cast<unsigned char>(c) <= ' ' || c == '\x7f' || c == '%' || c == '=' || c == ',')
            out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
        else
            out += c;
    }
    return out;
}

std::string unescape(const std::string& value) {
    std::string out;
    for (std::size_t i = 0; i < value.size(); ++i) {
        if (value[i] == '%') {
            unsigned code = 0;
            const char* first = value.data() + i + 1;
            const auto [end, error] = i + 2 < value.size() ? std::from_chars(first, first + 2, code, 16)
                                                          : std::from_chars_result{first, std::errc::invalid_argument};
            if (error != std::errc{} || end != first + 2)
                throw InputError(fmt::format("bad escape '{}' in '{}' (expected %XX)", value.substr(i, 3), value));
            out += static_cast<char>(code);
            i += 2;
        } else {
            out += value[i];
        }
    }
    return out;
}

std::string range_text(const Range& range) { return fmt::format("{}@{}+{}", range.buffer, range.offset, range.bytes); }

std::string join(const auto& items, auto format_item) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : ",") + format_item(item);
    return out.empty() ? "-" : out;
}

// The keys a text record or JSON object takes: whether `key` is one, and
// the list of them for a message.
bool is_known_key(const std::string& key, std::initializer_list<const char*> known) {
    return std::any_of(known.begin(), known.end(), [&](const char* name) { return key == name; });
}

std::string key_list(std::initializer_list<const char*> known) {
    std::string names;
    for (const char* name : known) names += (names.empty() ? "" : ", ") + std::string(name);
    return names;
}

// One line split into its record name, optional leading id, and key=value fields.
struct Line {
    int number = 0;
    std::vector<std::string> words;
    std::map<std::string, std::string> fields;

    [[noreturn]] void fail(const std::string& what) const {
        throw InputError(fmt::format("schedule text line {}: {}", number, what));
    }
    const std::string& field(const std::string& key) const {
        auto it = fields.find(key);
        if (it == fields.end()) fail("missing field '" + key + "'");
        return it->second;
    }
    int integer(const std::string& key) const { return to_integer(field(key), key); }
    std::uint64_t count(const std::string& key) const { return to_count(field(key), key); }
    // An int (ids, ranks, -1 for "none"): anything else, or out of range, fails.
    int to_integer(const std::string& text, const std::string& what) const {
        int value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end != text.data() + text.size())
            fail(fmt::format("'{}' is not an integer in range ({})", text, what));
        return value;
    }
    // A byte count or offset: unsigned 64-bit.
    std::uint64_t to_count(const std::string& text, const std::string& what) const {
        std::uint64_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end != text.data() + text.size())
            fail(fmt::format("'{}' is not a byte count ({})", text, what));
        return value;
    }
    Range range(const std::string& text) const {
        auto at = text.find('@'), plus = text.find('+');
        if (at == std::string::npos || plus == std::string::npos || plus < at) fail("bad range '" + text + "'");
        return {to_integer(text.substr(0, at), "buffer"), to_count(text.substr(at + 1, plus - at - 1), "offset"),
                to_count(text.substr(plus + 1), "bytes")};
    }
    // A record holds only the keys it knows: a misspelt one ('wrte=') fails
    // with its line rather than being ignored.
    void only_keys(std::initializer_list<const char*> known) const {
        for (const auto& [key, value] : fields)
            if (!is_known_key(key, known))
                fail(fmt::format("unknown key '{}' in a {} record (it takes {})", key, words.empty() ? "" : words[0],
                                 key_list(known)));
    }
    std::vector<std::string> list(const std::string& key) const {
        std::vector<std::string> items;
        const std::string& value = field(key);
        if (value == "-") return items;
        std::stringstream stream(value);
        for (std::string item; std::getline(stream, item, ',');) items.push_back(item);
        return items;
    }
};

// Whether `text` is well-formed UTF-8 (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF), as JSON needs every string to be.
bool is_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto byte = [&](std::size_t at) { return static_cast<unsigned char>(text[at]); };
        const unsigned first = byte(i);
        std::size_t length = 0;
        unsigned low = 0x80, high = 0xBF;  // the range of the second byte
        if (first < 0x80) length = 1;
        else if (first >= 0xC2 && first <= 0xDF) length = 2;
        else if (first >= 0xE0 && first <= 0xEF) {
            length = 3;
            if (first == 0xE0) low = 0xA0;
            if (first == 0xED) high = 0x9F;
        } else if (first >= 0xF0 && first <= 0xF4) {
            length = 4;
            if (first == 0xF0) low = 0x90;
            if (first == 0xF4) high = 0x8F;
        } else {
            return false;
        }
        if (i + length > text.size()) return false;
        for (std::size_t k = 1; k < length; ++k) {
            const unsigned next = byte(i + k);
            if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) return false;
        }
        i += length;
    }
    return true;
}

Line split_line(const std::string& text, int number) {
    Line line;
    line.number = number;
    std::istringstream stream(text);
    for (std::string word; stream >> word;) {
        if (!is_utf8(word)) throw InputError(fmt::format("schedule text line {}: not UTF-8 text", number));
        if (auto eq = word.find('='); eq != std::string::npos) {
            // Keys are escaped as values are (an option's or a provenance's key may hold anything).
            std::string key = unescape(word.substr(0, eq)), value = unescape(word.substr(eq + 1));
            if (!is_utf8(key) || !is_utf8(value))
                throw InputError(fmt::format("schedule text line {}: an escaped key or value is not UTF-8 text", number));
            line.fields[std::move(key)] = std::move(value);
        } else {
            line.words.push_back(word);
        }
    }
    return line;
}

void add_task_from(Schedule& schedule, Task task, const std::vector<int>& deps, int expected_id,
                   const std::function<void(const std::string&)>& fail) {
    if (expected_id != schedule.task_count())
        fail(fmt::format("task ids must be consecutive from 0 (expected {}, got {})", schedule.task_count(), expected_id));
    for (int dep : deps)
        if (dep < 0 || dep >= expected_id) fail(fmt::format("dependency {} must name an earlier task", dep));
    schedule.add_task(std::move(task), deps);
}

// What a reader checks once the whole file is read: every number that names
// something names something that exists (a rank, a node, a buffer, bytes
// inside it), so that no later stage indexes out of bounds. Whether the
// schedule is sound is validate_schedule's and the checker's to say.
void check_references(const Schedule& schedule) {
    const int ranks = schedule.rank_count();
    const int buffers = static_cast<int>(schedule.buffers().size());
    if (schedule.nodes < 1) throw InputError(fmt::format("the schedule has {} nodes (at least 1)", schedule.nodes));
    if (ranks < 1) throw InputError("the schedule has no rank");
    try {
        check_datatype(schedule.spec);
    } catch (const UsageError& error) {
        throw InputError(error.what());
    }
    for (int r = 0; r < ranks; ++r)
        if (schedule.ranks[r].node < 0 || schedule.ranks[r].node >= schedule.nodes)
            throw InputError(fmt::format("rank {} is on node {}, which the schedule's {} node(s) do not include", r,
                                         schedule.ranks[r].node, schedule.nodes));
    if (schedule.spec.root < 0 || schedule.spec.root >= ranks)
        throw InputError(fmt::format("the root {} is not one of the schedule's {} ranks", schedule.spec.root, ranks));
    for (int b = 0; b < buffers; ++b) {
        const Buffer& buffer = schedule.buffers()[b];
        if (buffer.owner < 0 || buffer.owner >= ranks)
            throw InputError(fmt::format("buffer {} belongs to rank {}, which the schedule does not have", b, buffer.owner));
    }
    const auto check_range = [&](int id, const Range& range, const char* what) {
        if (range.buffer < 0 || range.buffer >= buffers)
            throw InputError(fmt::format("task {}: its {} names buffer {}, which the schedule does not have", id, what,
                                         range.buffer));
        const std::uint64_t size = schedule.buffers()[range.buffer].bytes;
        if (range.bytes > size || range.offset > size - range.bytes)
            throw InputError(fmt::format("task {}: its {} [{}, +{}) ends past the {} bytes of buffer {}", id, what,
                                         range.offset, range.bytes, size, range.buffer));
    };
    for (int id = 0; id < schedule.task_count(); ++id) {
        const Task& task = schedule.task(id);
        if (task.thread < 0 || task.thread >= ranks)
            throw InputError(fmt::format("task {}: thread {} is not one of the schedule's {} ranks", id, task.thread, ranks));
        if (task.peer < -1 || task.peer >= ranks)
            throw InputError(fmt::format("task {}: peer {} is not one of the schedule's {} ranks", id, task.peer, ranks));
        if (task.write.buffer != -1) check_range(id, task.write, "write");
        for (const Range& read : task.reads) check_range(id, read, "read");
    }
}

}  // namespace

std::string to_text(const Schedule& schedule) {
    std::string out = fmt::format("{} {}\n", text_magic, format_version);
    const auto& spec = schedule.spec;
    out += fmt::format("spec collective={} algorithm={} bytes={} root={} op={} datatype={} nodes={} ranks={}\n",
                       to_string(spec.collective), escape(spec.algorithm), spec.bytes, spec.root, to_string(spec.op),
                       to_string(spec.datatype), schedule.nodes, to_string(schedule.rank_kind));
    for (const auto& [key, value] : spec.options) out += fmt::format("option {}={}\n", escape(key), escape(value));
    for (const auto& [key, value] : schedule.provenance) out += fmt::format("provenance {}={}\n", escape(key), escape(value));
    for (int r = 0; r < schedule.rank_count(); ++r) {
        const RankInfo& rank = schedule.ranks[r];
        out += fmt::format("rank {} node={} core={} pu={} numa={} package={}\n", r, rank.node, rank.core, rank.pu,
                           rank.numa, rank.package);
    }
    for (std::size_t b = 0; b < schedule.buffers().size(); ++b) {
        const Buffer& buffer = schedule.buffers()[b];
        out += fmt::format("buffer {} name={} owner={} bytes={} role={} numa={}{}{}\n", b, escape(buffer.name),
                           buffer.owner, buffer.bytes, to_string(buffer.role), buffer.numa,
                           buffer.shared ? " shared=1" : "", buffer.exposed ? " exposed=1" : "");
    }
    for (int id = 0; id < schedule.task_count(); ++id) {
        const Task& task = schedule.task(id);
        out += fmt::format("task {} {} thread={}", id, to_string(task.kind), task.thread);
        if (task.peer >= 0) out += fmt::format(" peer={}", task.peer);
        if (task.write.buffer >= 0) out += " write=" + range_text(task.write);
        if (!task.reads.empty()) out += " read=" + join(task.reads, range_text);
        if (task.flops != 0) out += fmt::format(" flops={}", task.flops);
        if (task.application) out += " application=1";
        out += " deps=" + join(schedule.predecessors(id), [](int dep) { return std::to_string(dep); });
        if (!task.label.empty()) out += " label=" + escape(task.label);
        out += "\n";
    }
    return out;
}

std::vector<Schedule> schedules_from_text(const std::string& text) {
    std::vector<Schedule> schedules;
    Schedule schedule;
    std::istringstream stream(text);
    std::string raw;
    int number = 0;
    int header_line = 0;
    bool header_seen = false;
    bool spec_seen = false;
    int version = format_version;
    // A schedule ends where the next header starts, or at the end of the text.
    const auto finish = [&] {
        const std::string which =
            schedules.empty() && header_line == 0 ? "" : fmt::format(" (the one from line {})", header_line);
        if (!spec_seen)
            throw InputError(fmt::format("schedule text{} has no 'spec' line: it does not say what it computes", which));
        try {
            check_references(schedule);
        } catch (const InputError& error) {
            throw InputError(fmt::format("schedule text{}: {}", which, error.what()));
        }
        schedules.push_back(std::move(schedule));
        schedule = Schedule{};
        spec_seen = false;
    };
    while (std::getline(stream, raw)) {
        ++number;
        if (raw.empty() || raw[0] == '#') continue;
        Line line = split_line(raw, number);
        if (line.words.empty()) line.fail("expected a record name");
        const std::string& record = line.words[0];
        if (!header_seen || record == text_magic) {
            const bool known = record == text_magic && line.words.size() == 2 && line.words[1].size() == 1 &&
                               readable_version(line.words[1][0] - '0');
            if (!known)
                line.fail(fmt::format("not a numacoll schedule of a version this numacoll reads (expected '{} {}', "
                                      "or version {} to {})",
                                      text_magic, format_version, oldest_readable_version, format_version));
            if (header_seen) finish();
            version = line.to_integer(line.words[1], "version");
            header_seen = true;
            header_line = number;
            continue;
        }
        try {
            if (record == "spec") {
                line.only_keys({"collective", "algorithm", "bytes", "root", "op", "datatype", "nodes", "ranks"});
                spec_seen = true;
                schedule.spec.collective = parse_collective(line.field("collective"));
                schedule.spec.algorithm = line.field("algorithm");
                schedule.spec.bytes = line.count("bytes");
                schedule.spec.root = line.integer("root");
                schedule.spec.op = parse_reduce_op(line.field("op"));
                if (version >= 4) schedule.spec.datatype = parse_datatype(line.field("datatype"));
                schedule.nodes = line.integer("nodes");
                // Before version 3 every rank was a thread.
                if (version >= 3) schedule.rank_kind = parse_rank_kind(line.field("ranks"));
            } else if (record == "option" || record == "provenance") {
                auto& target = record == "option" ? schedule.spec.options : schedule.provenance;
                for (const auto& [key, value] : line.fields) target[key] = value;
            } else if (record == "rank") {
                if (line.words.size() != 2 || line.to_integer(line.words[1], "rank") != schedule.rank_count())
                    line.fail("ranks must be numbered consecutively from 0");
                line.only_keys({"node", "core", "pu", "numa", "package"});
                schedule.ranks.push_back({line.integer("node"), line.integer("core"), line.integer("pu"),
                                          line.integer("numa"), line.integer("package")});
            } else if (record == "buffer") {
                if (line.words.size() != 2 ||
                    line.to_integer(line.words[1], "buffer") != static_cast<int>(schedule.buffers().size()))
                    line.fail("buffers must be numbered consecutively from 0");
                line.only_keys({"name", "owner", "bytes", "role", "numa", "shared", "exposed"});
                Buffer buffer{line.field("name"), line.integer("owner"), line.count("bytes"),
                              parse_buffer_role(line.field("role")), line.integer("numa")};
                for (auto [name, attribute] : {std::pair{"shared", &buffer.shared}, {"exposed", &buffer.exposed}}) {
                    if (!line.fields.count(name)) continue;
                    const std::string& flag = line.field(name);
                    if (flag != "0" && flag != "1") line.fail(fmt::format("{} '{}' must be 0 or 1", name, flag));
                    *attribute = flag == "1";
                }
                schedule.add_buffer(std::move(buffer));
            } else if (record == "task") {
                if (line.words.size() != 3) line.fail("expected 'task ID KIND ...'");
                line.only_keys({"thread", "peer", "write", "read", "flops", "application", "label", "deps"});
                Task task;
                task.kind = parse_task_kind(line.words[2]);
                task.thread = line.integer("thread");
                if (line.fields.count("peer")) task.peer = line.integer("peer");
                if (line.fields.count("write")) task.write = line.range(line.field("write"));
                if (line.fields.count("read"))
                    for (const auto& item : line.list("read")) task.reads.push_back(line.range(item));
                if (line.fields.count("flops")) {
                    const std::string& text = line.field("flops");
                    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), task.flops);
                    if (error != std::errc{} || end != text.data() + text.size()) line.fail("flops '" + text + "' is not a number");
                }
                if (line.fields.count("application")) {
                    const std::string& flag = line.field("application");
                    if (flag != "0" && flag != "1") line.fail("application '" + flag + "' must be 0 or 1");
                    task.application = flag == "1";
                }
                if (line.fields.count("label")) task.label = line.field("label");
                upgrade_task(task, version);
                std::vector<int> deps;
                for (const auto& item : line.list("deps")) deps.push_back(line.to_integer(item, "deps"));
                add_task_from(schedule, std::move(task), deps, line.to_integer(line.words[1], "task id"),
                              [&](const std::string& what) { line.fail(what); });
            } else {
                line.fail("unknown record '" + record + "'");
            }
        } catch (const InputError&) {
            throw;
        } catch (const Error& error) {
            line.fail(error.what());
        }
    }
    if (!header_seen) throw InputError("not a numacoll schedule: the text is empty");
    if (schedules.empty()) header_line = 0;  // a lone schedule needs no line to name it
    finish();
    return schedules;
}

Schedule schedule_from_text(const std::string& text) {
    std::vector<Schedule> schedules = schedules_from_text(text);
    if (schedules.size() != 1)
        throw InputError(fmt::format("the schedule text holds {} schedules where one is expected", schedules.size()));
    return std::move(schedules.front());
}

std::string to_json(const Schedule& schedule) {
    using nlohmann::json;
    json root;
    root["format"] = text_magic;
    root["version"] = format_version;
    const auto& spec = schedule.spec;
    root["spec"] = {{"collective", to_string(spec.collective)}, {"algorithm", spec.algorithm}, {"bytes", spec.bytes},
                    {"root", spec.root}, {"op", to_string(spec.op)}, {"datatype", to_string(spec.datatype)},
                    {"options", spec.options}};
    root["nodes"] = schedule.nodes;
    root["rank_kind"] = to_string(schedule.rank_kind);
    root["provenance"] = schedule.provenance;
    json ranks = json::array();
    for (const RankInfo& rank : schedule.ranks)
        ranks.push_back({{"node", rank.node}, {"core", rank.core}, {"pu", rank.pu}, {"numa", rank.numa}, {"package", rank.package}});
    root["ranks"] = ranks;
    json buffers = json::array();
    for (const Buffer& buffer : schedule.buffers())
        buffers.push_back({{"name", buffer.name}, {"owner", buffer.owner}, {"bytes", buffer.bytes},
                           {"role", to_string(buffer.role)}, {"numa", buffer.numa}, {"shared", buffer.shared},
                           {"exposed", buffer.exposed}});
    root["buffers"] = buffers;
    auto range_json = [](const Range& range) { return json{range.buffer, range.offset, range.bytes}; };
    json tasks = json::array();
    for (int id = 0; id < schedule.task_count(); ++id) {
        const Task& task = schedule.task(id);
        json item = {{"id", id}, {"kind", to_string(task.kind)}, {"thread", task.thread}, {"deps", schedule.predecessors(id)}};
        if (task.peer >= 0) item["peer"] = task.peer;
        if (task.write.buffer >= 0) item["write"] = range_json(task.write);
        if (!task.reads.empty()) {
            item["reads"] = json::array();
            for (const Range& range : task.reads) item["reads"].push_back(range_json(range));
        }
        if (task.flops != 0) item["flops"] = task.flops;
        if (task.application) item["application"] = true;
        if (!task.label.empty()) item["label"] = task.label;
        tasks.push_back(item);
    }
    root["tasks"] = tasks;
    return root.dump(1) + "\n";
}

namespace {

// JSON numbers as a schedule holds them: nlohmann's get<int>() truncates 1.5
// to 1 and get<uint64_t>() wraps -1 to 2^64 - 1, so numbers are checked for
// their kind and range first.
int json_int(const nlohmann::json& value, const char* what) {
    const bool fits = value.is_number_unsigned() ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(INT_MAX)
                      : value.is_number_integer() ? value.get<std::int64_t>() >= INT_MIN && value.get<std::int64_t>() <= INT_MAX
                                                  : false;
    if (!fits) throw InputError(fmt::format("'{}' must be a whole number within int range (got {})", what, value.dump()));
    return value.get<int>();
}

std::uint64_t json_count(const nlohmann::json& value, const char* what) {
    if (!value.is_number_unsigned())
        throw InputError(fmt::format("'{}' must be a whole number >= 0 (got {})", what, value.dump()));
    return value.get<std::uint64_t>();
}

std::vector<int> json_ints(const nlohmann::json& value, const char* what) {
    if (!value.is_array()) throw InputError(fmt::format("'{}' must be a list of whole numbers (got {})", what, value.dump()));
    std::vector<int> out;
    for (const nlohmann::json& item : value) out.push_back(json_int(item, what));
    return out;
}

// An object holds only the keys it knows: a misspelt one fails by name.
void json_only_keys(const nlohmann::json& object, std::initializer_list<const char*> known) {
    if (!object.is_object()) return;  // the reads that follow say what it should be
    for (const auto& [key, value] : object.items())
        if (!is_known_key(key, known))
            throw InputError(fmt::format("unknown key '{}' (this object takes {})", key, key_list(known)));
}

double json_flops(const nlohmann::json& value) {
    if (!value.is_number() || !(value.get<double>() >= 0 && value.get<double>() <= 1e18))
        throw InputError(fmt::format("'flops' must be a number from 0 to 1e18 (got {})", value.dump()));
    return value.get<double>();
}

}  // namespace

namespace {

// One schedule object; `which` names it within a list ("" for a lone one).
Schedule schedule_from_json_value(const nlohmann::json& root, const std::string& which) {
    using nlohmann::json;
    Schedule schedule;
    const std::string prefix = which.empty() ? "" : which + ", ";
    std::string where = which.empty() ? "top level" : which;
    try {
        // Read through json_int: value<int>() on a huge or fractional number is undefined.
        const int version = root.contains("version") ? json_int(root["version"], "version") : 0;
        if (root.value("format", "") != text_magic || !readable_version(version))
            throw InputError(fmt::format("not a numacoll schedule of a version this numacoll reads (expected format "
                                         "'{}', version {} to {})",
                                         text_magic, oldest_readable_version, format_version));
        json_only_keys(root, {"format", "version", "spec", "nodes", "rank_kind", "provenance", "ranks", "buffers", "tasks"});
        where = prefix + "spec";
        const json& spec = root.at("spec");
        json_only_keys(spec, {"collective", "algorithm", "bytes", "root", "op", "datatype", "options"});
        schedule.spec.collective = parse_collective(spec.at("collective").get<std::string>());
        schedule.spec.algorithm = spec.at("algorithm").get<std::string>();
        schedule.spec.bytes = json_count(spec.at("bytes"), "bytes");
        schedule.spec.root = json_int(spec.at("root"), "root");
        schedule.spec.op = parse_reduce_op(spec.at("op").get<std::string>());
        if (version >= 4) schedule.spec.datatype = parse_datatype(spec.at("datatype").get<std::string>());
        schedule.spec.options = spec.at("options").get<std::map<std::string, std::string>>();
        schedule.nodes = json_int(root.at("nodes"), "nodes");
        if (version >= 3) schedule.rank_kind = parse_rank_kind(root.at("rank_kind").get<std::string>());
        schedule.provenance = root.at("provenance").get<std::map<std::string, std::string>>();
        where = prefix + "ranks";
        for (const json& rank : root.at("ranks")) {
            json_only_keys(rank, {"node", "core", "pu", "numa", "package"});
            schedule.ranks.push_back({json_int(rank.at("node"), "node"), json_int(rank.at("core"), "core"), json_int(rank.at("pu"), "pu"),
                                      json_int(rank.at("numa"), "numa"), json_int(rank.at("package"), "package")});
        }
        where = prefix + "buffers";
        for (const json& item : root.at("buffers")) {
            json_only_keys(item, {"name", "owner", "bytes", "role", "numa", "shared", "exposed"});
            Buffer buffer{item.at("name").get<std::string>(), json_int(item.at("owner"), "owner"),
                          json_count(item.at("bytes"), "bytes"), parse_buffer_role(item.at("role").get<std::string>()),
                          json_int(item.at("numa"), "numa")};
            for (auto [name, attribute] : {std::pair{"shared", &buffer.shared}, {"exposed", &buffer.exposed}}) {
                if (!item.contains(name)) continue;
                if (!item.at(name).is_boolean()) throw InputError(fmt::format("'{}' must be true or false", name));
                *attribute = item.at(name).get<bool>();
            }
            schedule.add_buffer(std::move(buffer));
        }
        auto range_of = [](const json& value) {
            return Range{json_int(value.at(0), "buffer"), json_count(value.at(1), "offset"), json_count(value.at(2), "bytes")};
        };
        for (const json& item : root.at("tasks")) {
            where = prefix + fmt::format("task {}", item.contains("id") ? item.at("id").dump() : "without id");
            json_only_keys(item, {"id", "kind", "thread", "deps", "peer", "write", "reads", "flops", "application", "label"});
            Task task;
            task.kind = parse_task_kind(item.at("kind").get<std::string>());
            task.thread = json_int(item.at("thread"), "thread");
            task.peer = item.contains("peer") ? json_int(item.at("peer"), "peer") : -1;
            if (item.contains("write")) task.write = range_of(item.at("write"));
            if (item.contains("reads"))
                for (const json& range : item.at("reads")) task.reads.push_back(range_of(range));
            task.flops = item.contains("flops") ? json_flops(item.at("flops")) : 0.0;
            if (item.contains("application")) {
                if (!item.at("application").is_boolean()) throw InputError("'application' must be true or false");
                task.application = item.at("application").get<bool>();
            }
            task.label = item.value("label", "");
            upgrade_task(task, version);
            add_task_from(schedule, std::move(task), json_ints(item.at("deps"), "deps"), json_int(item.at("id"), "id"),
                          [&](const std::string& what) { throw InputError(what); });
        }
    } catch (const json::exception& error) {
        throw InputError(fmt::format("schedule JSON, {}: {}", where, error.what()));
    } catch (const Error& error) {
        throw InputError(fmt::format("schedule JSON, {}: {}", where, error.what()));
    }
    try {
        check_references(schedule);
    } catch (const InputError& error) {
        throw InputError(fmt::format("schedule JSON{}: {}", which.empty() ? "" : ", " + which, error.what()));
    }
    return schedule;
}

}  // namespace

std::vector<Schedule> schedules_from_json(const std::string& text) {
    using nlohmann::json;
    json root;
    try {
        root = json::parse(text);
    } catch (const json::exception& error) {
        throw InputError(fmt::format("schedule JSON is malformed: {}", error.what()));
    }
    std::vector<Schedule> schedules;
    if (!root.is_array()) {
        schedules.push_back(schedule_from_json_value(root, ""));
        return schedules;
    }
    if (root.empty()) throw InputError("schedule JSON: the list holds no schedule");
    for (std::size_t i = 0; i < root.size(); ++i)
        schedules.push_back(schedule_from_json_value(root[i], fmt::format("schedule {} of the list", i + 1)));
    return schedules;
}

Schedule schedule_from_json(const std::string& text) {
    std::vector<Schedule> schedules = schedules_from_json(text);
    if (schedules.size() != 1)
        throw InputError(fmt::format("the schedule JSON holds {} schedules where one is expected", schedules.size()));
    return std::move(schedules.front());
}

std::string to_dot(const Schedule& schedule, const std::vector<int>& llc_domain_of_rank) {
    if (!llc_domain_of_rank.empty() && static_cast<int>(llc_domain_of_rank.size()) != schedule.rank_count())
        throw Error(fmt::format("to_dot: {} LLC domains given for {} ranks", llc_domain_of_rank.size(),
                                schedule.rank_count()));
    const TaskGraph& graph = schedule.graph();
    auto color = [](TaskKind kind) {
        switch (kind) {
            case TaskKind::reduce: return "lightsalmon";
            case TaskKind::copy: return "lightblue";
            case TaskKind::flag: return "lightgrey";
            case TaskKind::net: return "palegreen";
            case TaskKind::compute: return "plum";
            case TaskKind::wait: return "khaki";
        }
        return "white";
    };
    auto vertex_writer = [&](std::ostream& out, TaskGraph::vertex_descriptor v) {
        const Task& task = schedule.task(static_cast<int>(v));
        std::string label = fmt::format("{} {} r{}", v, to_string(task.kind), task.thread);
        if (task.peer >= 0) label += fmt::format("->r{}", task.peer);
        if (task.write.buffer >= 0) label += fmt::format("\\n{}B", task.write.bytes);
        if (!task.label.empty()) label += "\\n" + task.label.text();
        out << fmt::format("[label=\"{}\", shape={}, style=filled, fillcolor={}]", label,
                           task.kind == TaskKind::flag ? "ellipse" : "box", color(task.kind));
    };
    auto graph_writer = [&](std::ostream& out) {
        out << fmt::format("label=\"{} {} {} bytes, {} ranks on {} node(s)\";\n", to_string(schedule.spec.collective),
                           schedule.spec.algorithm, schedule.spec.bytes, schedule.rank_count(), schedule.nodes);
        out << "rankdir=TB;\nfontname=\"Helvetica\";\nnode [fontname=\"Helvetica\", fontsize=10];\n";
        // A legend: how to read a task's box, and the colour of each kind present.
        out << "subgraph cluster_legend {\nlabel=\"legend\";\nfontsize=9;\n"
               "legend_reading [shape=note, fontsize=9, label=\"ID KIND rT: task ID, run by rank T\\l"
               "->rP: the rank it signals (flag) or sends to (net)\\lNB: the bytes it writes\\l"
               "label: chunk cN, phase, hierarchy level, round rN\\l\"];\n";
        bool present[6] = {};
        for (int id = 0; id < schedule.task_count(); ++id) present[static_cast<int>(schedule.task(id).kind)] = true;
        for (const TaskKind kind : {TaskKind::reduce, TaskKind::copy, TaskKind::flag, TaskKind::net, TaskKind::compute,
                                    TaskKind::wait})
            if (present[static_cast<int>(kind)])
                out << fmt::format("legend_{0} [label=\"{0}\", shape={1}, style=filled, fillcolor={2}, fontsize=9];\n",
                                   to_string(kind), kind == TaskKind::flag ? "ellipse" : "box", color(kind));
        out << "}\n";
        // Each task sits in the cluster of the rank that runs it: node, then
        // LLC domain (or NUMA node). A node listed first in a cluster stays
        // there when its attributes follow at the top level.
        const bool by_llc = !llc_domain_of_rank.empty();
        std::map<std::pair<int, int>, std::vector<int>> tasks_of_group;  // (node, domain) -> tasks
        for (int id = 0; id < schedule.task_count(); ++id) {
            const int rank = schedule.task(id).thread;
            const RankInfo& info = schedule.ranks[rank];
            tasks_of_group[{info.node, by_llc ? llc_domain_of_rank[rank] : info.numa}].push_back(id);
        }
        int open_node = -1;
        for (const auto& [group, tasks] : tasks_of_group) {
            const auto [node, domain] = group;
            if (node != open_node) {
                if (open_node >= 0) out << "}\n";
                out << fmt::format("subgraph cluster_node{0} {{\nlabel=\"node {0}\";\nstyle=rounded;\n", node);
                open_node = node;
            }
            const std::string name = domain < 0 ? "NUMA node unknown"
                                                : fmt::format("{} {}", by_llc ? "LLC domain" : "NUMA node", domain);
            out << fmt::format("subgraph cluster_node{}_{}{} {{\nlabel=\"{}\";\nstyle=dashed;\n", node,
                               by_llc ? "llc" : "numa", domain < 0 ? std::string("none") : std::to_string(domain), name);
            for (int id : tasks) out << id << ";\n";
            out << "}\n";
        }
        if (open_node >= 0) out << "}\n";
    };
    std::ostringstream out;
    boost::write_graphviz(out, graph, vertex_writer, boost::default_writer(), graph_writer);
    return out.str();
}

std::vector<Schedule> schedules_from_file(const std::string& path) {
    const std::string text = read_text_file(path, "schedule", schedule_file_cap_bytes);
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && (text[first] == '{' || text[first] == '[');
    return json ? schedules_from_json(text) : schedules_from_text(text);
}

}  // namespace numacoll::sched

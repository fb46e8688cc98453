#include "tune/selection_table.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <charconv>
#include <functional>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <tuple>
#include <algorithm>

#include "common/error.hpp"
#include "results/result_row.hpp"

namespace numacoll::tune {

namespace {

std::map<std::string, std::string> options_from(const std::string& text, int line) {
    std::map<std::string, std::string> options;
    std::istringstream items(text);
    for (std::string item; std::getline(items, item, ';');) {
        const auto equals = item.find('=');
        if (equals == std::string::npos || equals == 0)
            throw InputError(fmt::format("selection table line {}: option '{}' is not key=value", line, item));
        options[item.substr(0, equals)] = item.substr(equals + 1);
    }
    return options;
}

const std::vector<std::string>& columns() {
    static const std::vector<std::string> names = {
        "collective", "nodes",     "ranks_per_node",    "ranks",        "bytes",  "bytes_to", "algorithm",
        "options",    "time_ns",   "runner_up",         "runner_up_options", "runner_up_ns", "margin"};
    return names;
}

// Where the row's choice ends: the size before the next row of the same
// collective and shape (numacoll's sizes; the next row starts there).
std::optional<std::uint64_t> bytes_to(const std::vector<SelectionRow>& rows, std::size_t index) {
    const SelectionRow& row = rows[index];
    if (index + 1 >= rows.size()) return std::nullopt;
    const SelectionRow& next = rows[index + 1];
    if (next.collective != row.collective || next.nodes != row.nodes || next.ranks_per_node != row.ranks_per_node ||
        next.bytes <= row.bytes)
        return std::nullopt;
    return next.bytes - 1;
}

std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const auto comma = line.find(',', start);
        fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return fields;
}

std::uint64_t whole_field(const std::string& field, const char* what, const char* table, int number) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc{} || end != field.data() + field.size() || field.empty())
        throw InputError(fmt::format("{} line {}: {} '{}' is not a whole number", table, number, what, field));
    return value;
}

double time_field(const std::string& field, const char* what, const char* table, int number) {
    double value = 0;
    const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (error != std::errc{} || end != field.data() + field.size() || field.empty() || !std::isfinite(value) || value < 0)
        throw InputError(fmt::format("{} line {}: {} '{}' is not a time", table, number, what, field));
    return value;
}

// Nodes and ranks per node as a table states them: whole, and a shape a layout can have.
std::pair<int, int> shape_fields(const std::string& nodes_text, const std::string& per_node_text, const char* table,
                                 int number) {
    const std::uint64_t nodes = whole_field(nodes_text, "nodes", table, number);
    const std::uint64_t per_node = whole_field(per_node_text, "ranks_per_node", table, number);
    if (nodes < 1 || nodes > (1u << 20) || per_node < 1 || per_node > (1u << 20))
        throw InputError(fmt::format("{} line {}: {} nodes of {} ranks is not a shape", table, number, nodes, per_node));
    return {static_cast<int>(nodes), static_cast<int>(per_node)};
}

sched::Collective collective_field(const std::string& text, const char* table, int number) {
    try {
        return sched::parse_collective(text);
    } catch (const Error& error) {
        throw InputError(fmt::format("{} line {}: {}", table, number, error.what()));
    }
}

// Each data line of a table numacoll tune wrote, split into fields, with its
// number: InputError for a header that is not `header`, a line of another
// width, or no text at all.
void for_each_row(const std::string& text, const std::vector<std::string>& header, const char* table,
                  const std::function<void(const std::vector<std::string>&, int)>& row) {
    std::istringstream lines(text);
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::vector<std::string> fields = split_fields(line);
        if (number == 1) {
            if (fields != header)
                throw InputError(fmt::format("not a numacoll {}: its first line is not the header numacoll tune writes",
                                             table));
            continue;
        }
        if (line.empty()) continue;
        if (fields.size() != header.size())
            throw InputError(fmt::format("{} line {}: {} fields, not {}", table, number, fields.size(), header.size()));
        row(fields, number);
    }
    if (number == 0) throw InputError(fmt::format("the {} is empty", table));
}

}  // namespace

std::string describe(const Candidate& candidate) {
    std::string out = candidate.algorithm;
    for (const auto& [key, value] : candidate.options) out += fmt::format(" {}={}", key, value);
    return out;
}

std::optional<double> SelectionRow::margin() const {
    if (!runner_up_ns || time_ns <= 0) return std::nullopt;
    return *runner_up_ns / time_ns - 1.0;
}

std::vector<SelectionRow> select_winners(const std::vector<TunePoint>& points) {
    std::vector<SelectionRow> rows;
    for (const TunePoint& point : points) {
        const CandidateTime* best = nullptr;
        for (const CandidateTime& entry : point.times)
            if (entry.time_ns && (best == nullptr || *entry.time_ns < *best->time_ns)) best = &entry;
        if (best == nullptr) continue;
        const CandidateTime* second = nullptr;
        for (const CandidateTime& entry : point.times)
            if (entry.time_ns && entry.candidate.algorithm != best->candidate.algorithm &&
                (second == nullptr || *entry.time_ns < *second->time_ns))
                second = &entry;
        SelectionRow row;
        row.collective = point.collective;
        row.nodes = point.nodes;
        row.ranks_per_node = point.ranks_per_node;
        row.bytes = point.bytes;
        row.winner = best->candidate;
        row.time_ns = *best->time_ns;
        if (second != nullptr) {
            row.runner_up = second->candidate;
            row.runner_up_ns = second->time_ns;
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

std::string selection_csv(const std::vector<SelectionRow>& rows) {
    std::string out;
    for (const auto& name : columns()) out += (out.empty() ? "" : ",") + name;
    out += "\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SelectionRow& row = rows[i];
        const auto to = bytes_to(rows, i);
        const auto margin = row.margin();
        out += fmt::format("{},{},{},{},{},{},{},{},{:.3f},{},{},{},{}\n", sched::to_string(row.collective), row.nodes,
                           row.ranks_per_node, row.nodes * row.ranks_per_node, row.bytes, to ? std::to_string(*to) : "",
                           row.winner.algorithm, results::options_text(row.winner.options), row.time_ns,
                           row.runner_up ? row.runner_up->algorithm : "",
                           row.runner_up ? results::options_text(row.runner_up->options) : "",
                           row.runner_up_ns ? fmt::format("{:.3f}", *row.runner_up_ns) : "",
                           margin ? fmt::format("{:.4f}", *margin) : "");
    }
    return out;
}

std::string selection_json(const std::vector<SelectionRow>& rows, const std::map<std::string, std::string>& about) {
    nlohmann::ordered_json root;
    root["format"] = "numacoll-selection";
    root["version"] = 1;
    root["about"] = about;
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SelectionRow& row = rows[i];
        nlohmann::ordered_json item;
        item["collective"] = sched::to_string(row.collective);
        item["nodes"] = row.nodes;
        item["ranks_per_node"] = row.ranks_per_node;
        item["ranks"] = row.nodes * row.ranks_per_node;
        item["bytes"] = row.bytes;
        if (const auto to = bytes_to(rows, i)) item["bytes_to"] = *to;
        item["algorithm"] = row.winner.algorithm;
        item["options"] = row.winner.options;
        item["time_ns"] = row.time_ns;
        if (row.runner_up) {
            item["runner_up"] = row.runner_up->algorithm;
            item["runner_up_options"] = row.runner_up->options;
            item["runner_up_ns"] = *row.runner_up_ns;
            item["margin"] = *row.margin();
        }
        list.push_back(std::move(item));
    }
    root["rows"] = std::move(list);
    return root.dump(2) + "\n";
}

std::vector<SelectionRow> selection_from_json(const std::string& text, const std::string& label) {
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        throw InputError(fmt::format("{} is not JSON: write it with numacoll tune (selection.json)", label));
    }
    if (!root.is_object() || root.value("format", "") != "numacoll-selection" || !root.contains("rows") ||
        !root["rows"].is_array())
        throw InputError(fmt::format("{} is not a numacoll selection table (numacoll tune writes selection.json)", label));
    std::vector<SelectionRow> rows;
    int number = 0;
    for (const auto& item : root["rows"]) {
        ++number;
        try {
            SelectionRow row;
            row.collective = sched::parse_collective(item.at("collective").get<std::string>());
            row.nodes = item.at("nodes").get<int>();
            row.ranks_per_node = item.at("ranks_per_node").get<int>();
            row.bytes = item.at("bytes").get<std::uint64_t>();
            row.winner.algorithm = item.at("algorithm").get<std::string>();
            if (item.contains("options"))
                row.winner.options = item.at("options").get<std::map<std::string, std::string>>();
            row.time_ns = item.at("time_ns").get<double>();
            if (row.nodes < 1 || row.ranks_per_node < 1 || row.winner.algorithm.empty())
                throw InputError("a shape below 1 or no algorithm");
            rows.push_back(std::move(row));
        } catch (const std::exception& error) {
            throw InputError(fmt::format("{}: row {} is not a selection row ({})", label, number, error.what()));
        }
    }
    return rows;
}

const SelectionRow* row_for_call(const std::vector<SelectionRow>& rows, sched::Collective collective, int nodes,
                                 int ranks, std::uint64_t bytes) {
    // The nearest shape: the same node count first, then the nearest rank count.
    const SelectionRow* shape = nullptr;
    const auto distance = [&](const SelectionRow& row) {
        return std::make_pair(row.nodes == nodes ? 0 : 1, std::abs(row.ranks() - ranks));
    };
    for (const SelectionRow& row : rows)
        if (row.collective == collective && (shape == nullptr || distance(row) < distance(*shape))) shape = &row;
    if (shape == nullptr) return nullptr;
    const SelectionRow* chosen = nullptr;
    for (const SelectionRow& row : rows) {
        if (row.collective != collective || row.nodes != shape->nodes || row.ranks_per_node != shape->ranks_per_node)
            continue;
        if (row.bytes <= bytes && (chosen == nullptr || row.bytes >= chosen->bytes)) chosen = &row;
    }
    if (chosen != nullptr) return chosen;
    for (const SelectionRow& row : rows)  // every row larger: the smallest
        if (row.collective == collective && row.nodes == shape->nodes && row.ranks_per_node == shape->ranks_per_node &&
            (chosen == nullptr || row.bytes < chosen->bytes))
            chosen = &row;
    return chosen;
}

std::vector<SelectionRow> selection_from_csv(const std::string& text) {
    constexpr const char* table = "selection table";
    std::vector<SelectionRow> rows;
    for_each_row(text, columns(), table, [&](const std::vector<std::string>& fields, int number) {
        SelectionRow row;
        row.collective = collective_field(fields[0], table, number);
        std::tie(row.nodes, row.ranks_per_node) = shape_fields(fields[1], fields[2], table, number);
        row.bytes = whole_field(fields[4], "bytes", table, number);
        if (fields[6].empty()) throw InputError(fmt::format("{} line {}: no algorithm", table, number));
        row.winner = {fields[6], options_from(fields[7], number)};
        row.time_ns = time_field(fields[8], "time_ns", table, number);
        if (!fields[9].empty()) {
            row.runner_up = Candidate{fields[9], options_from(fields[10], number)};
            row.runner_up_ns = time_field(fields[11], "runner_up_ns", table, number);
        }
        rows.push_back(std::move(row));
    });
    return rows;
}

namespace {
std::string optional_time(const std::optional<double>& ns) { return ns ? fmt::format("{:.3f}", *ns) : ""; }

const std::vector<std::string>& timing_columns() {
    static const std::vector<std::string> names = {"collective", "nodes",   "ranks_per_node", "bytes", "algorithm",
                                                   "options",    "time_ns", "p10_ns",         "p90_ns"};
    return names;
}
}  // namespace

std::string timings_csv(const std::vector<TunePoint>& points) {
    std::string out;
    for (const auto& name : timing_columns()) out += (out.empty() ? "" : ",") + name;
    out += "\n";
    for (const TunePoint& point : points)
        for (const CandidateTime& entry : point.times)
            out += fmt::format("{},{},{},{},{},{},{},{},{}\n", sched::to_string(point.collective), point.nodes,
                               point.ranks_per_node, point.bytes, entry.candidate.algorithm,
                               results::options_text(entry.candidate.options), optional_time(entry.time_ns),
                               optional_time(entry.p10_ns), optional_time(entry.p90_ns));
    return out;
}

std::vector<TunePoint> timings_from_csv(const std::string& text) {
    constexpr const char* table = "timings table";
    std::vector<TunePoint> points;
    for_each_row(text, timing_columns(), table, [&](const std::vector<std::string>& fields, int number) {
        const sched::Collective collective = collective_field(fields[0], table, number);
        const auto [nodes, per_node] = shape_fields(fields[1], fields[2], table, number);
        const std::uint64_t bytes = whole_field(fields[3], "bytes", table, number);
        if (points.empty() || points.back().collective != collective || points.back().nodes != nodes ||
            points.back().ranks_per_node != per_node || points.back().bytes != bytes)
            points.push_back({collective, nodes, per_node, bytes, {}});
        const auto time_or_none = [&](const std::string& field, const char* what) -> std::optional<double> {
            if (field.empty()) return std::nullopt;
            return time_field(field, what, table, number);
        };
        points.back().times.push_back({{fields[4], options_from(fields[5], number)},
                                       time_or_none(fields[6], "time_ns"),
                                       time_or_none(fields[7], "p10_ns"),
                                       time_or_none(fields[8], "p90_ns")});
    });
    return points;
}

Comparison compare_tables(const std::vector<SelectionRow>& first, const std::vector<SelectionRow>& second,
                          const std::vector<TunePoint>& first_timings) {
    Comparison comparison;
    const auto same_point = [](const auto& a, const auto& b) {
        return a.collective == b.collective && a.nodes == b.nodes && a.ranks_per_node == b.ranks_per_node &&
               a.bytes == b.bytes;
    };
    for (const SelectionRow& mine : first) {
        const auto theirs = std::find_if(second.begin(), second.end(), [&](const auto& row) { return same_point(row, mine); });
        if (theirs == second.end()) continue;
        ++comparison.common_points;
        if (theirs->winner.algorithm == mine.winner.algorithm) {
            ++comparison.agreeing_points;
            continue;
        }
        Disagreement disagreement{mine, *theirs, std::nullopt};
        const auto point = std::find_if(first_timings.begin(), first_timings.end(),
                                        [&](const TunePoint& p) { return same_point(p, mine); });
        if (point != first_timings.end()) {
            // The first table's time of the second's pick: the same variant, else
            // the fastest variant of that algorithm.
            std::optional<double> exact, fastest;
            const CandidateTime* best = nullptr;
            for (const CandidateTime& entry : point->times) {
                if (entry.candidate == mine.winner) best = &entry;
                if (!entry.time_ns || entry.candidate.algorithm != theirs->winner.algorithm) continue;
                if (entry.candidate == theirs->winner) exact = entry.time_ns;
                if (!fastest || *entry.time_ns < *fastest) fastest = entry.time_ns;
            }
            const std::optional<double> priced = exact ? exact : fastest;
            if (priced && mine.time_ns > 0) disagreement.cost = *priced / mine.time_ns - 1.0;
            disagreement.within_spread = priced && best != nullptr && best->p90_ns && *priced <= *best->p90_ns;
        }
        if (disagreement.within_spread) ++comparison.tied_points;
        comparison.disagreements.push_back(std::move(disagreement));
    }
    return comparison;
}

}  // namespace numacoll::tune

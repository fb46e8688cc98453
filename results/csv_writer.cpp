#include "results/csv_writer.hpp"

#include <fmt/format.h>

#include "common/error.hpp"

namespace numacoll::results {

std::string csv_field(const std::string& value) {
    if (value.find_first_of(",\"\n\r") == std::string::npos) return value;
    std::string out = "\"";
    for (char c : value) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

CsvWriter::CsvWriter(const std::string& path, std::vector<std::string> columns)
    : file_(path), columns_(std::move(columns)) {}

std::string CsvWriter::line(const std::vector<std::string>& fields) const {
    if (fields.size() != columns_.size())
        throw Error(fmt::format("a row of {} fields for {} columns in '{}'", fields.size(), columns_.size(), file_.path()));
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + csv_field(fields[i]);
    return out + "\n";
}

void CsvWriter::row(const std::vector<std::string>& fields) { rows({fields}); }

CsvWriter::~CsvWriter() {
    try {
        file_.commit_complete();
    } catch (const Error&) {
        // The run is failing already; its own error is the one to report.
    }
}

void CsvWriter::rows(const std::vector<std::vector<std::string>>& rows, bool completes_point) {
    std::string text = header_written_ ? "" : line(columns_);
    for (const auto& fields : rows) text += line(fields);
    file_.write(text);
    header_written_ = true;
    rows_written_ += static_cast<int>(rows.size());
    if (completes_point && rows_written_ > 0) file_.mark_complete();
}

void CsvWriter::finish() {
    if (!header_written_) rows({});
    file_.commit();
}

}  // namespace numacoll::results

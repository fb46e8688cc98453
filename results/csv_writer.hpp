// results::CsvWriter: a CSV file written row by row as results come in.
//
// The file is opened when the writer is made (a bad path fails before any
// work); the header goes out with the first row, so that a run that fails
// before its first point prints nothing to standard output; each write is
// of whole lines: a reader, or an interruption, never sees half a row. Regular files get
// the treatment of common/output_file.hpp: rows go to a temporary file
// that finish() renames into place, and once a row is written an
// interruption puts the finished rows in place instead of removing them.
// Standard output, pipes and devices receive each row as it is written.
#pragma once

#include <string>
#include <vector>

#include "common/output_file.hpp"

namespace numacoll::results {

// A CSV field, quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& value);

class CsvWriter {
public:
    CsvWriter(const std::string& path, std::vector<std::string> columns);

    // One row, as many fields as columns; Error when the write fails.
    void row(const std::vector<std::string>& fields);
    // Several rows in one write (a trace's tasks).
    void rows(const std::vector<std::vector<std::string>>& rows);
    // Puts the file in place; later rows are refused.
    void finish();
    int rows_written() const { return rows_written_; }

private:
    std::string line(const std::vector<std::string>& fields) const;

    OutputFile file_;
    std::vector<std::string> columns_;
    bool header_written_ = false;
    int rows_written_ = 0;
};

}  // namespace numacoll::results

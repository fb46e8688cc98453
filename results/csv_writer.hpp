// results::CsvWriter: a CSV file written row by row as results come in.
//
// The file is opened when the writer is made (a bad path fails before any
// work); the header goes out with the first row, so that a run that fails
// before its first point prints nothing to standard output; each write is
// of whole lines, and a reader never sees half a row. Regular files get
// the treatment of common/output_file.hpp: rows go to a temporary file
// that finish() renames into place. Rows that complete a point are marked
// so: an interruption, or a run that fails and destroys the writer before
// finish(), puts exactly the finished points in place. Standard output,
// pipes and devices receive each row as it is written.
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
    ~CsvWriter();
    CsvWriter(const CsvWriter&) = delete;
    CsvWriter& operator=(const CsvWriter&) = delete;

    // One row, a whole point: as many fields as columns; Error when the write fails.
    void row(const std::vector<std::string>& fields);
    // Several rows in one write; `completes_point` when the last of them ends
    // a point (a trace writes a large point in several batches).
    void rows(const std::vector<std::vector<std::string>>& rows, bool completes_point = true);
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

#include "results/mpi_report.hpp"

#include <fmt/format.h>

#include <sstream>

#include "common/error.hpp"

namespace numacoll::results {

namespace {

constexpr const char* report_header_line =
    "communicator,ranks,nodes,ranks_per_node,placement,collective,algorithm,datatype,size_bucket_bytes,calls,"
    "total_ns,median_ns,handed_back_because";
constexpr std::size_t report_columns = 13;

std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = line.find(',', start);
        fields.push_back(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) return fields;
        start = comma + 1;
    }
}

}  // namespace

std::uint64_t size_bucket(std::uint64_t bytes) {
    std::uint64_t bucket = 1;
    while (bucket < bytes && bucket < (std::uint64_t{1} << 62)) bucket <<= 1;
    return bytes == 0 ? 0 : bucket;
}

std::string report_datatype(sched::Collective collective, sched::Datatype datatype) {
    return sched::is_reduction(collective) ? sched::to_string(datatype) : "bytes";
}

std::string mpi_report_header() { return std::string(report_header_line) + "\n"; }

std::string mpi_report_line(const MpiReportRow& row) {
    const std::string shape = row.ranks_per_node == 0
                                  ? fmt::format("{},,", row.ranks)
                                  : fmt::format("{},{},{}", row.ranks, row.nodes, row.ranks_per_node);
    return fmt::format("{},{},{},{},{},{},{},{},{:.0f},{:.0f},{}\n", row.communicator, shape, row.placement,
                       row.collective, row.algorithm, row.datatype, row.bucket_bytes, row.calls, row.total_ns,
                       row.median_ns, row.reason);
}

std::vector<MpiReportRow> read_mpi_report(const std::string& text, const std::string& label) {
    std::istringstream lines(text);
    std::string line;
    std::vector<MpiReportRow> rows;
    int number = 0;
    while (std::getline(lines, line)) {
        ++number;
        const std::vector<std::string> fields = fields_of(line);
        if (number == 1) {
            if (line != report_header_line)
                throw InputError(fmt::format("{} is not a libnumacoll_mpi report (NUMACOLL_MPI_REPORT): its first "
                                             "line is not the report's header",
                                             label));
            continue;
        }
        if (line.empty()) continue;
        if (fields.size() != report_columns)
            throw InputError(
                fmt::format("{} line {}: {} fields where the report has {}", label, number, fields.size(), report_columns));
        MpiReportRow row;
        try {
            row.communicator = fields[0];
            row.ranks = std::stoi(fields[1]);
            row.nodes = fields[2].empty() ? 0 : std::stoi(fields[2]);
            row.ranks_per_node = fields[3].empty() ? 0 : std::stoi(fields[3]);
            row.placement = fields[4];
            row.collective = fields[5];
            row.algorithm = fields[6];
            row.datatype = fields[7];
            row.bucket_bytes = std::stoull(fields[8]);
            row.calls = std::stoull(fields[9]);
            row.total_ns = std::stod(fields[10]);
            row.median_ns = std::stod(fields[11]);
            row.reason = fields[12];
        } catch (const std::exception&) {
            throw InputError(fmt::format("{} line {}: a number of the report is not one", label, number));
        }
        rows.push_back(std::move(row));
    }
    if (number == 0) throw InputError(fmt::format("{} is empty: not a libnumacoll_mpi report", label));
    return rows;
}

}  // namespace numacoll::results

// What the catalog (algorithms/catalog.def) promises of every algorithm it
// registers, beside its proof (algorithm_proofs_test.cpp: the proof list is
// the registry) and its model (tests/models/registry_test.cpp): a row in
// the algorithm table of docs/usage.md, in the row of its collective, that
// names it in backquotes (a hier- algorithm: `hier-<flat>`).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/registry.hpp"

using namespace numacoll;

namespace {

// The rows of the table under "## Algorithms": each row's cells.
std::vector<std::vector<std::string>> algorithm_table_rows(const std::string& path) {
    std::ifstream file(path);
    std::vector<std::vector<std::string>> rows;
    std::string line;
    bool in_section = false;
    while (std::getline(file, line)) {
        if (line.rfind("## ", 0) == 0) in_section = line == "## Algorithms";
        if (!in_section || line.rfind("| ", 0) != 0) continue;
        std::vector<std::string> cells;
        std::stringstream cells_text(line.substr(1));
        std::string cell;
        while (std::getline(cells_text, cell, '|')) cells.push_back(cell);
        if (cells.size() >= 2) rows.push_back(cells);
    }
    return rows;
}

bool documented(const std::vector<std::vector<std::string>>& rows, const std::string& collective,
                const std::string& name) {
    for (const auto& row : rows) {
        if (row[0].find(" " + collective + " ") == std::string::npos) continue;
        if (row[1].find("`" + name + "`") != std::string::npos) return true;
        if (name.rfind("hier-", 0) == 0 && row[1].find("`hier-<flat>`") != std::string::npos) return true;
    }
    return false;
}

}  // namespace

TEST(Catalog, EveryAlgorithmHasARowInTheUsageTable) {
    const auto rows = algorithm_table_rows(std::string(NUMACOLL_SOURCE_DIR) + "/docs/usage.md");
    ASSERT_GT(rows.size(), 10u) << "docs/usage.md has no algorithm table under '## Algorithms'";
    for (const auto& info : algo::algorithm_registry())
        EXPECT_TRUE(documented(rows, sched::to_string(info.collective), info.name))
            << sched::to_string(info.collective) << " " << info.name
            << " has no row in docs/usage.md's algorithm table: add it to its collective's row";
    // The check can fail: a name the table does not have.
    EXPECT_FALSE(documented(rows, "allreduce", "no-such-algorithm"));
}

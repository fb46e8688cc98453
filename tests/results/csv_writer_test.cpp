// Result files are written as each row finishes, quoted where needed, and
// put in place whole.
#include "results/csv_writer.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/error.hpp"
#include "../support/files.hpp"

using namespace numacoll;
namespace fs = std::filesystem;

namespace {

// This process's scratch folder, removed when the process ends.
const fs::path& scratch_dir() {
    struct Folder {
        fs::path path = fs::temp_directory_path() / ("numacoll-csv-" + std::to_string(::getpid()));
        ~Folder() {
            std::error_code ignored;
            fs::remove_all(path, ignored);
        }
    };
    static const Folder folder;
    return folder.path;
}

fs::path scratch(const std::string& name) {
    const fs::path& dir = scratch_dir();
    fs::create_directories(dir);
    return dir / name;
}

using numacoll::test_support::slurp;

// The one temporary beside `path`, or an empty path.
fs::path temporary_of(const fs::path& path) {
    for (const auto& entry : fs::directory_iterator(path.parent_path()))
        if (entry.path().filename().string().rfind(path.filename().string() + ".tmp", 0) == 0) return entry.path();
    return {};
}

}  // namespace

TEST(CsvWriter, RowsAreOnDiskAsSoonAsTheyAreWritten) {
    const fs::path path = scratch("rows.csv");
    results::CsvWriter csv(path.string(), {"a", "b"});
    csv.row({"1", "x,y"});
    const fs::path temporary = temporary_of(path);
    ASSERT_FALSE(temporary.empty());
    EXPECT_EQ(slurp(temporary), "a,b\n1,\"x,y\"\n");  // already there, before the end
    EXPECT_FALSE(fs::exists(path));
    csv.row({"2", "say \"hi\""});
    csv.finish();
    EXPECT_EQ(slurp(path), "a,b\n1,\"x,y\"\n2,\"say \"\"hi\"\"\"\n");
    EXPECT_TRUE(temporary_of(path).empty());
    EXPECT_EQ(csv.rows_written(), 2);
}

TEST(CsvWriter, ARowOfTheWrongWidthIsRefused) {
    results::CsvWriter csv(scratch("width.csv").string(), {"a", "b"});
    EXPECT_THROW(csv.row({"only one"}), Error);
}

TEST(CsvWriter, FieldsAreQuotedOnlyWhenTheyMustBe) {
    EXPECT_EQ(results::csv_field("plain"), "plain");
    EXPECT_EQ(results::csv_field("a;b=c"), "a;b=c");
    EXPECT_EQ(results::csv_field("two\nlines"), "\"two\nlines\"");
}

TEST(CsvWriter, ARunThatFailsKeepsItsFinishedRows) {
    const fs::path path = scratch("failed.csv");
    try {
        results::CsvWriter csv(path.string(), {"point", "time_ns"});
        csv.row({"1", "10"});
        csv.row({"2", "20"});
        throw Error("point 3 failed");
    } catch (const Error&) {
    }
    EXPECT_EQ(slurp(path), "point,time_ns\n1,10\n2,20\n");
    EXPECT_TRUE(temporary_of(path).empty());
    // A run that fails before its first row leaves nothing.
    const fs::path none = scratch("nothing.csv");
    { results::CsvWriter csv(none.string(), {"point"}); }
    EXPECT_FALSE(fs::exists(none));
    EXPECT_TRUE(temporary_of(none).empty());
}

// OutputFolder: a folder shows one run's files. A commit replaces the
// earlier run's files and keeps the user's; a run that does not commit
// leaves the earlier files as they were and what it finished in
// unfinished-PID; a second run into a held folder is refused; links and
// devices among the targets are written through.
#include "common/output_folder.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "common/error.hpp"
#include "common/output_file.hpp"
#include "../support/files.hpp"

using namespace numacoll;
namespace fs = std::filesystem;

namespace {

// This process's scratch folder, removed when its tests end.
fs::path scratch() { return fs::temp_directory_path() / fmt::format("numacoll-output-folder-{}", ::getpid()); }

class RemoveScratch : public ::testing::Environment {
public:
    void TearDown() override {
        std::error_code ignored;
        fs::remove_all(scratch(), ignored);
    }
};
[[maybe_unused]] const auto* const remove_scratch = ::testing::AddGlobalTestEnvironment(new RemoveScratch);

fs::path fresh(const std::string& name) {
    const fs::path path = scratch() / name;
    std::error_code ignored;
    fs::remove_all(path, ignored);
    fs::create_directories(path.parent_path());
    return path;
}

using numacoll::test_support::slurp;

void put(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The names in a folder, hidden ones included.
std::set<std::string> names_in(const fs::path& folder) {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename().string());
    return names;
}

// One whole run: writes `files` (name -> text) and commits.
void run(const fs::path& folder, const std::map<std::string, std::string>& files, OutputFolder::Scope scope = {}) {
    OutputFolder out(folder.string(), "a test run", std::move(scope));
    for (const auto& [name, text] : files) write_output_file(out.file(name), text);
    out.commit();
}

}  // namespace

TEST(OutputFolder, ASecondRunReplacesTheFirstRunsFilesAndKeepsTheUsers) {
    const fs::path folder = fresh("replace");
    run(folder, {{"table.csv", "a\n"}, {"tune-bcast.png", "picture"}});
    put(folder / "notes.txt", "mine");
    run(folder, {{"table.csv", "b\n"}, {"tune-reduce.png", "picture"}});
    EXPECT_EQ(names_in(folder), (std::set<std::string>{"table.csv", "tune-reduce.png", "notes.txt", ".numacoll-run"}));
    EXPECT_EQ(slurp(folder / "table.csv"), "b\n");
    EXPECT_EQ(slurp(folder / "notes.txt"), "mine");
    const std::string manifest = slurp(folder / ".numacoll-run");
    EXPECT_NE(manifest.find("\ntable.csv\n"), std::string::npos);
    EXPECT_EQ(manifest.find("tune-bcast.png"), std::string::npos);
    EXPECT_EQ(manifest.find("notes.txt"), std::string::npos);
}

TEST(OutputFolder, ARunThatDoesNotCommitLeavesTheEarlierFilesAndItsFinishedOnesApart) {
    const fs::path folder = fresh("unfinished");
    run(folder, {{"table.csv", "earlier\n"}, {"summary.txt", "earlier"}});
    {
        OutputFolder out(folder.string(), "an interrupted run");
        write_output_file(out.file("table.csv"), "finished rows\n");
        // The folder still shows the earlier run, whole.
        EXPECT_EQ(slurp(folder / "table.csv"), "earlier\n");
    }
    EXPECT_EQ(slurp(folder / "table.csv"), "earlier\n");
    EXPECT_EQ(slurp(folder / "summary.txt"), "earlier");
    const fs::path unfinished = folder / fmt::format("unfinished-{}", ::getpid());
    ASSERT_TRUE(fs::is_directory(unfinished));
    EXPECT_EQ(slurp(unfinished / "table.csv"), "finished rows\n");
    EXPECT_TRUE(fs::exists(unfinished / ".numacoll-unfinished"));
    for (const std::string& name : names_in(folder)) EXPECT_FALSE(name.starts_with(".numacoll-run-")) << name;
    // The next run that finishes removes it.
    run(folder, {{"table.csv", "next\n"}});
    EXPECT_FALSE(fs::exists(unfinished));
    EXPECT_EQ(names_in(folder), (std::set<std::string>{"table.csv", ".numacoll-run"}));
}

TEST(OutputFolder, ARunThatFinishedNothingLeavesNoFolderItMade) {
    const fs::path folder = fresh("made") / "deeper";
    { OutputFolder out(folder.string(), "a run that fails at once"); }
    EXPECT_FALSE(fs::exists(folder));
}

TEST(OutputFolder, ASecondRunIntoAHeldFolderIsRefused) {
    const fs::path folder = fresh("held");
    OutputFolder first(folder.string(), "the first run");
    try {
        OutputFolder second(folder.string(), "the second run");
        FAIL() << "the second run was let in";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("being written by another numacoll run"), std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find(std::to_string(::getpid())), std::string::npos) << error.what();
    }
    write_output_file(first.file("table.csv"), "first\n");
    first.commit();
    EXPECT_EQ(slurp(folder / "table.csv"), "first\n");
}

TEST(OutputFolder, AFolderThatIsALinkIsWrittenAtItsTarget) {
    const fs::path target = fresh("link-target");
    const fs::path link = fresh("link");
    fs::create_directories(target);
    fs::create_directory_symlink(target, link);
    run(link, {{"table.csv", "through the link\n"}});
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(slurp(target / "table.csv"), "through the link\n");
}

TEST(OutputFolder, AnEarlierFileThatIsNowALinkIsWrittenThrough) {
    const fs::path folder = fresh("file-link");
    run(folder, {{"table.csv", "a\n"}});
    const fs::path elsewhere = fresh("file-link-target.csv");
    put(elsewhere, "old");
    fs::remove(folder / "table.csv");
    fs::create_symlink(elsewhere, folder / "table.csv");
    run(folder, {{"table.csv", "b\n"}});
    EXPECT_TRUE(fs::is_symlink(folder / "table.csv"));
    EXPECT_EQ(slurp(elsewhere), "b\n");
}

TEST(OutputFolder, AScopeReplacesOnlyItsFiles) {
    const fs::path folder = fresh("scope");
    run(folder, {{"validation.csv", "rows\n"}, {"latency.png", "old picture"}, {"best-allreduce.png", "old"}});
    OutputFolder::Scope pictures;
    pictures.replaces = [](const std::string& name) { return name.ends_with(".png"); };
    run(folder, {{"latency.png", "new picture"}}, pictures);
    EXPECT_EQ(names_in(folder), (std::set<std::string>{"validation.csv", "latency.png", ".numacoll-run"}));
    EXPECT_EQ(slurp(folder / "validation.csv"), "rows\n");
    EXPECT_NE(slurp(folder / ".numacoll-run").find("validation.csv"), std::string::npos);
}

TEST(OutputFolder, SaysWhichInputsARunWouldRemove) {
    const fs::path folder = fresh("inputs");
    run(folder, {{"params-calibrated.json", "{}"}});
    put(folder / "mine.json", "{}");
    OutputFolder out(folder.string(), "a run reading inputs");
    EXPECT_TRUE(out.would_remove((folder / "params-calibrated.json").string()));
    EXPECT_TRUE(out.would_remove((folder / "." / "params-calibrated.json").string()));
    EXPECT_FALSE(out.would_remove((folder / "mine.json").string()));
    EXPECT_FALSE(out.would_remove("/etc/hostname"));
}

TEST(OutputFolder, RefusesAFileOrAnUnwritablePlace) {
    const fs::path file = fresh("a-file");
    put(file, "x");
    EXPECT_THROW(OutputFolder(file.string(), "a run"), UsageError);
    EXPECT_THROW(OutputFolder((file / "below").string(), "a run"), UsageError);
    EXPECT_THROW(OutputFolder("", "a run"), UsageError);
    EXPECT_EQ(slurp(file), "x");
}

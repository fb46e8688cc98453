// OutputFile writes through what is not a regular file, follows symlinks,
// keeps a replaced file's mode, never leaves a temporary behind, and
// touches nothing until commit().
#include "common/output_file.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <csignal>
#include <sstream>
#include <thread>

#include "common/error.hpp"
#include "../support/files.hpp"

using namespace numacoll;
namespace fs = std::filesystem;

namespace {

// This process's scratch folder, removed when the process ends.
const fs::path& scratch_dir() {
    struct Folder {
        fs::path path = fs::temp_directory_path() / fmt::format("numacoll-output-file-{}", ::getpid());
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
    const fs::path path = dir / name;
    std::error_code ignored;
    fs::remove(path, ignored);
    return path;
}

using numacoll::test_support::slurp;

// Names in the folder of `path` that start with its file name and hold ".tmp".
int temporaries_beside(const fs::path& path) {
    int count = 0;
    for (const auto& entry : fs::directory_iterator(path.parent_path())) {
        const std::string name = entry.path().filename().string();
        if (name.rfind(path.filename().string() + ".tmp", 0) == 0) ++count;
    }
    return count;
}

}  // namespace

TEST(OutputFile, WritesANewFileOnCommit) {
    const fs::path path = scratch("new.csv");
    {
        OutputFile file(path.string());
        EXPECT_FALSE(file.writes_through());
        file.write("a,b\n");
        file.write("1,2\n");
        EXPECT_FALSE(fs::exists(path));  // nothing carries the name before commit
        file.commit();
    }
    EXPECT_EQ(slurp(path), "a,b\n1,2\n");
    EXPECT_EQ(temporaries_beside(path), 0);
}

TEST(OutputFile, WithoutCommitTheOldFileStaysAndNoTemporaryRemains) {
    const fs::path path = scratch("kept.txt");
    std::ofstream(path) << "old\n";
    {
        OutputFile file(path.string());
        file.write("new, but never committed\n");
    }
    EXPECT_EQ(slurp(path), "old\n");
    EXPECT_EQ(temporaries_beside(path), 0);
}

TEST(OutputFile, AReplacedFileKeepsItsMode) {
    const fs::path path = scratch("mode.txt");
    std::ofstream(path) << "old\n";
    ASSERT_EQ(::chmod(path.c_str(), 0640), 0);
    write_output_file(path.string(), "new\n");
    struct stat info {};
    ASSERT_EQ(::stat(path.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0640u);
    EXPECT_EQ(slurp(path), "new\n");
}

TEST(OutputFile, ASymlinkIsFollowedAndStaysALink) {
    const fs::path target = scratch("target.txt");
    const fs::path link = scratch("link.txt");
    std::ofstream(target) << "old\n";
    fs::create_symlink(target.filename(), link);  // relative, as people make them
    write_output_file(link.string(), "through the link\n");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(slurp(target), "through the link\n");

    // A dangling link: its target is created, the link stays.
    const fs::path missing = scratch("missing-target.txt");
    const fs::path dangling = scratch("dangling.txt");
    fs::create_symlink(missing, dangling);
    write_output_file(dangling.string(), "created\n");
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_EQ(slurp(missing), "created\n");
}

TEST(OutputFile, DiscardingAnEarlierOutputTouchesOnlyAFile) {
    const fs::path file = scratch("earlier-trace.csv");
    std::ofstream(file) << "earlier\n";
    discard_earlier_output(file.string());
    EXPECT_FALSE(fs::exists(file));
    discard_earlier_output(file.string());  // nothing there: nothing happens

    // Through a link, the file it leads to is emptied and the link stays.
    const fs::path target = scratch("earlier-target.csv");
    const fs::path link = scratch("earlier-link.csv");
    std::ofstream(target) << "earlier\n";
    fs::create_symlink(target, link);
    discard_earlier_output(link.string());
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(slurp(target), "");

    // A FIFO is someone's, and stays.
    const fs::path fifo = scratch("earlier-pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    discard_earlier_output(fifo.string());
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
}

TEST(OutputFile, AFifoIsWrittenThroughNotReplaced) {
    const fs::path fifo = scratch("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] { received = slurp(fifo); });
    {
        OutputFile file(fifo.string());
        EXPECT_TRUE(file.writes_through());
        file.write("row 1\n");
        file.commit();
    }
    reader.join();
    EXPECT_EQ(received, "row 1\n");
    struct stat info {};
    ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
    EXPECT_TRUE(S_ISFIFO(info.st_mode));
}

TEST(OutputFile, ADeviceIsWrittenThroughNotReplaced) {
    // A null device of our own (root only), never the system's /dev/null:
    // if this ever regressed, it would replace a scratch node, not the machine's.
    const fs::path device = scratch("null-device");
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
    write_output_file(device.string(), "discarded\n");
    struct stat info {};
    ASSERT_EQ(::lstat(device.c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
    EXPECT_EQ(temporaries_beside(device), 0);

    // Through a symlink, too.
    const fs::path link = scratch("null-link");
    fs::create_symlink(device, link);
    write_output_file(link.string(), "discarded\n");
    ASSERT_EQ(::lstat(device.c_str(), &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
    EXPECT_TRUE(fs::is_symlink(link));
}

TEST(OutputFile, AFullDeviceIsAnErrorNotASilentLoss) {
    if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    OutputFile file("/dev/full");
    EXPECT_TRUE(file.writes_through());
    EXPECT_THROW(file.write("lost\n"), Error);
}

TEST(OutputFile, DevStdoutWritesToTheProcessStandardOutput) {
    // In a child whose standard output is a pipe: the bytes arrive in the pipe.
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::dup2(fds[1], STDOUT_FILENO);
        ::close(fds[0]);
        ::close(fds[1]);
        try {
            write_output_file("/dev/stdout", "one\n");
            write_output_file("-", "two\n");
        } catch (...) {
            ::_exit(1);
        }
        ::_exit(0);
    }
    ::close(fds[1]);
    std::string received;
    char buffer[256];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) received.append(buffer, static_cast<std::size_t>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_EQ(received, "one\ntwo\n");
}

TEST(OutputFile, ImpossiblePathsFailBeforeAnyWork) {
    const fs::path dir = scratch("a-directory");
    fs::create_directories(dir);
    try {
        OutputFile file(dir.string());
        FAIL() << "a directory was accepted";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("Is a directory"), std::string::npos) << error.what();
    }
    EXPECT_THROW(OutputFile("/nonexistent/folder/out.csv"), UsageError);
    EXPECT_THROW(OutputFile(""), UsageError);
}

TEST(OutputFile, AnInterruptKeepsFinishedRowsAndRemovesTemporaries) {
    const fs::path rows = scratch("rows.csv");
    const fs::path half = scratch("half.txt");
    const fs::path untouched = scratch("untouched.csv");
    std::ofstream(half) << "old\n";
    std::ofstream(untouched) << "old results\n";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        install_interrupt_cleanup();
        OutputFile kept(rows.string());
        kept.write("header\nrow 1\n");
        kept.mark_complete();
        kept.write("row 2, half wri");  // not marked: cut off
        OutputFile discarded(half.string());
        discarded.write("half of a schedule");
        OutputFile nothing_yet(untouched.string());  // no finished row: the old file stays
        nothing_yet.write("header\n");
        ::raise(SIGINT);
        ::_exit(0);  // not reached
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT);
    EXPECT_EQ(slurp(rows), "header\nrow 1\n");
    EXPECT_EQ(slurp(half), "old\n");
    EXPECT_EQ(slurp(untouched), "old results\n");
    EXPECT_EQ(temporaries_beside(rows), 0);
    EXPECT_EQ(temporaries_beside(half), 0);
    EXPECT_EQ(temporaries_beside(untouched), 0);
}

TEST(OutputFile, ASignalIgnoredAtStartStaysIgnored) {
    // Under nohup, SIGHUP is ignored: installing the cleanup must not make it fatal.
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGHUP, SIG_IGN);
        install_interrupt_cleanup();
        ::raise(SIGHUP);
        reset_interrupt_cleanup();
        ::raise(SIGHUP);
        ::_exit(0);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
}

TEST(OutputFile, CommittingTheCompleteTextDropsWhatFollows) {
    const fs::path path = scratch("complete.csv");
    {
        OutputFile file(path.string());
        file.write("a\n1\n");
        file.mark_complete();
        file.write("2,half");
        file.commit_complete();
    }
    EXPECT_EQ(slurp(path), "a\n1\n");
    EXPECT_EQ(temporaries_beside(path), 0);
}

TEST(OutputFile, AClosedDescriptorIsRefusedBeforeAnyWork) {
    const int fd = ::open("/dev/null", O_RDONLY);
    ASSERT_GE(fd, 0);
    // Open for reading only: not a place to write.
    EXPECT_THROW(OutputFile(fmt::format("/dev/fd/{}", fd)), UsageError);
    ::close(fd);
    EXPECT_THROW(OutputFile(fmt::format("/proc/self/fd/{}", fd)), UsageError);
}

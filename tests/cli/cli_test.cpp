// Runs the real `numacoll` binary: exit codes, one-line errors, outputs.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <cerrno>
#include <csignal>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>
#include "../support/files.hpp"

namespace {

struct Result {
    int exit_code = -1;
    std::string out;  // stdout
    std::string err;  // stderr
};

const std::filesystem::path& scratch_dir() {
    static const std::filesystem::path dir = [] {
        auto path = std::filesystem::temp_directory_path() / ("numacoll-cli-test-" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
        return path;
    }();
    return dir;
}

using numacoll::test_support::slurp;

// A CSV line's fields (the result files quote no comma).
std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');) fields.push_back(field);
    return fields;
}

// A result CSV: its header's columns, and each row as text and as fields.
struct CsvTable {
    std::vector<std::string> columns;
    std::vector<std::string> lines;
    std::vector<std::vector<std::string>> rows;

    // The index of `column` (columns.size() when there is none).
    std::size_t at(const std::string& column) const {
        return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), column) - columns.begin());
    }
};

CsvTable read_table(const std::string& csv) {
    CsvTable table;
    std::stringstream lines(csv);
    std::string header;
    std::getline(lines, header);
    table.columns = split_fields(header);
    for (std::string line; std::getline(lines, line);) {
        table.lines.push_back(line);
        table.rows.push_back(split_fields(line));
    }
    return table;
}

// The field `column` of a result CSV's first row.
std::string results_field(const std::string& csv, const std::string& column) {
    const CsvTable table = read_table(csv);
    if (table.rows.empty()) return "";
    const std::size_t at = table.at(column);
    return at < table.rows.front().size() ? table.rows.front()[at] : "";
}

// `environment`: VAR=VALUE assignments for this run only.
Result run(const std::string& arguments, const std::string& environment = "") {
    const auto err_path = scratch_dir() / "stderr.txt";
    const std::string command = (environment.empty() ? "" : "env " + environment + " ") + std::string(NUMACOLL_BINARY) +
                                " " + arguments + " 2>" + err_path.string();
    Result result;
    FILE* pipe = ::popen(command.c_str(), "r");
    std::array<char, 4096> buffer{};
    for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) result.out.append(buffer.data(), n);
    const int status = ::pclose(pipe);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.err = slurp(err_path);
    return result;
}

std::filesystem::path write_scratch(const std::string& name, const std::string& text) {
    auto path = scratch_dir() / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
}

// Starts the binary with `arguments`, reads its standard error until it has
// printed `lines` progress lines, sends `signal`, and returns how it ended.
int interrupt_after_progress(const std::vector<std::string>& arguments, int lines, int signal) {
    int err_pipe[2];
    if (::pipe(err_pipe) != 0) return -1;
    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(err_pipe[1], STDERR_FILENO);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO);
        ::close(err_pipe[0]);
        std::vector<char*> argv{const_cast<char*>(NUMACOLL_BINARY)};
        for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
        argv.push_back(nullptr);
        ::execv(NUMACOLL_BINARY, argv.data());
        ::_exit(127);
    }
    ::close(err_pipe[1]);
    std::string err;
    char buffer[512];
    int seen = 0;
    while (seen < lines) {
        const ssize_t n = ::read(err_pipe[0], buffer, sizeof buffer);
        if (n <= 0) break;
        err.append(buffer, static_cast<std::size_t>(n));
        seen = static_cast<int>(std::count(err.begin(), err.end(), '\n'));
    }
    ::kill(child, signal);
    ::close(err_pipe[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    return status;
}

// A usage error: exit code 2 and exactly one line on stderr that says `words`.
void expect_usage_error(const std::string& arguments, const std::string& words) {
    SCOPED_TRACE(arguments);
    const Result result = run(arguments);
    EXPECT_EQ(result.exit_code, 2);
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_NE(result.err.find(words), std::string::npos) << result.err;
    EXPECT_TRUE(result.out.empty()) << result.out;
}

// Each test process removes its scratch folder when it ends.
class ScratchCleanup : public ::testing::Environment {
public:
    void TearDown() override {
        std::error_code ignored;
        std::filesystem::remove_all(scratch_dir(), ignored);
    }
};
const auto* const cleanup = ::testing::AddGlobalTestEnvironment(new ScratchCleanup);

}  // namespace

TEST(Cli, HelpWorksOnEverySubcommand) {
    for (const char* command : {"", "topo", "dag", "sim", "model", "run", "validate", "plot", "demo", "reproduce", "tune", "whatif", "overlap"}) {
        const Result result = run(std::string(command) + " --help");
        EXPECT_EQ(result.exit_code, 0) << command;
        EXPECT_NE(result.out.find("--help"), std::string::npos) << command;
    }
    EXPECT_NE(run("dag --help").out.find("--topology"), std::string::npos);
}

TEST(Cli, TopoPrintsTheModel) {
    const Result text = run("topo --topology magnycours");
    EXPECT_EQ(text.exit_code, 0);
    EXPECT_NE(text.out.find("4 packages, 8 dies, 8 NUMA nodes, 32 cores"), std::string::npos) << text.out;
    const Result json = run("topo --topology westmere --json");
    EXPECT_EQ(json.exit_code, 0);
    ASSERT_FALSE(json.out.empty());
    EXPECT_EQ(json.out.front(), '{');
    EXPECT_EQ(run("topo --topology live").exit_code, 0);
    EXPECT_EQ(run("topo --topology 'synthetic:\"Package:3 Core:5\"'").exit_code, 0);
}

TEST(Cli, DagCheckSaysItHolds) {
    const Result result = run("dag --topology westmere --collective allreduce --algorithm tree --bytes 64 --check");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("check holds"), std::string::npos);
    EXPECT_NE(result.out.find("12 outputs proven"), std::string::npos);
    const Result nodes = run("dag --topology magnycours --nodes 3 --bytes 16MiB --bcast 2stage --arity 3 --check");
    EXPECT_EQ(nodes.exit_code, 0) << nodes.err;
}

TEST(Cli, DagCheckFailsWithExitOne) {
    // Take a valid schedule and drop the flag that lets rank 0 read rank 2's partial.
    const Result text = run("dag --topology westmere --bytes 64");
    ASSERT_EQ(text.exit_code, 0);
    std::string broken = text.out;
    const std::string line = "task 7 reduce thread=0 write=1@0+64 read=1@0+64,5@0+64 deps=1,6";
    ASSERT_NE(broken.find(line), std::string::npos);
    broken.replace(broken.find(line), line.size(), "task 7 reduce thread=0 write=1@0+64 read=1@0+64,5@0+64 deps=1");
    const auto path = write_scratch("broken.txt", broken);
    const Result result = run("dag --from " + path.string() + " --check");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.out.find("check FAILS"), std::string::npos);
    EXPECT_NE(result.err.find("does not depend on it"), std::string::npos) << result.err;
}

TEST(Cli, DagFormatsRoundTripThroughFiles) {
    const auto text_path = scratch_dir() / "tree.txt";
    const auto json_path = scratch_dir() / "tree.json";
    ASSERT_EQ(run("dag --bytes 200 --nodes 2 --strip 64 -o " + text_path.string()).exit_code, 0);
    ASSERT_EQ(run("dag --bytes 200 --nodes 2 --strip 64 --format json -o " + json_path.string()).exit_code, 0);
    const Result from_json = run("dag --from " + json_path.string() + " --format text");
    EXPECT_EQ(from_json.out, slurp(text_path));
    EXPECT_EQ(run("dag --from " + text_path.string() + " --check").exit_code, 0);
}

TEST(Cli, DotRendersWithGraphviz) {
    if (std::system("command -v dot >/dev/null 2>&1") != 0) GTEST_SKIP() << "graphviz is not installed";
    const auto dot_path = scratch_dir() / "tree.dot";
    const auto png_path = scratch_dir() / "tree.png";
    ASSERT_EQ(run("dag --topology westmere --collective allreduce --algorithm tree --bytes 64 --format dot -o " +
                  dot_path.string())
                  .exit_code,
              0);
    // westmere: two LLC domains (one per package), each a cluster of its ranks' tasks.
    const std::string dot = slurp(dot_path);
    EXPECT_NE(dot.find("label=\"LLC domain 0\""), std::string::npos);
    EXPECT_NE(dot.find("label=\"LLC domain 1\""), std::string::npos);
    ASSERT_EQ(std::system(("dot -Tpng " + dot_path.string() + " -o " + png_path.string()).c_str()), 0);
    std::ifstream png(png_path, std::ios::binary);
    char magic[4] = {};
    png.read(magic, 4);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG");
    EXPECT_GT(std::filesystem::file_size(png_path), 10000u);
}

TEST(Cli, ListShowsTheAlgorithms) {
    const Result result = run("dag --list");
    EXPECT_EQ(result.exit_code, 0);
    EXPECT_NE(result.out.find("allreduce"), std::string::npos);
    EXPECT_NE(result.out.find("tree"), std::string::npos);
    EXPECT_NE(result.out.find("HPDC'13"), std::string::npos);
    for (const char* line : {"allreduce  dissemination", "allreduce  tiled-naive", "allreduce  tiled-cyclic",
                             "reduce     tree", "bcast      tree", "barrier    dissemination"})
        EXPECT_NE(result.out.find(line), std::string::npos) << line;
}

// HPDC'13 section 3.4's step decomposition, from `dag --stats`.
TEST(Cli, DagStatsShowsThePaperSteps) {
    const Result result = run("dag --topology westmere --collective allreduce --algorithm tree --bytes 64 --stats");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("tasks: 44, 11 copy, 11 reduce, 22 flag"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("data steps on the critical path: reduce (same LLC domain), reduce (same LLC domain), "
                              "reduce (same LLC domain), reduce (other LLC domain (1 hop)), copy"),
              std::string::npos)
        << result.out;
    EXPECT_NE(result.out.find("other LLC domain (1 hop)"), std::string::npos);
    EXPECT_NE(result.out.find("tasks per thread: min 2"), std::string::npos);
}

TEST(Cli, TopoHierarchyShowsLevelsAndRootsGroups) {
    const Result result = run("topo --topology westmere --hierarchy --nodes 2 --root 7");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("network [24 ranks: 0-23] leader 7, roots group 7,19"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("package+L3 [6 ranks: 6-11] leader 7, roots group 7,6,8-11"), std::string::npos)
        << result.out;
}

TEST(Cli, EveryCollectiveRunsAndVerifies) {
    const auto csv_path = scratch_dir() / "collectives.csv";
    for (const char* call : {"-c reduce -a tree --root 1 --bytes 1KiB", "-c bcast -a tree --root 1 --bytes 1001",
                             "-c barrier -a dissemination --bytes 0", "-c allreduce -a tiled --bytes 64KiB",
                             "-c scatter -a tree --root 1 --bytes 1001", "-c gather -a binomial --root 1 --bytes 1001",
                             "-c allgather -a ring --bytes 1001", "-c bcast -a hier-split-binary --bytes 100KiB",
                             "-c reduce -a in-order-binary --bytes 1KiB"}) {
        SCOPED_TRACE(call);
        const Result result = run(std::string("run --threads 2 --iterations 20 -q ") + call + " -o " + csv_path.string());
        EXPECT_EQ(result.exit_code, 0) << result.err;
        const std::string csv = slurp(csv_path);
        EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;
    }
}

TEST(Cli, BadInputIsOneLineAndExitTwo) {
    expect_usage_error("topo --topology /nonexistent/machine.xml", "/nonexistent/machine.xml");
    expect_usage_error("topo --topology " + scratch_dir().string(), scratch_dir().string());
    const auto malformed = write_scratch("malformed.xml", "<?xml version=\"1.0\"?>\n<topology><object type=");
    expect_usage_error("topo --topology " + malformed.string(), "malformed.xml");
    const auto foreign = write_scratch("foreign.xml", "<?xml version=\"1.0\"?>\n<svg></svg>\n");
    expect_usage_error("topo --topology " + foreign.string(), "foreign.xml");
    expect_usage_error("topo --topology nosuchmachine", "nosuchmachine");
    const auto future = write_scratch("future.xml", "<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n"
                                                    "<object type=\"Machine\" os_index=\"0\"/></topology>\n");
    expect_usage_error("topo --topology " + future.string(), "format version 3.0 is unsupported");
    expect_usage_error("dag --algorithm bogus", "unknown algorithm 'bogus'");
    expect_usage_error("dag --collective allsorts", "unknown collective 'allsorts'");
    expect_usage_error("dag --bytes -8", "negative");
    expect_usage_error("dag --bytes 12", "not a multiple of 8");
    expect_usage_error("dag --bytes lots", "not a size");
    expect_usage_error("dag --strip 0", "strip");
    expect_usage_error("dag --nodes 0", "--nodes");
    expect_usage_error("dag --ranks -3", "--ranks");
    expect_usage_error("dag --topology westmere --ranks 25", "only 24 PUs");
    expect_usage_error("dag --root 12", "root 12 does not exist");
    expect_usage_error("dag --collective barrier --bytes 64", "a barrier moves no data");
    expect_usage_error("dag --collective bcast --algorithm tiled", "unknown algorithm 'tiled' for bcast");
    expect_usage_error("dag --collective gather", "unknown algorithm 'tree' for gather: expected one of linear, binomial, leader");
    expect_usage_error("dag -c bcast -a leader --option leader=far", "option leader of algorithm 'leader' must be one of");
    expect_usage_error("dag -c reduce -a linear --option segment=4", "option segment of a reduction must be 0 or at least 8");
    expect_usage_error("dag -c allreduce -a tree --option internode=tree", "option internode must be");
    expect_usage_error("topo --hierarchy --root 99", "--root 99 does not exist");
    expect_usage_error("topo --root 1", "--ranks and --root need --hierarchy");
    expect_usage_error("dag --algorithm tiled --bcast nary", "option bcast");
    expect_usage_error("dag --format png", "--format");
    expect_usage_error("dag --frobnicate", "frobnicate");
    expect_usage_error("dag --from /nonexistent/schedule.txt", "/nonexistent/schedule.txt");
    expect_usage_error("dag -o /nonexistent/dir/out.txt", "/nonexistent/dir/out.txt");
    expect_usage_error("", "subcommand");
    expect_usage_error("model -c reduce -a bogus", "unknown algorithm 'bogus' for reduce");
    expect_usage_error("model -c bcast -a linear --option fanout=2", "has no option 'fanout'");
    expect_usage_error("model -c reduce -a linear --bytes 12", "not a multiple of 8");
}

TEST(Cli, ModelPrintsOneRowPerAlgorithmAndSize) {
    const Result result = run("model --topology westmere -c bcast -a binomial,pipeline --bytes 64,1KiB");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out.rfind("collective,algorithm,bytes,ranks,nodes,model_ns,source,", 0), 0u) << result.out;
    EXPECT_EQ(std::count(result.out.begin(), result.out.end(), '\n'), 5) << result.out;
    EXPECT_NE(result.out.find("bcast,binomial,64,12,1,"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("bcast,pipeline,1024,12,1,"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("Pjesivac-Grbovic"), std::string::npos) << result.out;
}

TEST(Cli, SimRowsCarryTheModelsPrediction) {
    // One socket, two ranks: the model equals the simulation (tests/models/simulator_agreement_test.cpp).
    const Result result = run("sim --topology 'synthetic:Package:1 L3Cache:1 Core:2' -c bcast -a linear --bytes 1KiB -q");
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const auto header_end = result.out.find('\n');
    EXPECT_NE(result.out.substr(0, header_end).find(",model_ns"), std::string::npos) << result.out;
    const std::string row = result.out.substr(header_end + 1);
    EXPECT_FALSE(row.ends_with(",\n")) << row;  // the model reaches this shape
}

TEST(Cli, ASimulationsProcessIsReapedBeforeTheCommandEnds) {
    // numacoll ends without the libraries' static destructors (cli/main.cpp),
    // but still waits for the process that simulated: its memory counts in
    // what /usr/bin/time reports, and no orphan is left behind. A subreaper
    // in between would inherit an orphan; it must find none.
    const pid_t subreaper = ::fork();
    ASSERT_GE(subreaper, 0);
    if (subreaper == 0) {
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        const pid_t command = ::fork();
        if (command == 0) {
            const int null = ::open("/dev/null", O_WRONLY);
            ::dup2(null, STDOUT_FILENO);
            ::execl(NUMACOLL_BINARY, NUMACOLL_BINARY, "sim", "--topology", "westmere", "--nodes", "2", "-q", nullptr);
            ::_exit(127);
        }
        int status = 0;
        if (command < 0 || ::waitpid(command, &status, 0) != command || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            ::_exit(2);
        errno = 0;
        const bool orphan_left = ::waitpid(-1, nullptr, 0) > 0 || errno != ECHILD;
        ::_exit(orphan_left ? 3 : 0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(subreaper, &status, 0), subreaper);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_NE(WEXITSTATUS(status), 2) << "the command failed";
    EXPECT_NE(WEXITSTATUS(status), 3) << "the simulating process was left to the subreaper";
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(Cli, FailedWriteLeavesNothingBehind) {
    // Writing into a directory path fails; no temporary or partial file stays.
    const auto dir = scratch_dir() / "occupied";
    std::filesystem::create_directories(dir);
    const Result result = run("dag -o " + dir.string());
    EXPECT_EQ(result.exit_code, 2);
    int entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(scratch_dir()))
        if (entry.path().filename().string().find("occupied.tmp") != std::string::npos) ++entries;
    EXPECT_EQ(entries, 0);
}

TEST(Cli, OutputsAreWrittenThroughLinksAndStandardStreams) {
    // -o /dev/stdout is standard output, not a file that replaces it.
    const Result to_stdout = run("dag --bytes 64 -o /dev/stdout");
    EXPECT_EQ(to_stdout.exit_code, 0) << to_stdout.err;
    EXPECT_EQ(to_stdout.out.rfind("numacoll-schedule ", 0), 0u) << to_stdout.out;
    // A symlink: its target is written, the link stays a link.
    const auto target = write_scratch("schedule-target.txt", "old\n");
    const auto link = scratch_dir() / "schedule-link.txt";
    std::filesystem::remove(link);
    std::filesystem::create_symlink(target, link);
    const Result through_link = run("dag --bytes 64 -o " + link.string());
    EXPECT_EQ(through_link.exit_code, 0) << through_link.err;
    EXPECT_TRUE(std::filesystem::is_symlink(link));
    EXPECT_EQ(slurp(target).rfind("numacoll-schedule ", 0), 0u);
    // A device that cannot take the bytes: one line, exit 1.
    if (std::filesystem::exists("/dev/full")) {
        const Result full = run("dag --bytes 64 -o /dev/full");
        EXPECT_EQ(full.exit_code, 1);
        EXPECT_NE(full.err.find("cannot write '/dev/full'"), std::string::npos) << full.err;
        EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
    }
}

TEST(Cli, AStandardOutputThatCannotTakeTheTextFailsTheCommand) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
    for (const char* command : {"topo", "topo --topology westmere --platform", "dag --list", "dag --bytes 64",
                                "model --topology westmere --bytes 64", "--version"}) {
        SCOPED_TRACE(command);
        const Result full = run(std::string(command) + " > /dev/full");
        EXPECT_EQ(full.exit_code, 1) << full.err;
        EXPECT_TRUE(full.err.find("cannot write standard output") != std::string::npos ||
                    full.err.find("cannot write '-': No space left on device") != std::string::npos)
            << full.err;
        EXPECT_EQ(std::count(full.err.begin(), full.err.end(), '\n'), 1) << full.err;
    }
    EXPECT_TRUE(std::filesystem::is_character_file("/dev/full"));
}

TEST(Cli, AnInterruptedSweepKeepsItsFinishedRows) {
    // Sweeps long enough (seconds) that the interrupt lands after the third point and before the last.
    std::string sizes = "1MiB";  // 22 sizes near 1 MiB, each once
    for (int k = 1; k < 22; ++k) sizes += "," + std::to_string((1 << 20) + 8 * k);
    for (const auto& [command, arguments] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"sim", {"sim", "--topology", "magnycours", "--nodes", "8", "--algorithm", "dissemination", "--bytes", sizes}},
             {"run", {"run", "--threads", "2", "--oversubscribe", "--bytes", "8B:16MiB", "-n", "200"}}}) {
        SCOPED_TRACE(command);
        const auto csv = scratch_dir() / (command + "-interrupted.csv");
        std::filesystem::remove(csv);
        // A trace an earlier run left beside the rows must not stay beside this
        // run's (the run's own finished traces may be there).
        const auto trace = write_scratch(command + "-interrupted-trace.csv", "an earlier run's trace\n");
        std::vector<std::string> full = arguments;
        for (const std::string& more : std::vector<std::string>{"-o", csv.string(), "--trace", trace.string()}) full.push_back(more);
        const int status = interrupt_after_progress(full, 3, SIGINT);
        EXPECT_EQ(slurp(trace).find("an earlier run's"), std::string::npos);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
        // The finished rows are there, whole, under the final name; no temporary is left.
        const std::string text = slurp(csv);
        std::istringstream lines(text);
        std::string header, line;
        std::getline(lines, header);
        EXPECT_EQ(header.rfind("collective,algorithm,bytes,", 0), 0u) << text;
        int rows = 0;
        while (std::getline(lines, line)) {
            ++rows;
            EXPECT_EQ(std::count(line.begin(), line.end(), ','), std::count(header.begin(), header.end(), ','));
        }
        EXPECT_GE(rows, 3);
        EXPECT_LT(rows, 22);  // interrupted: not all 22 points
        EXPECT_EQ(text.back(), '\n');
        for (const auto& entry : std::filesystem::directory_iterator(scratch_dir()))
            EXPECT_EQ(entry.path().filename().string().find(csv.filename().string() + ".tmp"), std::string::npos)
                << entry.path();
    }
}

// A schedule written by dag simulates as the generated one did, on the
// machine it names; SimGrid's own --cfg and --log go through.
TEST(Cli, SimulatesASavedScheduleAndPassesSimGridsOptions) {
    const auto file = scratch_dir() / "saved-tree.json";
    ASSERT_EQ(run("dag -t magnycours --bytes 4KiB -f json -o " + file.string()).exit_code, 0);
    const Result generated = run("sim -t magnycours --bytes 4KiB -q");
    const Result saved = run("sim --from " + file.string() + " -q");
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
    const auto time_of = [](const std::string& csv) {
        const std::string row = csv.substr(csv.find('\n') + 1);
        std::vector<std::string> fields;
        std::istringstream in(row);
        for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
        return fields.size() > 6 ? fields[6] : std::string("?");
    };
    EXPECT_EQ(time_of(saved.out), time_of(generated.out));
    const Result configured = run("sim --bytes 64 -q --cfg maxmin/precision:1e-9 --log root.thres:critical");
    EXPECT_EQ(configured.exit_code, 0) << configured.err;
    // dag --stats writes its report where -o says.
    const auto stats = scratch_dir() / "stats.txt";
    ASSERT_EQ(run("dag -t westmere --stats -o " + stats.string()).exit_code, 0);
    EXPECT_NE(slurp(stats).find("allreduce tree of 64B"), std::string::npos) << slurp(stats);
    const Result listed = run("dag --list -c bcast");
    EXPECT_EQ(listed.out.find("allreduce"), std::string::npos);
    EXPECT_NE(listed.out.find("bcast"), std::string::npos);
}

TEST(Cli, SimulatesAFileOfSeveralCollectivesAsOneSequence) {
    const auto allreduce = scratch_dir() / "part-allreduce.txt";
    const auto bcast = scratch_dir() / "part-bcast.txt";
    ASSERT_EQ(run("dag -t westmere --bytes 4KiB -o " + allreduce.string()).exit_code, 0);
    ASSERT_EQ(run("dag -t westmere -c bcast -a tree --bytes 64KiB -o " + bcast.string()).exit_code, 0);
    const auto step = write_scratch("step.txt", slurp(allreduce) + slurp(bcast));
    const Result checked = run("dag --from " + step.string() + " --check");
    EXPECT_EQ(checked.exit_code, 0) << checked.err;
    EXPECT_NE(checked.out.find("check holds: 2 of 2: bcast tree of 64KiB"), std::string::npos) << checked.out;
    EXPECT_NE(checked.out.find("the 2 collectives in a row"), std::string::npos) << checked.out;
    // Written back as JSON, a list that reads back the same.
    const auto json = scratch_dir() / "step.json";
    ASSERT_EQ(run("dag --from " + step.string() + " -f json -o " + json.string()).exit_code, 0);
    EXPECT_EQ(run("dag --from " + json.string()).out, slurp(step));
    const auto time_of = [](const std::string& csv) {
        const std::string row = csv.substr(csv.find('\n') + 1);
        std::vector<std::string> fields;
        std::istringstream in(row);
        for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
        return fields.size() > 6 ? std::stod(fields[6]) : -1.0;
    };
    const Result sequence = run("sim --from " + step.string() + " -q");
    ASSERT_EQ(sequence.exit_code, 0) << sequence.err;
    EXPECT_NE(sequence.out.find(",sequence,"), std::string::npos) << sequence.out;
    EXPECT_NE(sequence.out.find("sequence=allreduce/tree/4KiB+bcast/tree/64KiB"), std::string::npos) << sequence.out;
    const double first = time_of(run("sim --from " + allreduce.string() + " -q").out);
    const double second = time_of(run("sim --from " + bcast.string() + " -q").out);
    const double both = time_of(sequence.out);
    // In a row, each rank starts the bcast when its allreduce ends: no
    // shorter than either, no longer than one after the other.
    EXPECT_GE(both, std::max(first, second));
    EXPECT_LE(both, first + second);
    const Result twice = run("sim --from " + step.string() + " --repeat 2 -q");
    EXPECT_NE(twice.out.find("repeat=2;sequence="), std::string::npos) << twice.out;
    EXPECT_GT(time_of(twice.out), both);
}

TEST(Cli, TuneWritesTheTablesTheRulesAndThePictures) {
    const auto sim = scratch_dir() / "tune-sim";
    const Result tuned = run("tune -t \"synthetic:Package:2 Core:4\" --params generic -c bcast,reduce "
                             "-a binomial,chain,tree --nodes 1,2 --bytes 64,64KiB,1MiB --segments 16KiB,64KiB -q -o " +
                             sim.string());
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    for (const char* name : {"selection.csv", "selection.json", "timings.csv", "ompi-rules.conf", "ompi-rules-v2.conf",
                             "ompi-rules.json", "ompi-mca.txt", "tune-bcast.png", "tune-reduce.png"})
        EXPECT_TRUE(std::filesystem::exists(sim / name)) << name;
    // 2 collectives x 2 shapes x 3 sizes, each with a winner.
    const std::string table = slurp(sim / "selection.csv");
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 1 + 12) << table;
    // chain and binomial, each with both segment sizes, and the tree: 5 candidates per point.
    const std::string timings = slurp(sim / "timings.csv");
    EXPECT_EQ(std::count(timings.begin(), timings.end(), '\n'), 1 + 12 * 5);
    const std::string rules = slurp(sim / "ompi-rules.conf");
    EXPECT_EQ(rules.find("rule-file-version"), std::string::npos);
    EXPECT_NE(rules.find("# bcast"), std::string::npos) << rules;
    EXPECT_NE(rules.find("# from 8 ranks (1 node(s) x 8)"), std::string::npos) << rules;
    EXPECT_NE(rules.find("# from 16 ranks (2 node(s) x 8)"), std::string::npos) << rules;
    EXPECT_EQ(slurp(sim / "ompi-rules-v2.conf").rfind("rule-file-version-2\n", 0), 0u);
    EXPECT_NE(slurp(sim / "ompi-mca.txt").find("coll_tuned_dynamic_rules_filename"), std::string::npos);

    // The same sweep by the closed-form models, compared with the simulation's.
    const auto model = scratch_dir() / "tune-model";
    ASSERT_EQ(run("tune -t \"synthetic:Package:2 Core:4\" --params generic -c bcast,reduce -a binomial,chain,tree "
                  "--nodes 1,2 --bytes 64,64KiB,1MiB --segments 16KiB,64KiB --engine model --no-plots -q -o " +
                  model.string())
                  .exit_code,
              0);
    EXPECT_FALSE(std::filesystem::exists(model / "tune-bcast.png"));
    const Result compared = run("tune --compare " + sim.string() + " " + model.string());
    ASSERT_EQ(compared.exit_code, 0) << compared.err;
    EXPECT_NE(compared.out.find("points in both; the same algorithm at"), std::string::npos) << compared.out;
    EXPECT_NE(run("tune --compare " + sim.string() + " " + sim.string()).out.find("12 points in both; the same algorithm at 12 (100%)"),
              std::string::npos);
}

// A collective named twice is tuned once; the checks of sim come before any
// timing, and a refused tune makes no folder.
TEST(Cli, TuneTunesEachCollectiveOnceAndRefusesBeforeTiming) {
    const auto dir = scratch_dir() / "tune-twice";
    const Result tuned = run("tune -t westmere -c allreduce,allreduce -a tree,tiled --bytes 64 --no-plots -q -o " +
                             dir.string());
    ASSERT_EQ(tuned.exit_code, 0) << tuned.err;
    const std::string table = slurp(dir / "selection.csv");
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 2) << table;
    // One spelling for every command (-a/--algorithm, -N/--nodes); the
    // earlier --algorithms still works.
    for (const std::string spelling : {"--algorithm tree,tiled -N 1", "--algorithms tree,tiled --nodes 1"}) {
        const Result same = run("tune -t westmere -c allreduce " + spelling + " --bytes 64 --no-plots -q -o " +
                                (scratch_dir() / "tune-spelling").string());
        ASSERT_EQ(same.exit_code, 0) << spelling << ": " << same.err;
        EXPECT_EQ(slurp(scratch_dir() / "tune-spelling" / "selection.csv"), table) << spelling;
    }
    const auto refused = scratch_dir() / "tune-refused";
    for (const auto& [options, words] : std::vector<std::pair<std::string, std::string>>{
             {"-c bcast --root -1", "root -1 does not exist"},
             {"-c bcast --root 99999", "root 99999 does not exist"},
             {"-c allreduce --bytes 7", "7 bytes is not a multiple of 8"},
             {"-c bcast --segments 1 --bytes 1MiB", "--segments 1 fits no candidate at any point"},
             {"-c bcast --ranks 25", "25 ranks per node but 'westmere' has only 24 PUs"},
             {"-c allreduce --op band --bytes 64", "operation band does not apply to double"},
             {"-c allreduce --datatype int16 --bytes 7", "7 bytes is not a multiple of 2"}}) {
        expect_usage_error("tune -t westmere " + options + " -o " + refused.string(), words);
        EXPECT_FALSE(std::filesystem::exists(refused)) << options;
    }
    // Reductions of other elements by other operations: the folder says which.
    const auto typed = scratch_dir() / "tune-typed";
    const Result int16 = run("tune -t westmere -c allreduce -a tree,tiled --bytes 64,4KiB --datatype int16 --op bxor "
                             "--no-plots -q -o " + typed.string());
    ASSERT_EQ(int16.exit_code, 0) << int16.err;
    EXPECT_NE(slurp(typed / "ompi-rules.conf").find("reductions of int16 by bxor"), std::string::npos);
    EXPECT_NE(slurp(typed / "selection.json").find("\"op\": \"bxor\""), std::string::npos);
}

// Varying the node count: `nodes` is a column once, and the map is drawn.
TEST(Cli, WhatifVaryingTheNodesDrawsItsMap) {
    const auto dir = scratch_dir() / "whatif-nodes";
    const Result result = run("whatif -t westmere --vary nodes=1,2 -c allreduce -a tree,dissemination --bytes 64,4KiB "
                              "-q -o " + dir.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "whatif.png"));
    for (const char* name : {"whatif.csv", "whatif-best.csv", "whatif-map.csv"}) {
        const std::string text = slurp(dir / name);
        const std::string header = text.substr(0, text.find('\n'));
        EXPECT_EQ(header.rfind("nodes,machine,ranks,", 0), 0u) << name << ": " << header;
        EXPECT_EQ(header.find("nodes", 1), std::string::npos) << name << ": " << header;
    }
    expect_usage_error("whatif -t westmere --vary nodes=1048576 -o " + (scratch_dir() / "whatif-huge").string(),
                       "the machine with nodes=1048576");
    EXPECT_FALSE(std::filesystem::exists(scratch_dir() / "whatif-huge"));
}

TEST(Cli, WhatifMapsAMachineThatDoesNotExist) {
    const auto dir = scratch_dir() / "whatif";
    const Result result = run("whatif -t \"synthetic:Package:2 NUMANode:1 L3Cache:1 Core:4\" --params generic "
                              "--vary cores_per_llc=2,4 --vary levels.other_socket.bandwidth_bytes_per_ns=2,40 "
                              "-c allreduce -a tree,dissemination --bytes 64,1MiB -q -o " + dir.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "whatif.png"));
    const std::string map = slurp(dir / "whatif-map.csv");
    // 2 x 2 machines, each named by the description `numacoll sim -t` takes.
    EXPECT_EQ(std::count(map.begin(), map.end(), '\n'), 1 + 4) << map;
    EXPECT_NE(map.find("4,40,\"synthetic:Package:2 NUMANode:1 L3Cache:1 Core:4\",1,8,"), std::string::npos) << map;
    const std::string all = slurp(dir / "whatif.csv");
    EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 1 + 4 * 2 * 2);
    // A variant's time is what `numacoll sim` gives on the machine it names.
    const auto one = scratch_dir() / "whatif-one";
    ASSERT_EQ(run("whatif -t \"synthetic:Package:2 NUMANode:1 L3Cache:1 Core:4\" --params generic "
                  "--vary cores_per_llc=2 -c allreduce -a dissemination --bytes 64 --no-plots -q -o " + one.string())
                  .exit_code,
              0);
    const std::string line = slurp(one / "whatif.csv").substr(slurp(one / "whatif.csv").find('\n') + 1);
    const std::string whatif_time = line.substr(line.rfind(',') + 1, line.find('\n') - line.rfind(',') - 1);
    const Result simulated = run("sim -t \"synthetic:Package:2 NUMANode:1 L3Cache:1 Core:2\" --params generic "
                                 "-a dissemination --bytes 64 -q");
    std::vector<std::string> fields;
    std::istringstream in(simulated.out.substr(simulated.out.find('\n') + 1));
    for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
    ASSERT_GT(fields.size(), 6u);
    EXPECT_NEAR(std::stod(whatif_time), std::stod(fields[6]), 1e-3) << line;
}

TEST(Cli, OverlapReportsOsuFiguresSimulatedAndMeasured) {
    const auto dir = scratch_dir() / "overlap";
    const Result result = run("overlap --engine sim,threads -t live --params generic --ranks 2 -a tree --bytes 64,64KiB "
                              "--progress manual,shared-thread --test-every never,1/4 -n 5 --warmup 1 -q -o " +
                              dir.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "overlap.png"));
    const CsvTable table = read_table(slurp(dir / "overlap.csv"));
    const auto at = [&](const std::string& name) { return table.at(name); };
    ASSERT_LT(at("overlap_percent"), table.columns.size()) << slurp(dir / "overlap.csv");
    int rows = 0, measured = 0;
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        const std::vector<std::string>& fields = table.rows[row];
        const std::string& line = table.lines[row];
        ASSERT_EQ(fields.size(), table.columns.size()) << line;
        ++rows;
        measured += fields[at("engine")] == "threads";
        // OSU's figure from the row's own times.
        const double pure = std::stod(fields[at("pure_ns")]), compute = std::stod(fields[at("compute_ns")]),
                     overall = std::stod(fields[at("overall_ns")]);
        EXPECT_NEAR(std::stod(fields[at("overlap_percent")]), std::max(0.0, 100 - 100 * (overall - compute) / pure), 0.01)
            << line;
        if (fields[at("engine")] == "sim") {
            EXPECT_EQ(fields[at("pure_ns")], fields[at("compute_ns")]) << "compute auto";
        }
    }
    EXPECT_EQ(rows, 2 * 2 * 2 * 2);  // engines x sizes x strategies x test intervals
    EXPECT_EQ(measured, 8);
}

// Ranks as processes overlap too: the process form, simulated and run on
// threads, every row saying which form ran; the process form's copies make
// its collective alone take at least the thread form's time in simulation.
TEST(Cli, OverlapTakesTheProcessForm) {
    std::map<std::string, double> pure_ns;  // rank kind -> simulated collective alone
    for (const char* form : {"threads", "processes"}) {
        const auto dir = scratch_dir() / (std::string("overlap-") + form);
        const Result result = run(std::string("overlap --engine sim,threads -t live --params generic --ranks 2 -a tree "
                                              "--bytes 64KiB --progress manual --test-every never -n 3 --warmup 1 "
                                              "--no-plots -q --ranks-as ") +
                                  form + " -o " + dir.string());
        ASSERT_EQ(result.exit_code, 0) << result.err;
        const CsvTable table = read_table(slurp(dir / "overlap.csv"));
        const auto at = [&](const std::string& name) { return table.at(name); };
        int rows = 0;
        for (std::size_t row = 0; row < table.rows.size(); ++row) {
            const std::vector<std::string>& fields = table.rows[row];
            ASSERT_EQ(fields.size(), table.columns.size()) << table.lines[row];
            EXPECT_EQ(fields[at("rank_kind")], std::string(form) == "threads" ? "threads" : "processes-sharing-memory");
            if (fields[at("engine")] == "sim") pure_ns[form] = std::stod(fields[at("pure_ns")]);
            ++rows;
        }
        EXPECT_EQ(rows, 2);  // sim and threads
    }
    ASSERT_EQ(pure_ns.size(), 2u);
    EXPECT_GE(pure_ns["processes"], pure_ns["threads"]);
}

TEST(Cli, ResultsAndTraceNeedTwoFiles) {
    const auto path = scratch_dir() / "both.csv";
    for (const std::string command : {"sim --bytes 64", "run --bytes 64 -n 1"}) {
        expect_usage_error(command + " -o " + path.string() + " --trace " + path.string(), "-o and --trace name the same file");
        expect_usage_error(command + " -o - --trace /dev/stdout", "-o and --trace name the same file");
    }
}

TEST(Cli, DemoRunsTheWholeChain) {
    const auto dir = scratch_dir() / "demo";
    // One calibration per run at most: the retries of a busy host are not what is tested.
    const Result result = run("demo -o " + dir.string() + " --bytes 64,4KiB -n 3 --attempts 1");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("symbolic check: holds"), std::string::npos);
    EXPECT_NE(result.out.find("allreduce tree (2 sizes"), std::string::npos) << result.out;
    for (const char* name : {"machine.txt", "allreduce-tree-64B.txt", "allreduce-tree-64B.dot", "validation.csv",
                             "summary.txt", "latency.png", "params-calibrated.json", "calibration.csv",
                             "compare-allreduce.png", "best-allreduce.png"})
        EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
    EXPECT_NE(result.out.find("allreduce dissemination (2 sizes"), std::string::npos) << result.out;

    // Run again: the calibration made on this host is reused...
    const Result again = run("demo -o " + dir.string() + " --bytes 64 -n 3 --attempts 1");
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_NE(again.err.find("calibrate: reusing"), std::string::npos) << again.err;
    // ...unless the host no longer runs at its speed: figures a thousand times
    // too slow, named as this host's, are measured again and replaced.
    const std::string cached = slurp(dir / "params-calibrated.json");
    std::string slow = cached;
    const std::string value_key = "\"latency_ns\": {\n        \"value\": ";
    for (std::size_t at = 0; (at = slow.find(value_key, at)) != std::string::npos;) {
        at += value_key.size();
        slow.insert(at, "1000");  // 25.3 -> 100025.3
    }
    ASSERT_NE(slow, cached);
    { std::ofstream(dir / "params-calibrated.json") << slow; }
    const Result redo = run("demo -o " + dir.string() + " --bytes 64 -n 3 --attempts 1");
    EXPECT_EQ(redo.exit_code, 0) << redo.err;
    EXPECT_NE(redo.err.find("calibrating again"), std::string::npos) << redo.err;
    EXPECT_NE(slurp(dir / "params-calibrated.json"), slow);
}

// An lstopo export of this machine stands for it on the execution commands;
// hwloc told to read it instead of the system is not this system: nothing
// is pinned, and the results say which topology was used.
TEST(Cli, ASavedExportOfThisMachineStandsForIt) {
    const auto xml = scratch_dir() / "this-machine.xml";
    if (std::system(("lstopo-no-graphics --of xml -f " + xml.string() + " 2>/dev/null").c_str()) != 0)
        GTEST_SKIP() << "no lstopo-no-graphics (Debian package hwloc)";
    const Result run_result = run("run --topology " + xml.string() + " --bytes 64 -n 2 -q");
    ASSERT_EQ(run_result.exit_code, 0) << run_result.err;
    EXPECT_NE(run_result.out.find(xml.string()), std::string::npos) << run_result.out;
    const Result validate_result =
        run("validate --topology " + xml.string() + " --bytes 64 -n 2 --rounds 1 -q -o " + (scratch_dir() / "saved").string());
    EXPECT_EQ(validate_result.exit_code, 0) << validate_result.err;
    const Result piped = run("run --topology - --bytes 64 -n 2 -q < " + xml.string());
    EXPECT_EQ(piped.exit_code, 0) << piped.err;

    const Result overridden = run("run --bytes 64 -n 2 -q", "HWLOC_XMLFILE=" + xml.string());
    ASSERT_EQ(overridden.exit_code, 0) << overridden.err;
    EXPECT_NE(overridden.out.find("live (not this system: HWLOC_XMLFILE=" + xml.string() + ")"), std::string::npos)
        << overridden.out;
    EXPECT_NE(overridden.out.find(",,no,no,"), std::string::npos) << "threads claimed pinned: " << overridden.out;
}

TEST(Cli, RunMeasuresAndVerifies) {
    const Result result = run("run --threads 3 --oversubscribe --bytes 8,1000 --iterations 5 --warmup 1");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_EQ(result.out.rfind("collective,algorithm,bytes,ranks,nodes,engine,time_ns,p10_ns,p90_ns,min_ns,max_ns,iterations,", 0), 0u);
    EXPECT_NE(result.out.find("allreduce,tree,1000,3,1,threads,"), std::string::npos) << result.out;
    EXPECT_NE(result.err.find("verified"), std::string::npos);
    // More threads than PUs needs --oversubscribe, and the error says so.
    expect_usage_error("run --threads 4096 --bytes 8", "--oversubscribe");
    expect_usage_error("run --algorithm nosuch --bytes 8", "unknown algorithm 'nosuch'");
    expect_usage_error("run --topology westmere", "'westmere' does not describe this machine");
    expect_usage_error("run --bytes 8 -o /nonexistent/dir/run.csv", "/nonexistent/dir/run.csv");
}

TEST(Cli, RunReportsAVerificationFailure) {
    // A schedule whose rank 1 never receives the result: it runs, and the check fails (exit 1).
    const Result text = run("dag --topology live --ranks 2 --bytes 64");
    ASSERT_EQ(text.exit_code, 0) << text.err;
    std::string broken;
    std::istringstream lines(text.out);
    for (std::string line; std::getline(lines, line);)
        if (line.find(" copy thread=1 ") == std::string::npos) broken += line + "\n";
    const auto path = write_scratch("no-copy.txt", broken);
    const Result result = run("run --from " + path.string() + " --iterations 2 --warmup 0");
    EXPECT_EQ(result.exit_code, 1);
    EXPECT_NE(result.err.find("verification failed: rank 1 element 0"), std::string::npos) << result.err;
}

TEST(Cli, ValidateAndPlot) {
    const auto dir = scratch_dir() / "validation";
    const Result result = run("validate --bytes 64,64KiB -n 3 -q -o " + dir.string());
    EXPECT_EQ(result.exit_code, 0) << result.err;
    const std::string csv = slurp(dir / "validation.csv");
    EXPECT_NE(csv.find("simulated_ns,measured_median_ns"), std::string::npos);
    EXPECT_NE(csv.find("allreduce,tree,65536,"), std::string::npos);
    EXPECT_NE(slurp(dir / "summary.txt").find("median |error|"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir / "trace-measured.csv"));
    const Result plot = run("plot " + dir.string());
    EXPECT_EQ(plot.exit_code, 0) << plot.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "latency.png"));
    EXPECT_TRUE(std::filesystem::exists(dir / "gantt-allreduce-tree.png"));  // one timeline chart per algorithm
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        EXPECT_EQ(entry.path().string().find(".tmp"), std::string::npos) << entry.path();
    expect_usage_error("plot " + (scratch_dir() / "empty").string(), "no validation.csv");
    // A table larger than the cap is refused before it is read, exit 2, one line.
    const Result capped = run("plot " + dir.string(), "NUMACOLL_MAX_INPUT_BYTES=100");
    EXPECT_EQ(capped.exit_code, 2);
    EXPECT_NE(capped.err.find("more than the 100 a picture reads"), std::string::npos) << capped.err;
    EXPECT_EQ(std::count(capped.err.begin(), capped.err.end(), '\n'), 1) << capped.err;
    // A new run leaves nothing of the earlier one beside its rows: not its
    // summary, traces or pictures (a picture it will not draw stays gone).
    write_scratch("validation/compare-bcast.png", "an earlier run's");
    const Result again = run("validate --bytes 64 -n 3 -q -a tree -o " + dir.string());
    EXPECT_EQ(again.exit_code, 0) << again.err;
    for (const char* earlier : {"latency.png", "gantt-allreduce-tree.png", "compare-bcast.png"})
        EXPECT_FALSE(std::filesystem::exists(dir / earlier)) << earlier;
    // A CSV that plot cannot read: one line, exit 2 (bad input, as for a missing one), no picture.
    write_scratch("broken/validation.csv", "collective,bytes\nallreduce,64\n");
    const Result broken = run("plot " + (scratch_dir() / "broken").string());
    EXPECT_EQ(broken.exit_code, 2);
    EXPECT_EQ(broken.err, "numacoll: '" + (scratch_dir() / "broken").string() + "' cannot be drawn: no column 'algorithm'\n");
    EXPECT_FALSE(std::filesystem::exists(scratch_dir() / "broken" / "latency.png"));
    const auto file = write_scratch("a-file", "x");
    expect_usage_error("validate --bytes 64 -n 1 -o " + file.string(), "it is a file, not a folder");
}

// A saved schedule is validated as it is: its spec, its ranks' places, one
// point, traced.
TEST(Cli, ValidateFromASavedSchedule) {
    const auto schedule = scratch_dir() / "saved-bcast.json";
    ASSERT_EQ(run("dag -t live --ranks 2 -c bcast -a binomial -b 4KiB -f json -o " + schedule.string()).exit_code, 0);
    const auto dir = scratch_dir() / "validation-from";
    const Result result = run("validate --from " + schedule.string() + " -n 3 --rounds 1 -q -o " + dir.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    const std::string csv = slurp(dir / "validation.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 2) << csv;  // the header and the one point
    EXPECT_NE(csv.find("bcast,binomial,4096,"), std::string::npos) << csv;
    EXPECT_TRUE(std::filesystem::exists(dir / "trace-measured.csv"));
    EXPECT_TRUE(std::filesystem::exists(dir / "trace-simulated.csv"));
    // Both in Chrome's format: the simulated and the measured node side by side.
    const auto events = nlohmann::json::parse(slurp(dir / "trace.json"));
    std::set<std::string> processes;
    for (const auto& event : events)
        if (event["ph"] == "M" && event["name"] == "process_name") processes.insert(event["args"]["name"]);
    EXPECT_EQ(processes, (std::set<std::string>{"bcast binomial 4KiB, simulated, node 0",
                                                "bcast binomial 4KiB, measured, node 0"}));
}

TEST(Cli, ASimulatedSixteenNodeAllreduceTracesForTraceViewers) {
    const auto chrome = scratch_dir() / "allreduce-16.json";
    const auto csv = scratch_dir() / "allreduce-16.csv";
    ASSERT_EQ(run("sim -t westmere --nodes 16 --bytes 64KiB -q -o /dev/null --trace " + chrome.string()).exit_code, 0);
    ASSERT_EQ(run("sim -t westmere --nodes 16 --bytes 64KiB -q -o /dev/null --trace " + csv.string()).exit_code, 0);
    const auto events = nlohmann::json::parse(slurp(chrome));
    // The trace-event format's JSON array: a process per node, a thread per
    // rank, a complete event per task with its start and duration (us).
    std::set<int> processes, threads;
    int complete = 0;
    double end_us = 0;
    for (const auto& event : events) {
        ASSERT_TRUE(event.contains("ph") && event.contains("pid") && event.contains("name")) << event;
        if (event["ph"] == "M" && event["name"] == "process_name") processes.insert(event["pid"].get<int>());
        if (event["ph"] != "X") continue;
        ++complete;
        threads.insert(event["tid"].get<int>());
        end_us = std::max(end_us, event["ts"].get<double>() + event["dur"].get<double>());
    }
    EXPECT_EQ(processes.size(), 16u);
    EXPECT_EQ(threads.size(), 16u * 12u);
    const std::string rows = slurp(csv);
    EXPECT_EQ(complete, std::count(rows.begin(), rows.end(), '\n') - 1);  // every task the CSV has
    const Result simulated = run("sim -t westmere --nodes 16 --bytes 64KiB -q");
    const std::string row = simulated.out.substr(simulated.out.find('\n') + 1);
    std::vector<std::string> fields;
    std::istringstream in(row);
    for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
    ASSERT_GT(fields.size(), 6u);
    EXPECT_NEAR(end_us, std::stod(fields[6]) / 1000.0, 1e-3);  // the last task ends at the makespan
}

TEST(Cli, CalibrateWritesParamsThatSimulationsRead) {
    const auto params = scratch_dir() / "calibrated.json";
    const auto points = scratch_dir() / "points.csv";
    const Result result = run("calibrate --quick -o " + params.string() + " --measurements " + points.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("calibrate: [1/"), std::string::npos) << result.err;  // progress
    const std::string json = slurp(params);
    EXPECT_NE(json.find("\"name\": \"calibrated:"), std::string::npos);
    EXPECT_NE(json.find("least-squares fit, residual"), std::string::npos);
    EXPECT_NE(json.find("flag_overhead_ns"), std::string::npos);
    EXPECT_NE(slurp(points).find("microbenchmark,level,bytes,streams"), std::string::npos);
    // The file is a params file like any other.
    const Result sim = run("sim --topology live --bytes 64 --params " + params.string() + " -o -");
    EXPECT_EQ(sim.exit_code, 0) << sim.err;
    // Bad input: one line, exit 2, before any measurement.
    expect_usage_error("calibrate --quick -o " + points.string() + " --measurements " + points.string(),
                       "-o and --measurements name the same file");
    expect_usage_error("calibrate --quick --base nowhere -o " + (scratch_dir() / "x.json").string(), "unknown params 'nowhere'");
    expect_usage_error("calibrate --quick -o /nonexistent-folder/p.json", "/nonexistent-folder/p.json");
    EXPECT_FALSE(std::filesystem::exists(scratch_dir() / "x.json"));
    // validate --calibrate keeps its params beside its results; --quick alone is refused.
    const auto dir = scratch_dir() / "validated";
    const Result validate = run("validate --calibrate --quick --attempts 1 --algorithm tree,tiled --bytes 64,64KiB -n 3 -q -o " +
                                dir.string());
    ASSERT_EQ(validate.exit_code, 0) << validate.err;
    EXPECT_TRUE(std::filesystem::exists(dir / "params-calibrated.json"));
    const std::string summary = slurp(dir / "summary.txt");
    EXPECT_NE(summary.find("params-calibrated.json"), std::string::npos);
    EXPECT_NE(summary.find("allreduce: which algorithm is fastest (2 sizes)"), std::string::npos) << summary;
    EXPECT_NE(summary.find("host check against the calibration: before the run flag"), std::string::npos) << summary;
    expect_usage_error("validate --quick --bytes 64 -o " + dir.string(), "--quick goes with --calibrate");
    expect_usage_error("validate --attempts 2 --bytes 64 -o " + dir.string(), "--attempts goes with --calibrate");
    expect_usage_error("validate --calibrate --attempts 0 --bytes 64 -o " + dir.string(), "--attempts: Value 0 not in range 1 to 10");
    const Result plot = run("plot " + dir.string());
    EXPECT_EQ(plot.exit_code, 0) << plot.err;
    for (const char* picture : {"compare-allreduce.png", "error-allreduce.png", "best-allreduce.png"})
        EXPECT_TRUE(std::filesystem::exists(dir / picture)) << picture;
}

TEST(Cli, SimWritesOneRowPerPoint) {
    const auto csv_path = scratch_dir() / "sim.csv";
    const auto trace_path = scratch_dir() / "trace.csv";
    const Result result = run("sim --topology westmere --collective allreduce --algorithm tree --bytes 8B:32,1KiB -o " +
                              csv_path.string() + " --trace " + trace_path.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("[4/4] allreduce tree 1KiB"), std::string::npos) << result.err;  // progress
    const std::string csv = slurp(csv_path);
    EXPECT_EQ(csv.rfind("collective,algorithm,bytes,ranks,nodes,engine,time_ns,", 0), 0u);
    EXPECT_NE(csv.find("allreduce,tree,8,12,1,sim,"), std::string::npos);
    EXPECT_NE(csv.find("allreduce,tree,1024,12,1,sim,"), std::string::npos);
    EXPECT_NE(csv.find("bundled:westmere"), std::string::npos);  // what produced it
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5);
    const std::string trace = slurp(trace_path);
    EXPECT_EQ(trace.rfind("collective,algorithm,bytes,task,thread,kind,label,start_ns,end_ns", 0), 0u);
    EXPECT_EQ(std::count(trace.begin(), trace.end(), '\n'), 1 + 4 * 44);  // 44 tasks per point
}

// --ranks-as processes: the process form, from dag to sim to run, with the
// datatype and operation named, and its rows saying what ran.
TEST(Cli, RanksAsProcessesRunsTheProcessFormOfATypedReduction) {
    const Result dag = run("dag -t westmere --ranks 4 --bytes 96 --datatype long_int --op maxloc --ranks-as processes -o -");
    ASSERT_EQ(dag.exit_code, 0) << dag.err;
    EXPECT_NE(dag.out.find("op=maxloc datatype=long_int nodes=1 ranks=processes-sharing-memory"), std::string::npos)
        << dag.out.substr(0, 300);
    EXPECT_NE(dag.out.find(" shared=1"), std::string::npos);
    EXPECT_NE(dag.out.find("label=copy-in"), std::string::npos);
    const auto time_of = [](const std::string& csv) { return std::stod(results_field(csv, "time_ns")); };
    const Result threads = run("sim -t westmere --ranks 6 --bytes 64KiB -q -o -");
    const Result processes = run("sim -t westmere --ranks 6 --bytes 64KiB --ranks-as processes -q -o -");
    ASSERT_EQ(processes.exit_code, 0) << processes.err;
    EXPECT_GT(time_of(processes.out), time_of(threads.out));  // the copies in and out
    const Result measured = run("run --threads 2 --bytes 1000 --datatype int16 --op bxor --ranks-as processes -n 3 -q -o -");
    ASSERT_EQ(measured.exit_code, 0) << measured.err;
    EXPECT_EQ(results_field(measured.out, "datatype"), "int16");
    EXPECT_EQ(results_field(measured.out, "op"), "bxor");
    EXPECT_EQ(results_field(measured.out, "rank_kind"), "processes-sharing-memory");
    EXPECT_EQ(results_field(threads.out, "rank_kind"), "threads");
    // validate measures and simulates the same form: the process form's copies in and out are predicted.
    const auto simulated_ns = [&](const std::string& form) {
        const auto dir = scratch_dir() / ("validate-" + form);
        const Result validated = run("validate --threads 2 -a tree --bytes 64KiB -n 3 --rounds 1 --params generic -q "
                                     "--ranks-as " + form + " -o " + dir.string());
        EXPECT_EQ(validated.exit_code, 0) << validated.err;
        return std::stod(results_field(slurp(dir / "validation.csv"), "simulated_ns"));
    };
    EXPECT_GT(simulated_ns("processes"), simulated_ns("threads"));
    const Result wrong = run("sim --ranks-as fibers --bytes 64");
    EXPECT_EQ(wrong.exit_code, 2);
    EXPECT_NE(wrong.err.find("--ranks-as"), std::string::npos) << wrong.err;
}

TEST(Cli, ASweepIsCheckedWholeBeforeItsFirstPointIsSimulated) {
    // Points are generated one at a time; the last one, repeated, is too
    // large, and is refused before the first is simulated or a row written.
    const auto csv_path = scratch_dir() / "refused.csv";
    const Result result = run("sim --nodes 64 --bytes 8,1MiB --repeat 300 -q -o " + csv_path.string());
    EXPECT_EQ(result.exit_code, 2) << result.err;
    EXPECT_NE(result.err.find("the allreduce tree x300 schedule would have about"), std::string::npos) << result.err;
    EXPECT_FALSE(std::filesystem::exists(csv_path));
}

TEST(Cli, SimSaysWhenItUsesGenericParams) {
    const Result result = run("sim --topology 'synthetic:Package:2 Core:3' --bytes 64");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("using the generic set"), std::string::npos);
    EXPECT_NE(result.out.find("bundled:generic"), std::string::npos);
}

TEST(Cli, BadParamsAreOneLineAndExitTwo) {
    const auto malformed = write_scratch("malformed.json", "{\"format\": \"numacoll-params\", ");
    expect_usage_error("sim --params " + malformed.string(), "malformed.json");
    std::string text = slurp(std::string(NUMACOLL_SOURCE_DIR) + "/costs/params/westmere.json");
    text.replace(text.find("\"dram\""), 6, "\"dramm\"");
    const auto missing = write_scratch("missing.json", text);
    expect_usage_error("sim --params " + missing.string(), "missing key 'levels.dram'");
    expect_usage_error("sim --params /nonexistent/params.json", "/nonexistent/params.json");
    expect_usage_error("sim --params nosuch", "unknown params 'nosuch'");
    expect_usage_error("sim --bytes 64:8", "must go up");
    expect_usage_error("sim --algorithm tree,bogus", "unknown algorithm 'bogus'");
}

TEST(Cli, TopoPlatformShowsRoutes) {
    const Result result = run("topo --topology westmere --platform --route cache6,core0");
    EXPECT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("other_socket (1 hop(s))"), std::string::npos);
    EXPECT_NE(result.out.find("n0.link0-1"), std::string::npos);
    EXPECT_NE(result.out.find("105.200 ns per 64 B line"), std::string::npos);
    const Result diagonal = run("topo --topology magnycours --platform --route cache24,core0");
    EXPECT_NE(diagonal.out.find("other_socket (2 hop(s))"), std::string::npos);
    expect_usage_error("topo --topology westmere --platform --route core0", "FROM,TO");
    expect_usage_error("topo --topology westmere --platform --route cache99,core0", "cache99");
    expect_usage_error("topo --route cache1,core0", "need --platform");
    expect_usage_error("topo --nodes 2", "need --platform");
    expect_usage_error("topo --topology westmere --platform --route cache2147483648,core0", "cache2147483648");
    expect_usage_error("topo --topology westmere --platform --route n2147483648.mem0,core0", "no such node");
}

TEST(Cli, ReproduceWritesTheTableTheCsvAndTheFigures) {
    const auto folder = scratch_dir() / "reproduce";
    const Result result = run("reproduce hpdc13-westmere-line hpdc13-binary-reduction -q -o " + folder.string());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.out.find("| hpdc13-westmere-line | HPDC'13 3.4 |"), std::string::npos) << result.out;
    EXPECT_NE(result.out.find("2 findings:"), std::string::npos) << result.out;
    const std::string csv = slurp(folder / "reproduce.csv");
    EXPECT_EQ(csv.rfind("finding,paper,setup,claim,numacoll,verdict,why,command\n", 0), 0u) << csv;
    EXPECT_NE(csv.find("numacoll sim -t westmere -c allreduce -a tree --bytes 0B,64B"), std::string::npos) << csv;
    EXPECT_TRUE(std::filesystem::exists(folder / "figures.csv"));
    EXPECT_TRUE(std::filesystem::exists(folder / "hpdc13-fig12-magnycours-reduce.png")) << result.out;
    // Bad input: one line and exit 2, before any work.
    expect_usage_error("reproduce no-such-finding -o " + folder.string(), "unknown finding 'no-such-finding'");
    expect_usage_error("reproduce hpdc13-westmere-line -o " + (folder / "reproduce.csv").string(), "reproduce.csv");
    expect_usage_error("reproduce hpdc13-westmere-line --machine skylake=x.xml -o " + folder.string(),
                       "NAME a bundled machine");
    expect_usage_error("reproduce hpdc13-westmere-line --machine westmere=" + (folder / "none.xml").string() + " -o " +
                           folder.string(),
                       "none.xml");
    // A machine that cannot stand for the bundled one is refused before any
    // simulation; a word after --machine NAME=FILE is a finding.
    const auto one_core = write_scratch("one-core.xml", slurp(std::filesystem::path(NUMACOLL_SOURCE_DIR) /
                                                              "fuzz/corpus/topology_xml/small-machine.xml"));
    expect_usage_error("reproduce --machine westmere=" + one_core.string() + " hpdc13-westmere-line -o " +
                           (scratch_dir() / "reproduce-refused").string(),
                       "westmere's findings need 2");
    EXPECT_FALSE(std::filesystem::exists(scratch_dir() / "reproduce-refused"));
    EXPECT_EQ(run("reproduce --list").exit_code, 0);
}

TEST(Cli, MpiReportSaysWhereTheTimeWentAndSimulatesTheSavedSchedules) {
    // A report as libnumacoll_mpi writes it, and the schedule it saved for
    // its served row (the process form of a 2-rank dissemination allreduce).
    const auto dir = scratch_dir() / "mpi-report";
    std::filesystem::create_directories(dir / "schedules");
    const Result saved = run("dag -t westmere --ranks 2 -c allreduce -a dissemination --bytes 8 --ranks-as processes "
                             "-o " + (dir / "schedules" / "allreduce-dissemination-double-sum-8B-1x2.schedule").string());
    ASSERT_EQ(saved.exit_code, 0) << saved.err;
    {
        std::ofstream report(dir / "report.csv");
        report << "communicator,ranks,nodes,ranks_per_node,placement,collective,algorithm,datatype,size_bucket_bytes,"
                  "calls,total_ns,median_ns,handed_back_because\n"
                  "world,2,1,2,2 bound to a PU; PUs 0 1,allreduce,dissemination,double,8,300,90000,250,\n"
                  "world,2,1,2,2 bound to a PU; PUs 0 1,allreduce,native,int,4,100,10000,100,user-defined operation\n"
                  "world,2,1,2,2 bound to a PU; PUs 0 1,barrier,dissemination,bytes,0,50,50000,900,\n";
    }
    const Result summary = run("mpi-report " + (dir / "report.csv").string());
    ASSERT_EQ(summary.exit_code, 0) << summary.err;
    EXPECT_NE(summary.out.find("450 calls, 0.150 ms in collectives"), std::string::npos) << summary.out;
    EXPECT_NE(summary.out.find("400 calls"), std::string::npos) << summary.out;
    EXPECT_NE(summary.out.find("300 served by numacoll; 100 handed back (user-defined operation)"), std::string::npos)
        << summary.out;
    const Result simulated = run("mpi-report " + (dir / "report.csv").string() + " -t westmere --params westmere "
                                 "--schedules " + (dir / "schedules").string() + " -o " + (dir / "c.csv").string());
    ASSERT_EQ(simulated.exit_code, 0) << simulated.err;
    const std::string csv = slurp(dir / "c.csv");
    // The served row's median beside the simulated time of its schedule.
    EXPECT_NE(csv.find("allreduce,dissemination,double,8,2,1,300,250,"), std::string::npos) << csv;
}

// One vocabulary: every command takes -q, and every command that places
// ranks takes -p/--ranks (the execution commands also -P/--threads) and
// -N/--nodes where it has nodes; the same run gives the same rows.
TEST(Cli, EveryCommandSpeaksTheSameOptions) {
    for (const std::string command : {"topo", "dag", "sim", "model", "run", "baseline", "calibrate", "validate", "plot",
                                      "reproduce", "tune", "whatif", "overlap", "mpi-report", "demo"}) {
        const Result help = run(command + " --help");
        ASSERT_EQ(help.exit_code, 0) << command;
        EXPECT_TRUE(help.out.find("-q,--quiet") != std::string::npos || help.out.find("--quiet,-q") != std::string::npos)
            << command << " takes no -q";
    }
    for (const std::string command : {"topo", "dag", "sim", "model", "run", "validate", "tune", "whatif", "overlap", "demo"}) {
        const Result help = run(command + " --help");
        EXPECT_NE(help.out.find("--ranks"), std::string::npos) << command << " takes no --ranks";
        EXPECT_NE(help.out.find("-p,"), std::string::npos) << command << " takes no -p";
    }
    for (const std::string command : {"topo", "dag", "sim", "model", "run", "tune", "whatif", "overlap"})
        EXPECT_NE(run(command + " --help").out.find("-N,--nodes"), std::string::npos) << command << " takes no -N";
    const auto dir = scratch_dir() / "whatif-spelling";
    const std::string whatif = "whatif -t westmere --vary cores_per_llc=2,3 -c allreduce -a tree,tiled -b 64,64KiB ";
    const Result spelled = run(whatif + "-N 2 -p 4 --no-plots -q -o " + dir.string());
    ASSERT_EQ(spelled.exit_code, 0) << spelled.err;
    const std::string table = slurp(dir / "whatif.csv");
    ASSERT_NE(table.find(",2,"), std::string::npos) << table;
    const Result long_names = run(whatif + "--nodes 2 --ranks 4 --no-plots -q -o " + dir.string());
    ASSERT_EQ(long_names.exit_code, 0) << long_names.err;
    EXPECT_EQ(slurp(dir / "whatif.csv"), table);
    EXPECT_TRUE(run("dag -q --bytes 64").err.empty());
}

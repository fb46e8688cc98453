// Bad inputs: each throws the right numacoll error, with a message that names
// the input. InputError derives from UsageError, so tests say which one exactly.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

namespace fs = std::filesystem;

enum class Thrown { nothing, input_error, usage_error, other };

// Runs `load` and reports which error it threw, and its message.
std::pair<Thrown, std::string> outcome(const std::function<void()>& load) {
    try {
        load();
    } catch (const InputError& error) {
        return {Thrown::input_error, error.what()};
    } catch (const UsageError& error) {
        return {Thrown::usage_error, error.what()};
    } catch (const std::exception& error) {
        return {Thrown::other, error.what()};
    }
    return {Thrown::nothing, ""};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

class TopoErrors : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::temp_directory_path() / ("numacoll_topo_" + std::to_string(::getpid()) + "_" + info->name());
        fs::create_directories(dir_);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::permissions(dir_ / "locked.xml", fs::perms::owner_all, ignored);
        fs::remove_all(dir_, ignored);
    }
    std::string write(const std::string& name, const std::string& text) const {
        const fs::path path = dir_ / name;
        std::ofstream(path) << text;
        return path.string();
    }
    fs::path dir_;
};

TEST_F(TopoErrors, MissingFile) {
    const std::string path = (dir_ / "absent.xml").string();
    for (const auto& load : {std::function<void()>([&] { load_xml_file(path); }),
                             std::function<void()>([&] { load_machine(path); })}) {
        const auto [thrown, message] = outcome(load);
        EXPECT_EQ(thrown, Thrown::input_error);
        EXPECT_EQ(message, "cannot read topology file '" + path + "': No such file or directory");
    }
}

TEST_F(TopoErrors, MissingFileWithXmlSuffixButNoSlash) {
    const auto [thrown, message] = outcome([] { load_machine("no-such-machine.xml"); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_TRUE(contains(message, "'no-such-machine.xml'")) << message;
    EXPECT_TRUE(contains(message, "No such file or directory")) << message;
}

TEST_F(TopoErrors, Directory) {
    const auto [thrown, message] = outcome([&] { load_machine(dir_.string()); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "cannot read topology file '" + dir_.string() + "': Is a directory");
}

TEST_F(TopoErrors, UnreadableFile) {
    if (::geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode (see PathThroughAFile)";
    const std::string path = write("locked.xml", "<topology/>");
    fs::permissions(path, fs::perms::none);
    const auto [thrown, message] = outcome([&] { load_xml_file(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "cannot read topology file '" + path + "': Permission denied");
}

TEST_F(TopoErrors, PathThroughAFile) {
    // Unreadable even for root: a regular file used as a directory.
    const std::string file = write("plain.xml", "x");
    const std::string path = file + "/inner.xml";
    const auto [thrown, message] = outcome([&] { load_machine(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "cannot read topology file '" + path + "': Not a directory");
}

TEST_F(TopoErrors, MalformedXml) {
    const std::string path = write("truncated.xml",
                                   "<?xml version=\"1.0\"?>\n<topology version=\"2.0\">\n  <object type=\"Machine\"");
    const auto [thrown, message] = outcome([&] { load_xml_file(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "'" + path + "' is not a valid hwloc XML topology (hwloc rejected it)");
}

TEST_F(TopoErrors, XmlThatIsNotATopology) {
    const std::string path = write("foo.xml", "<foo/>\n");
    const auto [thrown, message] = outcome([&] { load_machine(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "'" + path + "' is not a valid hwloc XML topology (no <topology> element: not an hwloc XML export)");
}

TEST_F(TopoErrors, XmlFormatVersionTooNew) {
    const std::string path = write("v3.xml", "<?xml version=\"1.0\"?>\n<topology version=\"3.0\">\n"
                                             "  <object type=\"Machine\" os_index=\"0\"/>\n</topology>\n");
    const auto [thrown, message] = outcome([&] { load_xml_file(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "'" + path +
                           "' is not a valid hwloc XML topology (hwloc XML format version 3.0 is unsupported: "
                           "this hwloc reads versions 1.x and 2.x)");
}

TEST_F(TopoErrors, EmptyFile) {
    const std::string path = write("empty.xml", "");
    const auto [thrown, message] = outcome([&] { load_xml_file(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "'" + path + "' is not a valid hwloc XML topology (the file is empty)");
}

TEST_F(TopoErrors, TopologyWithoutProcessors) {
    const std::string path = write("nopu.xml",
                                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                                   "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
                                   "<topology version=\"2.0\">\n"
                                   "  <object type=\"Machine\" os_index=\"0\"/>\n"
                                   "</topology>\n");
    const auto [thrown, message] = outcome([&] { load_xml_file(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_TRUE(contains(message, "'" + path + "'")) << message;
}

TEST(TopoSpecErrors, EmptySyntheticDescription) {
    for (const std::string spec : {"synthetic:", "synthetic:\"\"", "synthetic:   "}) {
        const auto [thrown, message] = outcome([&] { load_machine(spec); });
        EXPECT_EQ(thrown, Thrown::usage_error) << spec;
        EXPECT_TRUE(contains(message, "empty synthetic topology description")) << message;
    }
    EXPECT_EQ(outcome([] { load_synthetic(""); }).first, Thrown::usage_error);
}

TEST(TopoSpecErrors, GarbageSyntheticDescription) {
    for (const std::string description : {"Package:two Core:1", "banana", "Package:2 Core:0 PU:1"}) {
        const auto [thrown, message] = outcome([&] { load_machine("synthetic:" + description); });
        EXPECT_EQ(thrown, Thrown::usage_error) << description;
        EXPECT_TRUE(contains(message, "invalid synthetic topology description '" + description + "'")) << message;
    }
}

TEST(TopoSpecErrors, UnknownName) {
    const auto [thrown, message] = outcome([] { load_machine("sandybridge"); });
    EXPECT_EQ(thrown, Thrown::usage_error);
    EXPECT_EQ(message,
              "unknown topology 'sandybridge': expected live, synthetic:\"...\", a bundled name (westmere, "
              "magnycours, opteron8218, haswell) or a path to an hwloc XML file");
}

TEST(TopoSpecErrors, UnknownBundledName) {
    const auto [thrown, message] = outcome([] { load_bundled("sandybridge"); });
    EXPECT_EQ(thrown, Thrown::usage_error);
    EXPECT_TRUE(contains(message, "'sandybridge'")) << message;
    EXPECT_TRUE(contains(message, "westmere, magnycours")) << message;
}

}  // namespace
}  // namespace numacoll::topo

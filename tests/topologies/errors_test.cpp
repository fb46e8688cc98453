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
namespace embedded {
const std::vector<std::pair<std::string_view, std::string_view>>& files();  // topologies/bundled, built in
}
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
    // hwloc's parser crashes on some tags left open at the end (signal 11): numacoll refuses them first.
    EXPECT_EQ(message, "'" + path + "' is not a valid hwloc XML topology (line 3: the file ends inside a tag)");
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

// A small valid description (one package, one NUMA node, one L2, two cores of
// one PU each, one NIC) that each case below breaks in one place.
std::string small_machine_xml(const std::string& replace = "", const std::string& with = "") {
    std::string text =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!DOCTYPE topology SYSTEM \"hwloc2.dtd\">\n"
        "<topology version=\"2.0\">\n"
        "  <object type=\"Machine\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"1\">\n"
        "    <object type=\"Package\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"2\">\n"
        "      <object type=\"NUMANode\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"3\" local_memory=\"1073741824\"/>\n"
        "      <object type=\"L2Cache\" cpuset=\"0x3\" complete_cpuset=\"0x3\" nodeset=\"0x1\" complete_nodeset=\"0x1\" "
        "gp_index=\"4\" cache_size=\"1048576\" depth=\"2\" cache_linesize=\"64\" cache_associativity=\"0\" "
        "cache_type=\"0\">\n"
        "        <object type=\"Core\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"5\">\n"
        "          <object type=\"PU\" os_index=\"0\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"6\"/>\n"
        "        </object>\n"
        "        <object type=\"Core\" os_index=\"1\" cpuset=\"0x2\" complete_cpuset=\"0x2\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"7\">\n"
        "          <object type=\"PU\" os_index=\"1\" cpuset=\"0x2\" complete_cpuset=\"0x2\" nodeset=\"0x1\" "
        "complete_nodeset=\"0x1\" gp_index=\"8\"/>\n"
        "        </object>\n"
        "      </object>\n"
        "      <object type=\"OSDev\" gp_index=\"9\" name=\"eth0\" osdev_type=\"2\"/>\n"
        "    </object>\n"
        "  </object>\n"
        "</topology>\n";
    if (!replace.empty()) {
        const auto at = text.find(replace);
        if (at == std::string::npos) throw std::logic_error("no '" + replace + "' in the small machine");
        text.replace(at, replace.size(), with);
    }
    return text;
}

// The long forms hwloc writes: empty groups for zeros, 0xf...f for an
// infinite set.
TEST_F(TopoErrors, BitmapsAsHwlocWritesThemLoad) {
    for (const auto& [replace, with] : std::vector<std::pair<std::string, std::string>>{
             {"nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"1\"",
              "nodeset=\"0x1\" complete_nodeset=\"0x00000001,,,0x0\" gp_index=\"1\""},
             {"nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"1\"",
              "nodeset=\"0x1\" complete_nodeset=\"0x1\" allowed_nodeset=\"0xf...f\" gp_index=\"1\""},
             {"nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"1\"",
              "nodeset=\"0x1\" complete_nodeset=\"0x1\" allowed_nodeset=\"0xf...f,,0x00000001\" gp_index=\"1\""}}) {
        const std::string path = write("long-bitmaps.xml", small_machine_xml(replace, with));
        const auto [thrown, message] = outcome([&] { load_xml_file(path); });
        EXPECT_EQ(thrown, Thrown::nothing) << with << ": " << message;
    }
}

TEST_F(TopoErrors, TheSmallMachineLoads) {
    const Machine machine = load_xml_file(write("small.xml", small_machine_xml()));
    EXPECT_EQ(machine.core_count(), 2);
    EXPECT_EQ(machine.pu_count(), 2);
    EXPECT_EQ(machine.nics().size(), 1u);
}

// hwloc 2.9 dereferences a missing complete_cpuset while sorting children
// (a crash with signal 11 before numacoll checked it); the text is checked first.
TEST_F(TopoErrors, ObjectsWithoutTheSetsHwlocNeeds) {
    const struct {
        std::string replace, with, expected;
    } cases[] = {
        {"cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"6\"",
         "cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"6\"",
         "(line 9: PU object without complete_cpuset; hwloc needs both cpuset and complete_cpuset)"},
        {"type=\"Package\" os_index=\"0\" cpuset=\"0x3\" complete_cpuset=\"0x3\"", "type=\"Package\" os_index=\"0\"",
         "(line 5: Package object without cpuset; hwloc needs both cpuset and complete_cpuset)"},
        {"complete_nodeset=\"0x1\" gp_index=\"5\"", "gp_index=\"5\"",
         "(line 8: Core object with only one of nodeset and complete_nodeset)"},
        {"<object type=\"Core\" os_index=\"1\"", "<object os_index=\"1\"",
         "(line 11: an <object> without a type attribute)"},
        // Elements hwloc does not read take it through error paths that leak
        // or crash: each is refused by name before hwloc sees the file.
        {"<object type=\"OSDev\"", "<bogus/><object type=\"OSDev\"",
         "(line 15: <bogus> inside <object>, which hwloc's format does not have)"},
        {"gp_index=\"5\">", "gp_index=\"5\" </object>", "(line 8: a malformed attribute in <object> (each is name=\"value\", the name of a-z and _))"},
        {"        </object>\n      </object>", "        </object>\n      </topology>",
         "(line 14: </topology> closes <object>)"},
        {"<object type=\"Machine\"", "<object type=\"Bridge\"",
         "(line 4: the first object is a Bridge: hwloc's format starts with the Machine)"},
        {"      <object type=\"OSDev\"", "      stray text <object type=\"OSDev\"",
         "(line 15: text where hwloc's format has none (inside <object>))"},
        // hwloc_bitmap_sscanf aborts on a leading empty group and reads a
        // trailing one as an empty set.
        {"<object type=\"Core\" os_index=\"1\" cpuset=\"0x2\"", "<object type=\"Core\" os_index=\"1\" cpuset=\",0x2\"",
         "(line 11: cpuset=\",0x2\" in <object> is not a bitmap as hwloc writes it (0x%08x groups separated by commas))"},
        {"complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"8\"",
         "complete_cpuset=\"0x2,\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"8\"",
         "(line 12: complete_cpuset=\"0x2,\" in <object> is not a bitmap as hwloc writes it (0x%08x groups separated by "
         "commas))"},
        {"nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"3\"", "nodeset=\"1\" complete_nodeset=\"0x1\" gp_index=\"3\"",
         "(line 6: nodeset=\"1\" in <object> is not a bitmap as hwloc writes it (0x%08x groups separated by commas))"},
    };
    int index = 0;
    for (const auto& item : cases) {
        const std::string path = write("case" + std::to_string(index++) + ".xml", small_machine_xml(item.replace, item.with));
        const auto [thrown, message] = outcome([&] { load_xml_file(path); });
        EXPECT_EQ(thrown, Thrown::input_error) << item.with;
        EXPECT_EQ(message, "'" + path + "' is not a valid hwloc XML topology " + item.expected);
    }
}

// Descriptions hwloc loads but no machine can have; each used to load with
// PUs, cores or whole packages silently lost or invented.
TEST_F(TopoErrors, InconsistentMachinesAreRefused) {
    const struct {
        std::string replace, with, expected;
    } cases[] = {
        {"os_index=\"1\" cpuset=\"0x2\" complete_cpuset=\"0x2\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"8\"",
         "os_index=\"1\" cpuset=\"0x1\" complete_cpuset=\"0x1\" nodeset=\"0x1\" complete_nodeset=\"0x1\" gp_index=\"8\"",
         "core L#1 holds no PU (hwloc drops a PU whose cpuset another PU already has)"},
        {"cache_linesize=\"64\"", "cache_linesize=\"-1\"",
         "L2 cache L#0 has a line size of 4294967295 bytes (expected a power of two up to 4096, or 0 for unknown)"},
        {"cache_linesize=\"64\"", "cache_linesize=\"48\"",
         "L2 cache L#0 has a line size of 48 bytes (expected a power of two up to 4096, or 0 for unknown)"},
        {"cache_size=\"1048576\"", "cache_size=\"0\"", "L2 cache L#0 has a size of 0 bytes (expected 1 B to 1 TiB)"},
        {"local_memory=\"1073741824\"", "local_memory=\"-5\"",
         "NUMA node L#0 has 18446744073709551611 bytes of memory (more than 1 PiB)"},
        {"osdev_type=\"2\"", "osdev_type=\"77\"",
         "OS device 'eth0' has osdev_type 77, which hwloc does not define (0-5)"},
    };
    int index = 0;
    for (const auto& item : cases) {
        const std::string path = write("case" + std::to_string(index++) + ".xml", small_machine_xml(item.replace, item.with));
        const auto [thrown, message] = outcome([&] { load_xml_file(path); });
        EXPECT_EQ(thrown, Thrown::input_error) << item.with;
        EXPECT_EQ(message, "'" + path + "' is not a consistent hardware description: " + item.expected);
    }
    // hwloc's "unknown" values are not inconsistencies.
    for (const auto& [replace, with] : std::vector<std::pair<std::string, std::string>>{
             {"cache_linesize=\"64\"", "cache_linesize=\"0\""},
             {"local_memory=\"1073741824\"", "local_memory=\"0\""}}) {
        const std::string path = write("unknown.xml", small_machine_xml(replace, with));
        EXPECT_EQ(outcome([&] { load_xml_file(path); }).first, Thrown::nothing) << with;
    }
}

// hwloc keeps only the children inside a package's cpuset: a package that
// claims its neighbour's CPUs used to leave half of westmere's cores out.
TEST_F(TopoErrors, OverlappingPackagesAreRefused) {
    std::string text;
    for (const auto& [stem, xml] : embedded::files())
        if (stem == "westmere") text = std::string(xml);
    const std::string first = "<object type=\"Package\" os_index=\"0\" cpuset=\"0x0003f03f\" complete_cpuset=\"0x0003f03f\"";
    const auto at = text.find(first);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, first.size(), "<object type=\"Package\" os_index=\"0\" cpuset=\"0x00fc0fc0\" complete_cpuset=\"0x00fc0fc0\"");
    const std::string path = write("overlap.xml", text);
    const auto [thrown, message] = outcome([&] { load_xml_file(path); });
    EXPECT_EQ(thrown, Thrown::input_error);
    EXPECT_EQ(message, "'" + path + "' is not a consistent hardware description: packages L#0 and L#1 both hold PU L#0");
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

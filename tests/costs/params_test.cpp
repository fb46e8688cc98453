#include "costs/params.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "common/error.hpp"
#include "topologies/machine.hpp"

using namespace numacoll;

namespace {

namespace test {
std::shared_ptr<const topo::Machine> load(const std::string& spec) {
    return std::make_shared<const topo::Machine>(topo::load_machine(spec));
}
}  // namespace test

// The files a test writes, removed when the test process ends.
struct TempFiles {
    std::vector<std::filesystem::path> paths;
    ~TempFiles() {
        std::error_code ignored;
        for (const auto& path : paths) std::filesystem::remove(path, ignored);
    }
};

std::string write_temp(const std::string& name, const std::string& text) {
    static TempFiles written;
    const auto path = std::filesystem::temp_directory_path() / ("numacoll-params-" + std::to_string(::getpid()) + "-" + name);
    std::ofstream(path) << text;
    written.paths.push_back(path);
    return path.string();
}

std::string message_of(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    return "(no InputError)";
}

// A size figure `section`.`key` of zero, below zero or beyond 1 TiB is
// refused with its key, whatever the rest of `json`.
void expect_sizes_refused(nlohmann::json json, const std::string& section, const std::string& key) {
    for (double bad : {0.0, -1.0, 0x1p41}) {
        json[section][key]["value"] = bad;
        EXPECT_NE(message_of([&] { costs::load_params(write_temp("bad-" + key + ".json", json.dump(1))); })
                      .find(section + "." + key + ".value"),
                  std::string::npos)
            << bad;
    }
}

std::string westmere_text() {
    std::ifstream in(std::string(NUMACOLL_SOURCE_DIR) + "/costs/params/westmere.json");
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST(Params, WestmereReproducesThePaperLatencies) {
    // a + b per cache line = the paper's measured latencies (HPDC'13 section 3.4).
    const auto params = costs::load_params("westmere");
    auto line_ns = [&](costs::Level level) {
        return params.at(level).latency_ns.value + 64 / params.at(level).bandwidth_bytes_per_ns.value;
    };
    EXPECT_NEAR(line_ns(costs::Level::local_cache), 1.2, 1e-6);
    EXPECT_NEAR(line_ns(costs::Level::same_socket), 28.5, 1e-6);
    EXPECT_NEAR(line_ns(costs::Level::other_socket), 105.2, 1e-6);
    EXPECT_NEAR(params.at(costs::Level::other_socket).aggregate_bandwidth_bytes_per_ns.value, 12.8, 1e-9);  // QPI 6.4 GT/s
    EXPECT_EQ(params.origin, "bundled:westmere");
}

TEST(Params, EveryBundledSetIsCompleteAndSourced) {
    for (const auto& name : costs::bundled_params_names()) {
        const auto params = costs::load_params(name);
        for (costs::Level level : costs::all_levels) {
            const auto& values = params.at(level);
            EXPECT_GT(values.bandwidth_bytes_per_ns.value, 0) << name;
            EXPECT_LE(values.bandwidth_bytes_per_ns.value, values.aggregate_bandwidth_bytes_per_ns.value) << name;
            EXPECT_FALSE(values.latency_ns.source.empty()) << name;
        }
        // Message overheads and the NIC's DMA windows, each with its source.
        ASSERT_TRUE(params.messages.has_value()) << name;
        ASSERT_TRUE(params.nic_dma.has_value()) << name;
        for (const costs::Figure* figure :
             {&params.messages->network_send_overhead_ns, &params.messages->network_receive_overhead_ns,
              &params.messages->network_gap_ns, &params.messages->process_send_overhead_ns,
              &params.messages->process_receive_overhead_ns, &params.nic_dma->read_window_bytes,
              &params.nic_dma->write_window_bytes}) {
            EXPECT_GT(figure->value, 0) << name;
            EXPECT_FALSE(figure->source.empty()) << name;
        }
    }
    EXPECT_EQ(costs::bundled_params_names(),
              (std::vector<std::string>{"westmere", "magnycours", "generic", "opteron8218", "haswell"}));
}

TEST(Params, MachinesGetTheirOwnOrTheGenericSet) {
    EXPECT_EQ(costs::params_for(*test::load("westmere"), "").name, "westmere");
    EXPECT_FALSE(costs::params_for(*test::load("magnycours"), "").generic_fallback);
    const auto synthetic = costs::params_for(*test::load("synthetic:Package:2 Core:4"), "");
    EXPECT_TRUE(synthetic.generic_fallback);
    EXPECT_EQ(synthetic.name, "generic");
    EXPECT_EQ(costs::params_for(*test::load("synthetic:Package:2 Core:4"), "westmere").name, "westmere");
}

TEST(Params, UserFilesLoad) {
    const auto path = write_temp("mine.json", westmere_text());
    const auto params = costs::load_params(path);
    EXPECT_EQ(params.origin, path);
    EXPECT_NEAR(params.at(costs::Level::dram).aggregate_bandwidth_bytes_per_ns.value, 32.0, 1e-9);
}

TEST(Params, BadFilesNameTheProblem) {
    const std::string good = westmere_text();
    EXPECT_NE(message_of([] { costs::load_params("/nonexistent/params.json"); }).find("/nonexistent/params.json"), std::string::npos);
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("broken.json", "{\"format\": ")); }).find("not valid JSON"),
              std::string::npos);
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("other.json", "{\"hello\": 1}")); }).find("not a numacoll params file"),
              std::string::npos);

    // Drop the DRAM level's latency: the error names the key.
    auto json = nlohmann::json::parse(good);
    json["levels"]["dram"].erase("latency_ns");
    const std::string without = json.dump(1);
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("nodram.json", without)); }).find("missing key 'levels.dram.latency_ns'"),
              std::string::npos)
        << message_of([&] { costs::load_params(write_temp("nodram.json", without)); });
    auto no_network = good;
    no_network.replace(no_network.find("\"network\""), 9, "\"netwerk\"");
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("nonet.json", no_network)); }).find("missing key 'levels.network'"),
              std::string::npos);
    EXPECT_THROW(costs::load_params("nosuchparams"), UsageError);
    // A value of the wrong type is an input error too, not a crash.
    auto typed = nlohmann::json::parse(good);
    typed["format"] = 3;
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("typed.json", typed.dump())); }).find("params"), std::string::npos);
    typed = nlohmann::json::parse(good);
    typed["levels"]["dram"]["latency_ns"]["source"] = 12;
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("source.json", typed.dump())); }).find("source"), std::string::npos);
    // A version too big for an int (a double to the parser) or fractional is refused, not converted to int.
    for (const char* version : {"422222222222222222231", "1.5", "\"1\"", "2"}) {
        auto versioned = good;
        versioned.replace(versioned.find("\"version\": 1"), 12, std::string("\"version\": ") + version);
        EXPECT_NE(message_of([&] { costs::load_params(write_temp("version.json", versioned)); }).find("unsupported version (expected 1)"),
                  std::string::npos)
            << version;
    }
}

TEST(Params, TheComputeRateIsSourcedAndOptionalInOlderFiles) {
    for (const auto& name : costs::bundled_params_names()) {
        const auto params = costs::load_params(name);
        ASSERT_TRUE(params.compute_flops_per_ns.has_value()) << name;
        EXPECT_GT(params.compute_flops_per_ns->value, 0) << name;
        EXPECT_FALSE(params.compute_flops_per_ns->source.empty()) << name;
    }
    EXPECT_NEAR(costs::load_params("westmere").compute_flops_per_ns->value, 4 * 2.666667, 1e-5);  // 4 DP flops/cycle
    // A file written before compute tasks existed still loads, without the rate.
    auto json = nlohmann::json::parse(westmere_text());
    json["core"].erase("compute_flops_per_ns");
    const auto older = costs::load_params(write_temp("older.json", json.dump(1)));
    EXPECT_FALSE(older.compute_flops_per_ns.has_value());
    // A rate that is there must be a positive number with a source.
    json["core"]["compute_flops_per_ns"] = {{"value", 0}, {"source", "none"}};
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("zero.json", json.dump(1))); }).find("compute_flops_per_ns"),
              std::string::npos);
}

TEST(Params, ThePrivateCacheIsOptionalPositiveAndBounded) {
    for (const auto& name : costs::bundled_params_names())
        EXPECT_FALSE(costs::load_params(name).private_cache_bytes.has_value()) << name << ": bundled sets do not spill";
    auto json = nlohmann::json::parse(westmere_text());
    json["core"]["private_cache_bytes"] = {{"value", 262144}, {"source", "Westmere: 256 KiB L2 per core"}};
    const auto params = costs::load_params(write_temp("l2.json", json.dump(1)));
    ASSERT_TRUE(params.private_cache_bytes.has_value());
    EXPECT_DOUBLE_EQ(params.private_cache_bytes->value, 262144);
    const auto back = costs::parse_params(costs::params_to_json(params), "back");
    ASSERT_TRUE(back.private_cache_bytes.has_value());
    EXPECT_EQ(back.private_cache_bytes->source, "Westmere: 256 KiB L2 per core");
    expect_sizes_refused(json, "core", "private_cache_bytes");
}

// llc.merge_bytes: optional, with a source, bounded as sizes are, and kept
// through a write and a read back; the bundled Westmere and Magny-Cours merge by lines.
TEST(Params, MergedMissesAreOptionalPositiveAndBounded) {
    for (const char* name : {"westmere", "magnycours"}) {
        const auto bundled = costs::load_params(name);
        ASSERT_TRUE(bundled.llc_merge_bytes.has_value()) << name;
        EXPECT_EQ(bundled.llc_merge_bytes->value, bundled.cache_line_bytes) << name;
    }
    auto json = nlohmann::json::parse(westmere_text());
    json.erase("llc");
    EXPECT_FALSE(costs::load_params(write_temp("no-merge.json", json.dump(1))).llc_merge_bytes.has_value());
    json["llc"] = {{"merge_bytes", {{"value", 128}, {"source", "two lines"}}}};
    const auto params = costs::load_params(write_temp("merge.json", json.dump(1)));
    ASSERT_TRUE(params.llc_merge_bytes.has_value());
    const auto back = costs::parse_params(costs::params_to_json(params), "back");
    ASSERT_TRUE(back.llc_merge_bytes.has_value());
    EXPECT_EQ(back.llc_merge_bytes->value, 128);
    EXPECT_EQ(back.llc_merge_bytes->source, "two lines");
    expect_sizes_refused(json, "llc", "merge_bytes");
    json["llc"] = {{"merge", 1}};
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("no-key.json", json.dump(1))); }).find("llc.merge_bytes"),
              std::string::npos);
}

// Rates per reduction kernel: optional, named by the kernel's first
// datatype, bounded as rates are; a type without one folds at the doubles'.
TEST(Params, ReductionRatesPerDatatypeAreOptionalNamedAndBounded) {
    auto json = nlohmann::json::parse(westmere_text());
    json["core"]["reduce_bytes_per_ns_by_datatype"] = {{"float", {{"value", 9.5}, {"source", "test"}}}};
    const auto params = costs::load_params(write_temp("typed.json", json.dump(1)));
    EXPECT_DOUBLE_EQ(costs::reduce_rate(params, sched::Datatype::float_).value, 9.5);
    EXPECT_DOUBLE_EQ(costs::reduce_rate(params, sched::Datatype::real).value, 9.5);  // Fortran REAL: float's kernel
    EXPECT_DOUBLE_EQ(costs::reduce_rate(params, sched::Datatype::int32).value, params.reduce_bytes_per_ns.value);
    const auto back = costs::parse_params(costs::params_to_json(params), "back");
    EXPECT_EQ(back.reduce_bytes_per_ns_by_datatype.at("float").source, "test");
    json["core"]["reduce_bytes_per_ns_by_datatype"] = {{"real", {{"value", 9.5}, {"source", "test"}}}};
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("typed-name.json", json.dump(1))); })
                  .find("reduce_bytes_per_ns_by_datatype.real' names no reduction kernel"),
              std::string::npos);
    json["core"]["reduce_bytes_per_ns_by_datatype"] = {{"float", {{"value", 1e300}, {"source", "test"}}}};
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("typed-range.json", json.dump(1))); })
                  .find("bytes/ns"),
              std::string::npos);
}

// Finite but absurd figures used to reach the simulator as infinite or zero
// times; each is refused with its key, its range and its unit.
TEST(Params, AbsurdFiguresAreRefusedWithTheirRange) {
    const struct {
        std::vector<std::string> path;
        double value;
        std::string expected;
    } cases[] = {
        {{"levels", "dram", "latency_ns"}, 1e300, "'levels.dram.latency_ns.value' must be between 0.001 and 1e+09 ns (got 1e+300)"},
        {{"levels", "dram", "latency_ns"}, 1e-300, "'levels.dram.latency_ns.value' must be between 0.001 and 1e+09 ns (got 1e-300)"},
        {{"levels", "dram", "bandwidth_bytes_per_ns"}, 1e-300,
         "'levels.dram.bandwidth_bytes_per_ns.value' must be between 1e-06 and 1e+06 bytes/ns (got 1e-300)"},
        {{"levels", "network", "aggregate_bandwidth_bytes_per_ns"}, 1e12,
         "'levels.network.aggregate_bandwidth_bytes_per_ns.value' must be between 1e-06 and 1e+06 bytes/ns (got 1e+12)"},
        {{"core", "reduce_bytes_per_ns"}, 1e9, "'core.reduce_bytes_per_ns.value' must be between 1e-06 and 1e+06 bytes/ns"},
        {{"core", "private_cache_bytes"}, 0x1p41, "'core.private_cache_bytes.value' must be between 1 and 1.09951e+12 bytes"},
    };
    for (const auto& item : cases) {
        auto json = nlohmann::json::parse(westmere_text());
        nlohmann::json* node = &json;
        for (const auto& key : item.path) node = &(*node)[key];
        (*node)["value"] = item.value;
        if (!node->contains("source")) (*node)["source"] = "a test";
        const std::string message = message_of([&] { costs::load_params(write_temp("absurd.json", json.dump(1))); });
        EXPECT_NE(message.find(item.expected), std::string::npos) << message;
    }
    auto json = nlohmann::json::parse(westmere_text());
    json["cache_line_bytes"] = 1e9;
    EXPECT_NE(message_of([&] { costs::load_params(write_temp("line.json", json.dump(1))); })
                  .find("'cache_line_bytes' must be a number from 1 to 4096"),
              std::string::npos);
    // A zero latency stays allowed (an ideal level), and so does a large but possible one.
    json = nlohmann::json::parse(westmere_text());
    json["levels"]["dram"]["latency_ns"]["value"] = 0;
    json["levels"]["network"]["latency_ns"]["value"] = 5e6;
    EXPECT_NO_THROW(costs::load_params(write_temp("edge.json", json.dump(1))));
}

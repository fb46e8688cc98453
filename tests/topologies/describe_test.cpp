// describe() and to_json(): what `numacoll topo` prints.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "topologies/machine.hpp"

namespace numacoll::topo {
namespace {

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(DescribeTopo, WestmereSummary) {
    const std::string text = describe(load_bundled("westmere"));
    for (const char* part : {"machine westmere", "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz", "2 packages", "2 NUMA nodes",
                             "12 cores", "24 PUs (2 per core)", "package L#1 (P#1): cores 6-11, PUs 12-23",
                             "L3   2 x 12 MiB, shared by 6 cores", "L2   12 x 256 KiB, shared by 1 core",
                             "L1d  12 x 32 KiB", "L1i  12 x 32 KiB", "node L#0 (P#0): 12 GiB, cores 0-5",
                             "NUMA distances (NUMALatency)",
                             "ib0 (network, PCI 0000:04:00.0): NUMA node 0, package 0, cores 0-5",
                             "mlx4_0 (openfabrics, PCI 0000:04:00.0)"}) {
        EXPECT_TRUE(mentions(text, part)) << "missing '" << part << "' in:\n" << text;
    }
}

TEST(DescribeTopo, MagnycoursSummary) {
    const std::string text = describe(load_bundled("magnycours"));
    for (const char* part : {"4 packages", "8 dies", "8 NUMA nodes", "32 cores", "32 PUs",
                             "L3   8 x 5 MiB, shared by 4 cores", "   22", "ib0 (network"}) {
        EXPECT_TRUE(mentions(text, part)) << "missing '" << part << "' in:\n" << text;
    }
    EXPECT_FALSE(mentions(text, "per core")) << "one PU per core is not worth a mention";
}

TEST(DescribeTopo, MachineWithoutCachesOrDevices) {
    const std::string text = describe(load_synthetic("Package:2 Core:2 PU:1"));
    EXPECT_TRUE(mentions(text, "caches: none reported")) << text;
    EXPECT_TRUE(mentions(text, "I/O devices: none reported")) << text;
    EXPECT_FALSE(mentions(text, "NUMA distances")) << text;
}

TEST(JsonTopo, WestmereCountsAndDevices) {
    const Machine machine = load_bundled("westmere");
    const nlohmann::json json = nlohmann::json::parse(to_json(machine));
    EXPECT_EQ(json["name"], "westmere");
    EXPECT_EQ(json["cpu_model"], "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz");
    EXPECT_EQ(json["counts"]["packages"], 2);
    EXPECT_EQ(json["counts"]["numa_nodes"], 2);
    EXPECT_EQ(json["counts"]["cores"], 12);
    EXPECT_EQ(json["counts"]["pus"], 24);
    EXPECT_EQ(json["counts"]["caches"]["L3"], 2);
    EXPECT_EQ(json["counts"]["caches"]["L1"], 12);
    EXPECT_EQ(json["objects"].size(), machine.objects.size());
    EXPECT_EQ(json["cores"].size(), 12u);
    EXPECT_EQ(json["distances"]["name"], "NUMALatency");
    EXPECT_EQ(json["distances"]["values"], nlohmann::json({10.0, 20.0, 20.0, 10.0}));
    ASSERT_EQ(json["io_devices"].size(), 2u);
    EXPECT_EQ(json["io_devices"][0]["name"], "ib0");
    EXPECT_EQ(json["io_devices"][0]["kind"], "network");
    EXPECT_EQ(json["io_devices"][0]["numa_node"], 0);
    EXPECT_EQ(json["io_devices"][0]["pci_busid"], "0000:04:00.0");
    // An L3 object carries its cache fields; PU 1 keeps logical and OS indexes apart.
    const nlohmann::json& l3 = json["objects"][machine.caches_at_level(3)[0]];
    EXPECT_EQ(l3["kind"], "cache");
    EXPECT_EQ(l3["cache_bytes"], 12582912);
    EXPECT_EQ(l3["cores"].size(), 6u);
    const nlohmann::json& pu1 = json["objects"][machine.pus[1]];
    EXPECT_EQ(pu1["logical_index"], 1);
    EXPECT_EQ(pu1["os_index"], 12);
}

TEST(JsonTopo, MagnycoursDiesAndNoDistancesForSynthetic) {
    const nlohmann::json magnycours = nlohmann::json::parse(to_json(load_bundled("magnycours")));
    EXPECT_EQ(magnycours["counts"]["dies"], 8);
    EXPECT_EQ(magnycours["distances"]["count"], 8);
    const nlohmann::json synthetic = nlohmann::json::parse(to_json(load_synthetic("Core:1 PU:1")));
    EXPECT_TRUE(synthetic["distances"].is_null());
    EXPECT_EQ(synthetic["source"], "synthetic:Core:1 PU:1");
}

}  // namespace
}  // namespace numacoll::topo

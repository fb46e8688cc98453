// Proves every algorithm and option combination with the symbolic checker,
// and the process form of each, with and without single copy (up to 24 ranks):
// every rank count of each machine on one node (up to 64), and 1 to 8
// nodes of 1 to 8 ranks. Reductions run 200 bytes (25 elements: not a
// multiple of a cache line nor of most rank counts) whole and in 64-byte
// strips (or segments); copy-only collectives run 203 bytes (not even whole
// elements), bcast also in 64-byte segments; barriers, scatter, gather,
// allgather and alltoall also run on nothing. A two-process algorithm runs
// where the layout has two ranks. Rooted
// collectives take the last rank, then a middle one, as root.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "algorithms/registry.hpp"
#include "common/error.hpp"
#include "schedule/process_form.hpp"
#include "schedule/symbolic_checker.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

struct Variant {
    sched::Collective collective;
    std::string algorithm;
    std::map<std::string, std::string> options;

    std::string name() const {
        std::string text = fmt::format("{} {}", sched::to_string(collective), algorithm);
        for (const auto& [key, value] : options) text += fmt::format(" {}={}", key, value);
        return text;
    }
};

// The options the proofs set by their own rules: the chunk sizes (sizes()
// below) and the ping-pong's peer.
bool set_by_the_proofs(const std::string& option) { return option == "strip" || option == "segment" || option == "peer"; }

// Every registered algorithm with its defaults, then with each of its
// options at each value the option names (OptionInfo::values), one at a
// time; then the combinations that one option at a time does not reach.
std::vector<Variant> variants() {
    std::vector<Variant> list;
    for (const auto& info : algo::algorithm_registry()) {
        list.push_back({info.collective, info.name, {}});
        for (const auto& option : info.options)
            for (const auto& value : option.values)
                if (value != option.default_value) list.push_back({info.collective, info.name, {{option.name, value}}});
    }
    using C = sched::Collective;
    for (Variant combination : std::vector<Variant>{
             {C::allreduce, "tree", {{"arity", "3"}, {"bcast", "nary"}}},
             {C::allreduce, "tiled", {{"internode", "rabenseifner"}, {"bcast", "2stage"}}},
             {C::allreduce, "tiled-naive", {{"internode", "binomial"}, {"bcast", "2stage"}}},
             {C::bcast, "tree", {{"bcast", "nary"}, {"arity", "3"}}},
             {C::bcast, "leader", {{"leader", "nic"}, {"intra", "split-binary"}}},
             {C::bcast, "chain", {{"leader", "nic"}, {"fanout", "1"}}},
             {C::barrier, "tree", {{"bcast", "nary"}, {"arity", "3"}}}})
        list.push_back(std::move(combination));
    return list;
}

// The option that cuts a variant's vector into chunks ("" if none), and how it says "off".
std::pair<std::string, std::string> chunk_option(const Variant& variant) {
    const auto& info = algo::find_algorithm(variant.collective, variant.algorithm);
    for (const auto& option : info.options) {
        if (option.name == "strip") return {"strip", "off"};
        // A segment that must be set (segmented-ring) is "off" at the first value it names.
        if (option.name == "segment") return {"segment", option.values.empty() ? "0" : option.values.front()};
    }
    return {"", ""};
}

// The sizes a variant is proven at, each with the strip options to try.
std::vector<std::pair<std::uint64_t, std::vector<std::string>>> sizes(const Variant& variant) {
    switch (variant.collective) {
        case sched::Collective::barrier: return {{0, {""}}};
        case sched::Collective::allreduce: return {{200, {"off", "64"}}, {0, {"off"}}};
        case sched::Collective::reduce: return {{200, {"off", "64"}}};
        case sched::Collective::bcast: return {{203, {"off", "64"}}};
        case sched::Collective::reduce_scatter: return {{200, {"off"}}, {0, {"off"}}};
        default: return {{203, {"off"}}, {0, {"off"}}};  // scatter, gather, allgather, alltoall, pingpong: no chunks
    }
}

// Elements of a reduction: doubles unless a test names others (sizes then
// count elements of them: 200 bytes are 25 elements).
struct Elements {
    sched::Datatype datatype = sched::Datatype::double_;
    sched::ReduceOp op = sched::ReduceOp::sum;
};

void prove(const Variant& variant, const std::string& topology, int ranks, int nodes, int root,
           const Elements& elements = {}) {
    const auto machine = test::machine(topology);
    algo::LayoutOptions layout_options;
    layout_options.ranks_per_node = ranks;
    layout_options.nodes = nodes;
    const algo::Layout layout = algo::make_layout(machine, layout_options);
    // A two-process algorithm is proven on its two ranks; others refuse it (tests/algorithms/registry_test.cpp).
    if (!algo::runs_on(algo::find_algorithm(variant.collective, variant.algorithm), layout.size())) return;
    for (const auto& [bytes, strips] : sizes(variant))
        for (const std::string& strip : strips) {
            sched::CollectiveSpec spec;
            spec.collective = variant.collective;
            spec.algorithm = variant.algorithm;
            spec.bytes = bytes / 8 * sched::element_size(elements.datatype);
            spec.datatype = elements.datatype;
            spec.op = elements.op;
            spec.root = root;
            spec.options = variant.options;
            if (variant.collective == sched::Collective::pingpong) {  // two ranks: the root and the next one
                if (layout.size() < 2) return;
                spec.options["peer"] = std::to_string((root + layout.size() - 1) % layout.size());
            }
            if (const auto [name, off] = chunk_option(variant); !name.empty())
                spec.options[name] = strip == "off" ? off : strip;
            const sched::Schedule schedule = algo::generate_schedule(spec, layout);
            const sched::CheckReport report = sched::check_schedule(schedule);
            ASSERT_TRUE(report.holds) << fmt::format("{} on {}: {} ranks x {} nodes, root {}, {} bytes of {}, strip {}: {}",
                                                     variant.name(), topology, ranks, nodes, root, spec.bytes,
                                                     sched::to_string(spec.datatype), strip, report.problems.front());
            // Its ranks as processes sharing a segment, proven again.
            if (schedule.rank_kind == sched::RankKind::shared_process) continue;
            for (const bool single_copy : {false, true}) {
                const sched::Schedule form = sched::process_form(schedule, {.single_copy = single_copy});
                // Where no input is only copied from, single copy changes
                // nothing; its rule is per reader, proven up to 24 ranks.
                if (single_copy && layout.size() > 24) continue;
                if (single_copy && std::none_of(form.buffers().begin(), form.buffers().end(),
                                                [](const sched::Buffer& buffer) { return buffer.exposed; }))
                    continue;
                const sched::CheckReport processes = sched::check_schedule(form);
                ASSERT_TRUE(processes.holds) << fmt::format(
                    "the process form{} of {} on {}: {} ranks x {} nodes, root {}, {} bytes of {}, strip {}: {}",
                    single_copy ? " with single copy" : "", variant.name(), topology, ranks, nodes, root, spec.bytes,
                    sched::to_string(spec.datatype), strip, processes.problems.front());
            }
        }
}

void prove_everywhere(const std::string& topology) {
    const int cores = test::machine(topology)->core_count();
    for (const Variant& variant : variants()) {
        SCOPED_TRACE(variant.name());
        for (int ranks = 1; ranks <= std::min(cores, 64); ++ranks) {
            prove(variant, topology, ranks, 1, ranks - 1);
            if (::testing::Test::HasFatalFailure()) return;
        }
        for (int nodes = 1; nodes <= 8; ++nodes)
            for (int ranks = 1; ranks <= std::min(cores, 8); ++ranks) {
                prove(variant, topology, ranks, nodes, (ranks * nodes) / 2);
                if (::testing::Test::HasFatalFailure()) return;
            }
    }
}

std::string test_name(const std::string& text) {
    std::string name;
    for (char c : text) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return name;
}

}  // namespace

// The proof list is the registry's: an algorithm is proven by being
// registered, and an option by naming the values it takes.
TEST(AlgorithmProofList, EveryOptionNamesTheValuesItIsProvenAt) {
    for (const auto& info : algo::algorithm_registry())
        for (const auto& option : info.options) {
            if (set_by_the_proofs(option.name)) continue;
            EXPECT_FALSE(option.values.empty()) << sched::to_string(info.collective) << " " << info.name << ": option '"
                                                << option.name << "' names no values to prove";
        }
    std::set<std::string> listed;
    for (const Variant& variant : variants()) listed.insert(std::string(sched::to_string(variant.collective)) + " " + variant.algorithm);
    EXPECT_EQ(listed.size(), algo::algorithm_registry().size());
}

class AlgorithmProofs : public ::testing::TestWithParam<std::string> {};

TEST_P(AlgorithmProofs, EveryAlgorithmHoldsForEveryShape) { prove_everywhere(GetParam()); }

INSTANTIATE_TEST_SUITE_P(Machines, AlgorithmProofs,
                         ::testing::Values("westmere", "magnycours", "opteron8218", "haswell", "live",
                                           "synthetic:Package:3 Core:5",
                                           "synthetic:Core:1", "synthetic:Package:7 Core:1",
                                           "synthetic:Package:4 L3Cache:2 Core:8"),
                         [](const auto& info) { return test_name(info.param); });

// Reductions cut their vectors (strips, segments, pieces among nodes,
// halves) at elements: with 1-byte and 32-byte elements, as with doubles,
// every cut keeps whole elements (validation refuses a reduce task that
// splits one) and the result holds.
TEST(AlgorithmProofsOfElements, EveryReductionHoldsForNarrowAndWideElements) {
    for (const Elements elements : {Elements{sched::Datatype::int8, sched::ReduceOp::bxor},
                                    Elements{sched::Datatype::long_double_int, sched::ReduceOp::maxloc}})
        for (const Variant& variant : variants()) {
            if (!sched::is_reduction(variant.collective)) continue;
            SCOPED_TRACE(variant.name() + " on " + sched::to_string(elements.datatype));
            for (const char* topology : {"westmere", "synthetic:Package:3 Core:5"})
                for (int nodes = 1; nodes <= 3; ++nodes)
                    for (int ranks : {1, 2, 5, 7}) {
                        prove(variant, topology, ranks, nodes, (ranks * nodes) / 2, elements);
                        if (HasFatalFailure()) return;
                    }
        }
}

// hwloc's reference machines, when their folder (NUMACOLL_HWLOC_XML_DIR) exists.
TEST(AlgorithmProofsOnSharedXml, EveryLoadableMachine) {
    namespace fs = std::filesystem;
    const fs::path folder{NUMACOLL_HWLOC_XML_DIR};
    if (!fs::is_directory(folder)) GTEST_SKIP() << folder << " is absent";
    int proven = 0;
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string extension = entry.path().extension().string();
        if (extension != ".xml" && extension != ".output") continue;
        try {
            test::machine(entry.path().string());
        } catch (const InputError&) {
            continue;  // rejected files are tested in tests/topologies
        }
        SCOPED_TRACE(entry.path().string());
        prove_everywhere(entry.path().string());
        if (HasFatalFailure()) return;
        ++proven;
    }
    EXPECT_GE(proven, 5);
}

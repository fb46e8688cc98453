// Each algorithm keeps the property it exists for (HPDC'13 sections 2.2-2.4):
// the tree and the tiled reduction cross sockets only at the top of the
// hierarchy, and dissemination's inter-socket rounds come last.
#include <gtest/gtest.h>

#include <set>

#include "algorithms/hierarchy.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

algo::Schedule generate(const std::string& topology, const std::string& algorithm, std::uint64_t bytes,
                        std::map<std::string, std::string> options = {}) {
    algo::CollectiveSpec spec;
    spec.collective = algo::Collective::allreduce;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.options = std::move(options);
    return algo::generate_schedule(spec, algo::make_layout(test::machine(topology), {}));
}

// The socket (top-level hierarchy group) of every rank of one node.
std::vector<int> socket_of_ranks(const std::string& topology) {
    const algo::Layout layout = algo::make_layout(test::machine(topology), {});
    const auto sockets = algo::socket_groups(algo::build_node_hierarchy(layout));
    std::vector<int> socket(layout.size());
    for (std::size_t k = 0; k < sockets.size(); ++k)
        for (int local : sockets[k]) socket[local] = static_cast<int>(k);
    return socket;
}

// Does a reduce read data owned by a rank of another socket than its own?
bool crosses_sockets(const algo::Schedule& schedule, int id, const std::vector<int>& socket) {
    const algo::Task& task = schedule.task(id);
    for (const algo::Range& read : task.reads)
        if (socket[schedule.buffer(read.buffer).owner] != socket[task.thread]) return true;
    return false;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(Structure, TreeReducesAcrossSocketsOnlyAtTheTop) {
    for (const char* topology : {"westmere", "magnycours", "synthetic:Package:4 L3Cache:2 Core:8"}) {
        SCOPED_TRACE(topology);
        const auto socket = socket_of_ranks(topology);
        const algo::Layout layout = algo::make_layout(test::machine(topology), {});
        const auto hierarchy = algo::build_node_hierarchy(layout);
        const std::string top = ":reduce:" + hierarchy.groups[hierarchy.root].level + ":";
        const algo::Schedule schedule = generate(topology, "tree", 4096, {{"strip", "1KiB"}});
        int crossing = 0;
        for (int id = 0; id < schedule.task_count(); ++id) {
            if (schedule.task(id).kind != algo::TaskKind::reduce) continue;
            const bool at_top = has(schedule.task(id).label, top);
            EXPECT_EQ(crosses_sockets(schedule, id, socket), at_top) << schedule.task(id).label;
            crossing += at_top;
        }
        EXPECT_GT(crossing, 0);
    }
}

TEST(Structure, TiledReducesAcrossSocketsOnlyInItsSocketTree) {
    for (const char* topology : {"westmere", "magnycours", "synthetic:Package:3 Core:5"}) {
        SCOPED_TRACE(topology);
        const auto socket = socket_of_ranks(topology);
        const algo::Schedule schedule = generate(topology, "tiled", 64 * 1024);
        int crossing = 0;
        for (int id = 0; id < schedule.task_count(); ++id) {
            const algo::Task& task = schedule.task(id);
            if (task.kind != algo::TaskKind::reduce) continue;
            const bool socket_tree = has(task.label, ":tiled:sockets:");
            EXPECT_EQ(crosses_sockets(schedule, id, socket), socket_tree) << task.label;
            crossing += socket_tree;
        }
        EXPECT_GT(crossing, 0);
    }
}

// The naive variants, by contrast, read across sockets in their one phase.
TEST(Structure, NaiveTilesIgnoreSockets) {
    const auto socket = socket_of_ranks("magnycours");
    const algo::Schedule schedule = generate("magnycours", "tiled-naive", 64 * 1024);
    int crossing = 0;
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).kind == algo::TaskKind::reduce) crossing += crosses_sockets(schedule, id, socket);
    EXPECT_EQ(crossing, 32);
}

TEST(Structure, DisseminationCrossesSocketsOnlyInItsLastRounds) {
    for (auto [topology, sockets] : {std::pair{"westmere", 2}, std::pair{"magnycours", 4}}) {
        SCOPED_TRACE(topology);
        const auto socket = socket_of_ranks(topology);
        const algo::Schedule schedule = generate(topology, "dissemination", 4096, {{"strip", "off"}});
        std::set<std::string> crossing_rounds;
        std::vector<bool> seen_crossing(schedule.rank_count(), false);
        for (int id = 0; id < schedule.task_count(); ++id) {
            const algo::Task& task = schedule.task(id);
            if (task.kind != algo::TaskKind::reduce) continue;
            const bool crossing = crosses_sockets(schedule, id, socket);
            if (crossing) crossing_rounds.insert(task.label);
            // In each thread's program, no round inside a socket follows one across sockets.
            EXPECT_FALSE(seen_crossing[task.thread] && !crossing) << task.label;
            seen_crossing[task.thread] = seen_crossing[task.thread] || crossing;
        }
        std::set<std::string> expected;
        for (int round = 0; (1 << round) < sockets; ++round) expected.insert("c0:dis:sockets:r" + std::to_string(round));
        EXPECT_EQ(crossing_rounds, expected);
    }
}

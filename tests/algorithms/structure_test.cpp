// Each algorithm keeps the property it exists for (HPDC'13 sections 2.2-2.4):
// the tree and the tiled reduction cross domains only at the top of the
// hierarchy, and dissemination's inter-domain rounds come last; and the
// hierarchical broadcasts of the hierarchical-communicators paper send one
// copy of the data into each group of each level.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <set>

#include "algorithms/hierarchy.hpp"
#include "algorithms/levels.hpp"
#include "algorithms/patterns/flat_trees.hpp"
#include "schedule/reachability.hpp"
#include "schedule_fixtures.hpp"

using namespace numacoll;

namespace {

sched::Schedule generate(const std::string& topology, const std::string& algorithm, std::uint64_t bytes,
                        std::map<std::string, std::string> options = {}) {
    sched::CollectiveSpec spec;
    spec.collective = sched::Collective::allreduce;
    spec.algorithm = algorithm;
    spec.bytes = bytes;
    spec.options = std::move(options);
    return algo::generate_schedule(spec, algo::make_layout(test::machine(topology), {}));
}

// The domain (top-level hierarchy group) of every rank of one node.
std::vector<int> domain_of_ranks(const std::string& topology) {
    const algo::Layout layout = algo::make_layout(test::machine(topology), {});
    const auto domains = algo::top_level_domains(algo::build_node_hierarchy(layout));
    std::vector<int> domain(layout.size());
    for (std::size_t k = 0; k < domains.size(); ++k)
        for (int local : domains[k]) domain[local] = static_cast<int>(k);
    return domain;
}

// Does a reduce read data owned by a rank of another domain than its own?
bool crosses_domains(const sched::Schedule& schedule, int id, const std::vector<int>& domain) {
    const sched::Task& task = schedule.task(id);
    for (const sched::Range& read : task.reads)
        if (domain[schedule.buffer(read.buffer).owner] != domain[task.thread]) return true;
    return false;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(Structure, TreeReducesAcrossDomainsOnlyAtTheTop) {
    for (const char* topology : {"westmere", "magnycours", "synthetic:Package:4 L3Cache:2 Core:8"}) {
        SCOPED_TRACE(topology);
        const auto domain = domain_of_ranks(topology);
        const algo::Layout layout = algo::make_layout(test::machine(topology), {});
        const auto hierarchy = algo::build_node_hierarchy(layout);
        const std::string top = ":reduce:" + hierarchy.groups[hierarchy.root].level + ":";
        const sched::Schedule schedule = generate(topology, "tree", 4096, {{"strip", "1KiB"}});
        int crossing = 0;
        for (int id = 0; id < schedule.task_count(); ++id) {
            if (schedule.task(id).kind != sched::TaskKind::reduce) continue;
            const bool at_top = has(schedule.task(id).label, top);
            EXPECT_EQ(crosses_domains(schedule, id, domain), at_top) << schedule.task(id).label;
            crossing += at_top;
        }
        EXPECT_GT(crossing, 0);
    }
}

TEST(Structure, TiledReducesAcrossDomainsOnlyInItsDomainTree) {
    for (const char* topology : {"westmere", "magnycours", "synthetic:Package:3 Core:5"}) {
        SCOPED_TRACE(topology);
        const auto domain = domain_of_ranks(topology);
        const sched::Schedule schedule = generate(topology, "tiled", 64 * 1024);
        int crossing = 0;
        for (int id = 0; id < schedule.task_count(); ++id) {
            const sched::Task& task = schedule.task(id);
            if (task.kind != sched::TaskKind::reduce) continue;
            const bool domain_tree = has(task.label, ":tiled:domains:");
            EXPECT_EQ(crosses_domains(schedule, id, domain), domain_tree) << task.label;
            crossing += domain_tree;
        }
        EXPECT_GT(crossing, 0);
    }
}

// The naive variants, by contrast, read across domains in their one phase.
TEST(Structure, NaiveTilesIgnoreDomains) {
    const auto domain = domain_of_ranks("magnycours");
    const sched::Schedule schedule = generate("magnycours", "tiled-naive", 64 * 1024);
    int crossing = 0;
    for (int id = 0; id < schedule.task_count(); ++id)
        if (schedule.task(id).kind == sched::TaskKind::reduce) crossing += crosses_domains(schedule, id, domain);
    EXPECT_EQ(crossing, 32);
}

TEST(Structure, DisseminationCrossesDomainsOnlyInItsLastRounds) {
    for (auto [topology, domains] : {std::pair{"westmere", 2}, std::pair{"magnycours", 4}}) {
        SCOPED_TRACE(topology);
        const auto domain = domain_of_ranks(topology);
        const sched::Schedule schedule = generate(topology, "dissemination", 4096, {{"strip", "off"}});
        std::set<std::string> crossing_rounds;
        std::vector<bool> seen_crossing(schedule.rank_count(), false);
        for (int id = 0; id < schedule.task_count(); ++id) {
            const sched::Task& task = schedule.task(id);
            if (task.kind != sched::TaskKind::reduce) continue;
            const bool crossing = crosses_domains(schedule, id, domain);
            if (crossing) crossing_rounds.insert(task.label);
            // In each thread's program, no round inside a domain follows one across domains.
            EXPECT_FALSE(seen_crossing[task.thread] && !crossing) << task.label;
            seen_crossing[task.thread] = seen_crossing[task.thread] || crossing;
        }
        std::set<std::string> expected;
        for (int round = 0; (1 << round) < domains; ++round) expected.insert("c0:dis:domains:r" + std::to_string(round));
        EXPECT_EQ(crossing_rounds, expected);
    }
}

namespace {

// Bytes that enter `group` from outside: copies by a rank of the group from a
// buffer of a rank outside it, and network messages into the group.
std::uint64_t bytes_into(const sched::Schedule& schedule, const algo::LevelGroup& group) {
    const auto inside = [&](int rank) { return std::binary_search(group.ranks.begin(), group.ranks.end(), rank); };
    std::uint64_t bytes = 0;
    for (int id = 0; id < schedule.task_count(); ++id) {
        const sched::Task& task = schedule.task(id);
        if (task.kind == sched::TaskKind::net && !inside(task.thread) && inside(task.peer)) bytes += task.write.bytes;
        if (task.kind == sched::TaskKind::copy && inside(task.thread))
            for (const sched::Range& read : task.reads)
                if (!inside(schedule.buffer(read.buffer).owner)) bytes += read.bytes;
    }
    return bytes;
}

// Does every group receive exactly one copy of the data (none into the root's groups)?
std::string one_copy_per_group(const sched::Schedule& schedule, const algo::Layout& layout, int root) {
    const algo::LayoutLevels levels(layout, root);
    for (const auto& group : levels.groups()) {
        const bool has_root = std::binary_search(group.ranks.begin(), group.ranks.end(), root);
        const std::uint64_t into = bytes_into(schedule, group);
        if (into != (has_root ? 0 : schedule.spec.bytes))
            return fmt::format("{} group {} receives {} bytes from outside", group.level,
                               algo::rank_list_text(group.ranks), into);
    }
    return "";
}

}  // namespace

TEST(Structure, HierarchicalBroadcastsSendOneCopyIntoEachGroup) {
    const std::uint64_t bytes = 4096;
    for (const auto& [topology, nodes] : std::vector<std::pair<std::string, int>>{
             {"westmere", 3}, {"magnycours", 1}, {"synthetic:Package:4 L3Cache:2 Core:8", 2}})
        for (const auto& flat : algo::flat_bcast_algorithms()) {
            SCOPED_TRACE(topology + " hier-" + flat.name);
            algo::LayoutOptions options;
            options.nodes = nodes;
            const algo::Layout layout = algo::make_layout(test::machine(topology), options);
            const int root = layout.size() / 2 + 1;
            const sched::Schedule schedule = test::schedule(topology, sched::Collective::bcast, "hier-" + flat.name, bytes,
                                                           0, nodes, root, {{"segment", "1KiB"}});
            EXPECT_EQ(one_copy_per_group(schedule, layout, root), "");
        }
}

TEST(Structure, FlatBroadcastsSendSeveralCopiesIntoSomeGroup) {
    // The check above can fail: a flat linear or binomial broadcast ignores the levels.
    for (const char* flat : {"linear", "binomial"}) {
        SCOPED_TRACE(flat);
        algo::LayoutOptions options;
        options.nodes = 3;
        const algo::Layout layout = algo::make_layout(test::machine("westmere"), options);
        const sched::Schedule schedule = test::schedule("westmere", sched::Collective::bcast, flat, 4096, 0, 3, 19);
        EXPECT_NE(one_copy_per_group(schedule, layout, 19), "");
    }
}

TEST(Structure, DisseminationIssuesEachNodeRoundBeforeItsCombines) {
    // A leader's round-j message must not wait for its own round-j combine:
    // otherwise round 0 is a chain around the nodes and the time grows with
    // the node count instead of its logarithm.
    for (int nodes : {4, 5, 16}) {
        SCOPED_TRACE(nodes);
        const sched::Schedule schedule =
            test::schedule("westmere", sched::Collective::allreduce, "dissemination", 64, 0, nodes, 0);
        sched::Reachability paths(schedule);
        std::map<int, std::vector<int>> messages, combines;  // round -> tasks
        for (int id = 0; id < schedule.task_count(); ++id) {
            const std::string& label = schedule.task(id).label.text();
            const auto at = label.find(":dis:nodes:r");
            if (at == std::string::npos) continue;
            const int round = std::stoi(label.substr(at + 12));
            if (schedule.task(id).kind == sched::TaskKind::net) messages[round].push_back(id);
            if (schedule.task(id).kind == sched::TaskKind::reduce) combines[round].push_back(id);
        }
        ASSERT_FALSE(messages.empty());
        for (const auto& [round, sent] : messages)
            for (int message : sent)
                for (int combine : combines[round])
                    EXPECT_FALSE(paths.reaches(combine, message)) << "round " << round << ": message " << message
                                                                  << " waits for combine " << combine;
    }
}

TEST(Structure, DisseminationRaisesEachRoundsSignalsBeforeItsCombines) {
    // Inside a node too: a thread runs its tasks in order, so a signal made
    // after its own combine of the same round would wait for it, and the
    // pairs of a round would fold one after the other (two threads: two
    // folds in a row instead of two at once).
    for (const auto& [machine, ranks] : std::vector<std::pair<std::string, int>>{{"westmere", 0}, {"westmere", 2},
                                                                                 {"magnycours", 0}, {"westmere", 7}}) {
        SCOPED_TRACE(machine + " " + std::to_string(ranks));
        const sched::Schedule schedule =
            test::schedule(machine, sched::Collective::allreduce, "dissemination", 64, 0, 1, ranks);
        sched::Reachability paths(schedule);
        std::map<std::string, std::vector<int>> signals, combines;  // round label -> tasks
        for (int id = 0; id < schedule.task_count(); ++id) {
            std::string label = schedule.task(id).label.text();
            if (label.find(":dis:") == std::string::npos) continue;
            if (label.size() > 6 && label.compare(label.size() - 6, 6, ":ready") == 0) label.resize(label.size() - 6);
            if (schedule.task(id).kind == sched::TaskKind::flag) signals[label].push_back(id);
            if (schedule.task(id).kind == sched::TaskKind::reduce) combines[label].push_back(id);
        }
        ASSERT_FALSE(signals.empty());
        for (const auto& [round, raised] : signals)
            for (int signal : raised)
                for (int combine : combines[round])
                    EXPECT_FALSE(paths.reaches(combine, signal)) << round << ": signal " << signal << " waits for combine "
                                                                 << combine;
    }
}

TEST(Structure, NaryBroadcastIsARegularTreeOfTheGivenFanOut) {
    // HPDC'13 section 2.2: one thread writes, n threads read it at once. On
    // magnycours' 32 threads the tree has n readers per parent and is as
    // deep as a full n-ary tree of 32 nodes: 5 levels for n = 2, 3 for n = 3 and 4.
    for (const auto& [arity, depth] : std::vector<std::pair<int, int>>{{2, 5}, {3, 3}, {4, 3}}) {
        SCOPED_TRACE(arity);
        const sched::Schedule schedule = test::schedule("magnycours", sched::Collective::bcast, "tree", 64, 0, 1, 0,
                                                        {{"bcast", "nary"}, {"arity", std::to_string(arity)}});
        std::map<int, int> readers;  // owner of the source -> copies from it
        std::vector<int> depth_of(schedule.rank_count(), 0);
        for (int id = 0; id < schedule.task_count(); ++id) {
            const sched::Task& task = schedule.task(id);
            if (task.kind != sched::TaskKind::copy) continue;
            const int source = schedule.buffer(task.reads.front().buffer).owner;
            ++readers[source];
            depth_of[task.thread] = depth_of[source] + 1;
        }
        EXPECT_EQ(readers[0], arity);
        for (const auto& [source, count] : readers) EXPECT_LE(count, arity) << "rank " << source;
        EXPECT_EQ(*std::max_element(depth_of.begin(), depth_of.end()), depth);
    }
}

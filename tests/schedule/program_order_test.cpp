// The rule of what one rank does at a time (schedule/program_order.hpp):
// the edges a file leaves out are found, and a generated schedule leaves
// none out.
#include "schedule/program_order.hpp"

#include <gtest/gtest.h>

#include "algorithms/registry.hpp"
#include "schedule/process_form.hpp"
#include "schedule/schedule_io.hpp"

using namespace numacoll;

namespace {

// Rank 0 copies its input into its output and into a temp, then tells rank
// 1; `deps` are the second copy's dependencies and `flag_deps` the flag's.
sched::Schedule two_copies(const std::string& deps, const std::string& flag_deps) {
    return sched::schedule_from_text(
        "numacoll-schedule 4\n"
        "spec collective=bcast algorithm=mine bytes=64 root=0 op=sum datatype=double nodes=1 ranks=threads\n"
        "rank 0 node=0 core=0 pu=0 numa=0 package=0\n"
        "rank 1 node=0 core=1 pu=1 numa=0 package=0\n"
        "buffer 0 name=in0 owner=0 bytes=64 role=input numa=0\n"
        "buffer 1 name=t0 owner=0 bytes=64 role=temp numa=0\n"
        "buffer 2 name=out1 owner=1 bytes=64 role=output numa=0\n"
        "task 0 copy thread=0 write=1@0+64 read=0@0+64 deps=-\n"
        "task 1 copy thread=0 write=1@0+64 read=0@0+64 deps=" + deps + "\n"
        "task 2 flag thread=0 peer=1 deps=" + flag_deps + "\n"
        "task 3 copy thread=1 write=2@0+64 read=1@0+64 deps=2\n");
}

}  // namespace

TEST(ProgramOrder, TheEdgesAFileLeavesOutAreFound) {
    using Edges = std::vector<std::pair<int, int>>;
    EXPECT_EQ(sched::missing_program_order_edges(two_copies("0", "1")), Edges{});
    EXPECT_EQ(sched::missing_program_order_edges(two_copies("-", "1")), (Edges{{0, 1}}));
    EXPECT_EQ(sched::missing_program_order_edges(two_copies("-", "0")), (Edges{{0, 1}, {1, 2}}));
    // A flag holds nothing up: rank 1's copy follows no task of its own.
    EXPECT_EQ(sched::missing_program_order_edges(two_copies("0", "0")), (Edges{{1, 2}}));
}

// Generated schedules write the rule's every edge (the builder keeps each
// rank's order); their process form leaves out the ones between a rank's
// copy of its input into the segment and its next reduction, which the
// rule then supplies.
TEST(ProgramOrder, GeneratedSchedulesHoldEveryEdge) {
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    algo::LayoutOptions options;
    options.nodes = 2;
    options.ranks_per_node = 5;
    const algo::Layout layout = algo::make_layout(machine, options);
    for (const auto& info : algo::algorithm_registry()) {
        if (!algo::runs_on(info, layout.size())) continue;
        sched::CollectiveSpec spec;
        spec.collective = info.collective;
        spec.algorithm = info.name;
        spec.bytes = info.collective == sched::Collective::barrier ? 0 : 4096;
        if (info.collective == sched::Collective::pingpong) spec.options["peer"] = "1";
        const sched::Schedule schedule = algo::generate_schedule(spec, layout);
        EXPECT_TRUE(sched::missing_program_order_edges(schedule).empty())
            << sched::to_string(info.collective) << " " << info.name;
    }
    sched::CollectiveSpec spec;
    spec.algorithm = "dissemination";
    spec.bytes = 4096;
    const sched::Schedule form = sched::process_form(algo::generate_schedule(spec, layout), {});
    EXPECT_FALSE(sched::missing_program_order_edges(form).empty());
}

// The simulator runs what the executor runs: a file that leaves a rank's
// order between two copies unwritten is simulated as the file that writes
// it (schedule/program_order.hpp), bit for bit, and the two copies take
// the core one after the other.
#include <gtest/gtest.h>

#include <cstring>

#include "schedule/schedule_io.hpp"
#include "sim/engine.hpp"

using namespace numacoll;

namespace {

sched::Schedule two_copies(const std::string& deps) {
    return sched::schedule_from_text(
        "numacoll-schedule 4\n"
        "spec collective=bcast algorithm=mine bytes=1048576 root=0 op=sum datatype=double nodes=1 ranks=threads\n"
        "rank 0 node=0 core=0 pu=0 numa=0 package=0\n"
        "buffer 0 name=in0 owner=0 bytes=1048576 role=input numa=0\n"
        "buffer 1 name=t0 owner=0 bytes=1048576 role=temp numa=0\n"
        "buffer 2 name=t1 owner=0 bytes=1048576 role=temp numa=0\n"
        "task 0 copy thread=0 write=1@0+1048576 read=0@0+1048576 deps=-\n"
        "task 1 copy thread=0 write=2@0+1048576 read=0@0+1048576 deps=" + deps + "\n");
}

}  // namespace

TEST(ProgramOrder, AnUnwrittenOrderIsSimulatedAsTheWrittenOne) {
    const auto machine = std::make_shared<const topo::Machine>(topo::load_machine("westmere"));
    const sim::PlatformModel platform(machine, costs::params_for(*machine, ""), 1);
    const sim::Simulation written = sim::simulate(two_copies("0"), platform);
    const sim::Simulation unwritten = sim::simulate(two_copies("-"), platform);
    ASSERT_EQ(written.timeline.tasks.size(), 2u);
    ASSERT_EQ(unwritten.timeline.tasks.size(), 2u);
    EXPECT_EQ(std::memcmp(written.timeline.tasks.data(), unwritten.timeline.tasks.data(), 2 * sizeof(sched::TaskTime)), 0);
    EXPECT_GE(unwritten.timeline.tasks[1].start_ns, unwritten.timeline.tasks[0].end_ns);
}

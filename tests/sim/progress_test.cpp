// Progress strategies and protocols against closed forms, on one message
// between two nodes (rank 0 sends m bytes to rank 1, which waits for it),
// composed with C ns of computation on both ranks. P_e is the message alone
// when eager, P_r when rendezvous (its request first), R the receive overhead.
//   eager, manual, no test:        C + R          (the data lands during C; o_r waits for the wait)
//   rendezvous, manual, no test:   C + P_e        (the data waits for the receiver's wait)
//   rendezvous, manual, test C/2:  max(C, C/2 + P_e - R) + R
//   rendezvous, progress thread:   C              (nothing waits)
//   rendezvous, shared thread:     C + P_r / 2 for C = P_r (the poller halves the computation until the message ends)
//   rendezvous, offload:           C              (the NIC answers; the rank's own wait waits for its wait call)
#include <gtest/gtest.h>

#include "overlap/compose.hpp"
#include "overlap/osu_overlap.hpp"
#include "sim/engine.hpp"
#include "sim_fixtures.hpp"

using namespace numacoll;
using sim::ProgressStrategy;

namespace {

constexpr double relative_tolerance = 1e-9;
constexpr double receive_overhead_ns = 500;
constexpr std::uint64_t message_bytes = 1 << 20;

sched::Schedule one_message() {
    sched::Schedule schedule;
    schedule.spec.collective = sched::Collective::bcast;
    schedule.spec.algorithm = "one-message";
    schedule.spec.bytes = message_bytes;
    schedule.nodes = 2;
    schedule.rank_kind = sched::RankKind::process;
    schedule.ranks = {{0, 0, 0, 0, 0}, {1, 0, 0, 0, 0}};
    const int in = schedule.add_buffer({"in", 0, message_bytes, sched::BufferRole::input, 0});
    const int out = schedule.add_buffer({"out", 1, message_bytes, sched::BufferRole::output, 0});
    sched::Task net;
    net.kind = sched::TaskKind::net;
    net.thread = 0;
    net.peer = 1;
    net.reads.push_back({in, 0, message_bytes});
    net.write = {out, 0, message_bytes};
    const int sent = schedule.add_task(net, {});
    sched::Task wait;
    wait.kind = sched::TaskKind::wait;
    wait.thread = 1;
    schedule.add_task(wait, {sent});
    return schedule;
}

costs::Params params(double eager_limit_bytes) {
    costs::Params result = test::uniform_params(100, 10, 10);
    result.compute_flops_per_ns = costs::Figure{1, "test"};
    result.messages = costs::MessageParams{{0, "test"}, {receive_overhead_ns, "test"}, {0, "test"}, {0, "test"}, {0, "test"},
                                           costs::Figure{eager_limit_bytes, "test"}};
    return result;
}

double makespan(double eager_limit_bytes, const overlap::ComputeSpec& compute, ProgressStrategy strategy) {
    static const auto machine = test::load("synthetic:Package:1 NUMANode:1 L3Cache:1(size=8388608) Core:2 PU:1");
    const sim::PlatformModel platform(machine, params(eager_limit_bytes), 2);
    return sim::simulate(overlap::compose(one_message(), compute, 1), platform, strategy).timeline.makespan_ns;
}

overlap::ComputeSpec computing(double compute_ns, std::optional<double> test_every_ns = std::nullopt) {
    overlap::ComputeSpec compute;
    compute.compute_ns = compute_ns;
    compute.test_every_ns = test_every_ns;
    return compute;
}

void expect_within_tolerance(double actual, double expected) {
    EXPECT_NEAR(actual, expected, relative_tolerance * expected) << "expected " << expected;
}

constexpr double eager = 1e12, rendezvous = 4096;

}  // namespace

TEST(ProgressClosedForm, AnEagerMessageMovesWhileTheReceiverComputes) {
    const double pure = makespan(eager, {}, ProgressStrategy::manual);
    ASSERT_GT(pure, receive_overhead_ns);
    const double compute = 4 * pure;
    const double overall = makespan(eager, computing(compute), ProgressStrategy::manual);
    expect_within_tolerance(overall, compute + receive_overhead_ns);
    EXPECT_GT(overlap::osu_overlap_percent(pure, compute, overall), 90);
}

TEST(ProgressClosedForm, ARendezvousMessageWaitsForTheReceiversWait) {
    const double pure_eager = makespan(eager, {}, ProgressStrategy::manual);
    const double pure = makespan(rendezvous, {}, ProgressStrategy::manual);
    EXPECT_GT(pure, pure_eager);  // the request crosses first
    const double compute = pure;  // OSU's default: computation as long as the collective
    const double overall = makespan(rendezvous, computing(compute), ProgressStrategy::manual);
    expect_within_tolerance(overall, compute + pure_eager);
    EXPECT_LT(overlap::osu_overlap_percent(pure, compute, overall), 5);
}

TEST(ProgressClosedForm, ATestCallInTheMiddleRecoversPart) {
    const double pure_eager = makespan(eager, {}, ProgressStrategy::manual);
    const double pure = makespan(rendezvous, {}, ProgressStrategy::manual);
    const double compute = pure;
    const double overall = makespan(rendezvous, computing(compute, compute / 2), ProgressStrategy::manual);
    const double data_ns = pure_eager - receive_overhead_ns;
    expect_within_tolerance(overall, std::max(compute, compute / 2 + data_ns) + receive_overhead_ns);
    const double recovered = overlap::osu_overlap_percent(pure, compute, overall);
    EXPECT_GT(recovered, 30);
    EXPECT_LT(recovered, 70);
}

TEST(ProgressClosedForm, AProgressThreadOnASpareCoreHidesItAll) {
    const double pure = makespan(rendezvous, {}, ProgressStrategy::thread);
    expect_within_tolerance(pure, makespan(rendezvous, {}, ProgressStrategy::manual));
    const double compute = 2 * pure;
    expect_within_tolerance(makespan(rendezvous, computing(compute), ProgressStrategy::thread), compute);
}

TEST(ProgressClosedForm, AProgressThreadSharingTheCoreSlowsTheComputation) {
    const double pure = makespan(rendezvous, {}, ProgressStrategy::shared_thread);
    expect_within_tolerance(pure, makespan(rendezvous, {}, ProgressStrategy::manual));
    const double compute = pure;
    const double overall = makespan(rendezvous, computing(compute), ProgressStrategy::shared_thread);
    expect_within_tolerance(overall, compute + pure / 2);
    EXPECT_NEAR(overlap::osu_overlap_percent(pure, compute, overall), 50, 1e-6);
}

TEST(ProgressClosedForm, OffloadAnswersTheRendezvousWithoutTheReceiver) {
    const double pure = makespan(rendezvous, {}, ProgressStrategy::offload);
    const double compute = 2 * pure;
    expect_within_tolerance(makespan(rendezvous, computing(compute), ProgressStrategy::offload), compute);
}

TEST(ProgressClosedForm, ACollectiveAloneIsTheSameUnderEveryStrategy) {
    static const auto machine = test::load("synthetic:Package:1 NUMANode:1 L3Cache:1(size=8388608) Core:2 PU:1");
    const sim::PlatformModel platform(machine, params(rendezvous), 2);
    const double plain = sim::simulate(one_message(), platform).timeline.makespan_ns;
    for (ProgressStrategy strategy : {ProgressStrategy::manual, ProgressStrategy::thread, ProgressStrategy::shared_thread,
                                      ProgressStrategy::offload})
        EXPECT_EQ(sim::simulate(one_message(), platform, strategy).timeline.makespan_ns, plain) << sim::to_string(strategy);
    // Without computation, a rendezvous only adds its request.
    EXPECT_GT(makespan(rendezvous, {}, ProgressStrategy::manual), plain);
    EXPECT_DOUBLE_EQ(makespan(eager, {}, ProgressStrategy::manual), plain);
}

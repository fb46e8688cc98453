#include "interpose/settings.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "common/error.hpp"

namespace numacoll {
namespace {

// Sets one variable for a test's duration.
struct Variable {
    const char* name;
    Variable(const char* variable_name, const char* value) : name(variable_name) { setenv(name, value, 1); }
    ~Variable() { unsetenv(name); }
};

TEST(InterposeSettings, NothingSetServesEveryCollectiveByTheModels) {
    const interpose::Settings settings = interpose::settings_from_environment();
    EXPECT_TRUE(settings.enabled);
    EXPECT_TRUE(settings.forced.empty());
    EXPECT_FALSE(settings.verbose);
    EXPECT_EQ(settings.max_segment_bytes, 64ull << 20);
}

TEST(InterposeSettings, AlgorithmsAreForcedPerCollective) {
    const Variable forced("NUMACOLL_MPI_ALGORITHM", "allreduce:tiled,bcast:native,barrier:dissemination");
    const interpose::Settings settings = interpose::settings_from_environment();
    ASSERT_EQ(settings.forced.size(), 3u);
    EXPECT_EQ(settings.forced.at(sched::Collective::allreduce), "tiled");
    EXPECT_EQ(settings.forced.at(sched::Collective::bcast), interpose::native_algorithm);
    EXPECT_EQ(settings.forced.at(sched::Collective::barrier), "dissemination");
}

TEST(InterposeSettings, AWrongValueIsRefusedNamingItsVariable) {
    const auto refusal = [](const char* name, const char* value) {
        const Variable variable(name, value);
        try {
            (void)interpose::settings_from_environment();
        } catch (const UsageError& error) {
            return std::string(error.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal("NUMACOLL_MPI_ALGORITHM", "allreduce:nope").find("'nope'"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_ALGORITHM", "allreduce").find("collective:algorithm"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_ALGORITHM", "alltoall:ring").find("NUMACOLL_MPI_ALGORITHM"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_ALGORITHM", "pingpong:direct").find("no MPI collective"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_VERBOSE", "maybe").find("NUMACOLL_MPI_VERBOSE"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_MAX_BYTES", "12").find("smallest"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_MAX_BYTES", "lots").find("NUMACOLL_MPI_MAX_BYTES"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_ON_ERROR", "ignore").find("native or abort"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_TRIAL", "-1").find("from 0 to 1000"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_TRIAL", "8x").find("NUMACOLL_MPI_TRIAL"), std::string::npos);
    EXPECT_NE(refusal("NUMACOLL_MPI_TRIAL", "100000").find("from 0 to 1000"), std::string::npos);
    EXPECT_EQ(refusal("NUMACOLL_MPI", "off"), "accepted");
}

TEST(InterposeSettings, ATrialOfEightCallsASideIsTheDefaultAndZeroTurnsItOff) {
    EXPECT_EQ(interpose::settings_from_environment().trial_calls, 8);
    const Variable off("NUMACOLL_MPI_TRIAL", "0");
    EXPECT_EQ(interpose::settings_from_environment().trial_calls, 0);
}

}  // namespace
}  // namespace numacoll

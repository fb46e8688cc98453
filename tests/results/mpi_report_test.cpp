// libnumacoll_mpi's report: its buckets, its lines, and reading it back.
#include "results/mpi_report.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"

using namespace numacoll;

TEST(MpiReport, SizesCountInTheirPowerOfTwo) {
    EXPECT_EQ(results::size_bucket(0), 0u);
    EXPECT_EQ(results::size_bucket(1), 1u);
    EXPECT_EQ(results::size_bucket(8), 8u);
    EXPECT_EQ(results::size_bucket(9), 16u);
    EXPECT_EQ(results::size_bucket(1000), 1024u);
}

TEST(MpiReport, ALineReadsBackAsItWasWritten) {
    const results::MpiReportRow native{"world", 4,  1,  4,  "PUs 0 1 2 3", "allreduce", "native", "int", 8,
                                       1,       50, 50, "user-defined operation"};
    const std::string line = results::mpi_report_line(native);
    EXPECT_EQ(line, "world,4,1,4,PUs 0 1 2 3,allreduce,native,int,8,1,50,50,user-defined operation\n");
    results::MpiReportRow unserved = native;
    unserved.nodes = 0;
    unserved.ranks_per_node = 0;
    EXPECT_EQ(results::mpi_report_line(unserved).rfind("world,4,,,PUs", 0), 0u);
    const auto rows = results::read_mpi_report(results::mpi_report_header() + line + results::mpi_report_line(unserved),
                                               "report");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].ranks_per_node, 4);
    EXPECT_EQ(rows[0].reason, "user-defined operation");
    EXPECT_DOUBLE_EQ(rows[0].median_ns, 50);
    EXPECT_EQ(rows[1].nodes, 0);
    EXPECT_THROW(results::read_mpi_report(line, "report"), InputError);  // no header
    EXPECT_THROW(results::read_mpi_report("", "report"), InputError);
    EXPECT_THROW(results::read_mpi_report(results::mpi_report_header() + "world,4\n", "report"), InputError);
}

// MPI's predefined datatypes and which reduction operations apply to each
// (MPI 4.0, section 6.9.2), and what a spec that breaks the rules is told.
#include "schedule/datatype.hpp"

#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "schedule/schedule.hpp"

using namespace numacoll;
using sched::Datatype;
using sched::ReduceOp;

TEST(Datatype, EveryNameReadsBackAndSizesAreTheAbis) {
    std::set<std::string> names;
    for (Datatype datatype : sched::all_datatypes()) {
        EXPECT_EQ(sched::parse_datatype(sched::to_string(datatype)), datatype);
        EXPECT_TRUE(names.insert(sched::to_string(datatype)).second) << sched::to_string(datatype);
        const std::uint64_t size = sched::element_size(datatype);
        EXPECT_TRUE(size >= 1 && size <= 32 && (size & (size - 1)) == 0) << sched::to_string(datatype);
    }
    EXPECT_EQ(names.size(), 39u);
    EXPECT_EQ(sched::one_datatype_per_representation().size(), 23u);  // the kernels
    EXPECT_EQ(sched::element_size(Datatype::int_), sizeof(int));
    EXPECT_EQ(sched::element_size(Datatype::long_), sizeof(long));
    EXPECT_EQ(sched::element_size(Datatype::long_double), sizeof(long double));
    EXPECT_EQ(sched::element_size(Datatype::c_bool), sizeof(bool));
    EXPECT_EQ(sched::element_size(Datatype::double_int), 16u);  // struct {double; int}, padded
    EXPECT_EQ(sched::element_size(Datatype::short_int), 8u);
    EXPECT_EQ(sched::element_size(Datatype::long_double_int), 32u);
    EXPECT_EQ(sched::element_size(Datatype::c_long_double_complex), 32u);
    EXPECT_EQ(sched::parse_datatype("2int"), Datatype::two_int);
    EXPECT_THROW(sched::parse_datatype("quad"), UsageError);
}

TEST(Datatype, OperationsApplyAsMpiDefinesThem) {
    EXPECT_TRUE(sched::applies(ReduceOp::sum, Datatype::c_double_complex));
    EXPECT_FALSE(sched::applies(ReduceOp::max, Datatype::c_double_complex));
    EXPECT_FALSE(sched::applies(ReduceOp::band, Datatype::double_));
    EXPECT_TRUE(sched::applies(ReduceOp::band, Datatype::byte));
    EXPECT_TRUE(sched::applies(ReduceOp::band, Datatype::integer));
    EXPECT_FALSE(sched::applies(ReduceOp::land, Datatype::integer));  // logical ops: C integers and logicals
    EXPECT_TRUE(sched::applies(ReduceOp::land, Datatype::logical));
    EXPECT_FALSE(sched::applies(ReduceOp::sum, Datatype::c_bool));
    EXPECT_FALSE(sched::applies(ReduceOp::sum, Datatype::byte));
    EXPECT_TRUE(sched::applies(ReduceOp::minloc, Datatype::two_int));
    EXPECT_FALSE(sched::applies(ReduceOp::minloc, Datatype::int_));
    EXPECT_FALSE(sched::applies(ReduceOp::sum, Datatype::float_int));
    EXPECT_EQ(sched::operations_on(Datatype::int_).size(), 10u);
    EXPECT_EQ(sched::operations_on(Datatype::float_).size(), 4u);
    EXPECT_EQ(sched::operations_on(Datatype::long_double_int),
              (std::vector<ReduceOp>{ReduceOp::minloc, ReduceOp::maxloc}));
    // MPI_CHAR is text, MPI_SIGNED_CHAR its integer.
    EXPECT_TRUE(sched::operations_on(Datatype::char_).empty());
    EXPECT_EQ(sched::operations_on(Datatype::signed_char).size(), 10u);
    for (Datatype datatype : sched::all_datatypes())
        if (datatype != Datatype::char_) {
            EXPECT_FALSE(sched::operations_on(datatype).empty()) << sched::to_string(datatype);
        }
}

TEST(Datatype, ASpecThatBreaksTheRulesIsTold) {
    // What check_datatype says of a spec: its refusal, or nothing.
    const auto refusal = [](const sched::CollectiveSpec& spec) -> std::string {
        try {
            sched::check_datatype(spec);
            return "";
        } catch (const UsageError& error) {
            return error.what();
        }
    };
    sched::CollectiveSpec spec;
    spec.datatype = Datatype::double_;
    spec.op = ReduceOp::band;
    spec.bytes = 64;
    EXPECT_EQ(refusal(spec),
              "operation band does not apply to double: MPI defines it on C integer, Fortran integer and byte types");
    spec.datatype = Datatype::double_int;
    spec.op = ReduceOp::maxloc;
    spec.bytes = 24;  // one and a half elements
    EXPECT_EQ(refusal(spec), "allreduce works on 16-byte elements (double_int): 24 bytes is not a multiple of 16");
    spec.bytes = 48;
    EXPECT_EQ(refusal(spec), "");
    // A collective that only copies moves any number of bytes, whatever its elements.
    spec.collective = sched::Collective::bcast;
    spec.bytes = 13;
    EXPECT_EQ(refusal(spec), "");
}

#include "exec/kernels.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "exec/input_pattern.hpp"

using namespace numacoll;

TEST(Kernels, FoldEveryOperator) {
    const std::vector<double> a{1, -2, 3, 0.5}, b{4, 5, -6, 0.25}, c{-1, 7, 2, 2};
    std::vector<double> out(4);
    const double* sources[] = {a.data(), b.data(), c.data()};
    exec::reduce_into(out.data(), sources, 4, sched::ReduceOp::sum);
    EXPECT_EQ(out, (std::vector<double>{4, 10, -1, 2.75}));
    exec::reduce_into(out.data(), sources, 4, sched::ReduceOp::prod);
    EXPECT_EQ(out, (std::vector<double>{-4, -70, -36, 0.25}));
    exec::reduce_into(out.data(), sources, 4, sched::ReduceOp::min);
    EXPECT_EQ(out, (std::vector<double>{-1, -2, -6, 0.25}));
    exec::reduce_into(out.data(), sources, 4, sched::ReduceOp::max);
    EXPECT_EQ(out, (std::vector<double>{4, 7, 3, 2}));
}

TEST(Kernels, InPlaceFoldingReadsBeforeWriting) {
    // The destination is the second source: the result must not be computed from overwritten values.
    std::vector<double> a{1, 2, 3}, b{10, 20, 30};
    const double* sources[] = {a.data(), b.data()};
    exec::reduce_into(b.data(), sources, 3, sched::ReduceOp::sum);
    EXPECT_EQ(b, (std::vector<double>{11, 22, 33}));
    std::vector<double> c{1, 2, 3}, d{10, 20, 30};
    const double* first[] = {c.data(), d.data()};
    exec::reduce_into(c.data(), first, 3, sched::ReduceOp::sum);
    EXPECT_EQ(c, (std::vector<double>{11, 22, 33}));
}

// Element by element, in source order: what every blocked variant must equal bit for bit.
std::vector<double> fold_reference(const std::vector<std::vector<double>>& sources, sched::ReduceOp op) {
    std::vector<double> result = sources[0];
    for (std::size_t k = 1; k < sources.size(); ++k)
        for (std::size_t i = 0; i < result.size(); ++i) {
            const double a = result[i], b = sources[k][i];
            result[i] = op == sched::ReduceOp::sum    ? a + b
                        : op == sched::ReduceOp::prod ? a * b
                        : op == sched::ReduceOp::min  ? (b < a ? b : a)
                                                     : (b > a ? b : a);
        }
    return result;
}

TEST(Kernels, LongVectorsAcrossBlocksMatchElementByElement) {
    // Lengths around the kernel's 256-element blocks, 1 to 5 sources, the
    // destination separate, equal to the first source, or equal to the last.
    for (std::size_t count : {0u, 1u, 255u, 256u, 257u, 1000u, 4099u})
        for (std::size_t source_count = 1; source_count <= 5; ++source_count)
            for (auto op : {sched::ReduceOp::sum, sched::ReduceOp::prod, sched::ReduceOp::min, sched::ReduceOp::max})
                for (int destination_is : {-1, 0, static_cast<int>(source_count) - 1}) {
                    std::vector<std::vector<double>> sources(source_count, std::vector<double>(count));
                    for (std::size_t k = 0; k < source_count; ++k)
                        for (std::size_t i = 0; i < count; ++i)
                            sources[k][i] = exec::input_value(static_cast<int>(k), i, 3, op);
                    const auto expected = fold_reference(sources, op);
                    std::vector<double> separate(count, -1.0);
                    double* destination = destination_is < 0 ? separate.data() : sources[destination_is].data();
                    std::vector<const double*> pointers;
                    for (const auto& source : sources) pointers.push_back(source.data());
                    exec::reduce_into(destination, pointers, count, op);
                    const std::vector<double> got(destination, destination + count);
                    EXPECT_EQ(got, expected) << "count " << count << ", " << source_count << " sources, "
                                             << sched::to_string(op) << ", destination " << destination_is;
                }
}

TEST(InputPattern, ReferenceIsExactInAnyOrder) {
    // Summing the ranks backwards gives the same bits as the reference.
    for (auto op : {sched::ReduceOp::sum, sched::ReduceOp::prod, sched::ReduceOp::min, sched::ReduceOp::max})
        for (std::size_t element : {0u, 1u, 17u}) {
            double backwards = exec::input_value(63, element, 5, op);
            for (int rank = 62; rank >= 0; --rank) {
                const double v = exec::input_value(rank, element, 5, op);
                backwards = op == sched::ReduceOp::sum    ? backwards + v
                            : op == sched::ReduceOp::prod ? backwards * v
                            : op == sched::ReduceOp::min  ? std::min(backwards, v)
                                                         : std::max(backwards, v);
            }
            EXPECT_EQ(backwards, exec::reduced_value(64, element, 5, op)) << sched::to_string(op);
        }
    // Inputs change with the iteration, so stale results cannot pass, and no
    // rank count makes every element's result the same.
    for (auto op : {sched::ReduceOp::sum, sched::ReduceOp::prod, sched::ReduceOp::min, sched::ReduceOp::max})
        for (int ranks : {1, 3, 4, 16, 32, 101, 256}) {
            int changed_with_iteration = 0, distinct_elements = 0;
            for (std::size_t e = 0; e < 64; ++e) {
                changed_with_iteration += exec::reduced_value(ranks, e, 1, op) != exec::reduced_value(ranks, e, 2, op);
                distinct_elements += exec::reduced_value(ranks, e, 1, op) != exec::reduced_value(ranks, e + 16, 1, op);
            }
            EXPECT_GT(changed_with_iteration, 16) << sched::to_string(op) << " " << ranks;
            EXPECT_GT(distinct_elements, 16) << sched::to_string(op) << " " << ranks;
        }
}

#include "exec/kernels.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "exec/element_types.hpp"
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

namespace {

// Folds three sources of T with the typed kernel under `datatype`.
template <typename T>
std::vector<T> fold_typed(sched::Datatype datatype, sched::ReduceOp op, const std::vector<T>& a,
                          const std::vector<T>& b, const std::vector<T>& c) {
    std::vector<T> out(a.size());
    const std::byte* sources[] = {reinterpret_cast<const std::byte*>(a.data()),
                                  reinterpret_cast<const std::byte*>(b.data()),
                                  reinterpret_cast<const std::byte*>(c.data())};
    exec::reduce_into(reinterpret_cast<std::byte*>(out.data()), sources, a.size(), datatype, op);
    return out;
}

}  // namespace

// Each class of MPI types and each operation on it, worked out by hand
// (MPI 4.0, section 6.9.2): what the reference of exec/input_pattern.hpp,
// which folds with this kernel, rests on.
TEST(Kernels, IntegersWrapAndLogicalResultsAreZeroOrOne) {
    using sched::Datatype;
    using sched::ReduceOp;
    const std::vector<std::int8_t> a{100, -128, 0, 5}, b{100, -1, 7, -3}, c{1, 1, 0, 2};
    EXPECT_EQ(fold_typed(Datatype::int8, ReduceOp::sum, a, b, c), (std::vector<std::int8_t>{-55, -128, 7, 4}));
    EXPECT_EQ(fold_typed(Datatype::int8, ReduceOp::prod, a, b, c), (std::vector<std::int8_t>{16, -128, 0, -30}));
    EXPECT_EQ(fold_typed(Datatype::int8, ReduceOp::min, a, b, c), (std::vector<std::int8_t>{1, -128, 0, -3}));
    EXPECT_EQ(fold_typed(Datatype::int8, ReduceOp::max, a, b, c), (std::vector<std::int8_t>{100, 1, 7, 5}));
    EXPECT_EQ(fold_typed(Datatype::signed_char, ReduceOp::land, a, b, c), (std::vector<std::int8_t>{1, 1, 0, 1}));
    EXPECT_EQ(fold_typed(Datatype::signed_char, ReduceOp::lor, a, b, c), (std::vector<std::int8_t>{1, 1, 1, 1}));
    EXPECT_EQ(fold_typed(Datatype::signed_char, ReduceOp::lxor, a, b, c), (std::vector<std::int8_t>{1, 1, 1, 1}));
    const std::vector<std::uint16_t> x{0xffff, 0x00f0, 3, 0x8000}, y{0xffff, 0x0ff0, 5, 2}, z{2, 0xf00f, 7, 1};
    EXPECT_EQ(fold_typed(Datatype::uint16, ReduceOp::sum, x, y, z), (std::vector<std::uint16_t>{0, 0x00ef, 15, 0x8003}));
    EXPECT_EQ(fold_typed(Datatype::unsigned_short, ReduceOp::prod, x, y, z), (std::vector<std::uint16_t>{2, 0x1f00, 105, 0}));
    EXPECT_EQ(fold_typed(Datatype::uint16, ReduceOp::band, x, y, z), (std::vector<std::uint16_t>{2, 0, 1, 0}));
    EXPECT_EQ(fold_typed(Datatype::uint16, ReduceOp::bor, x, y, z), (std::vector<std::uint16_t>{0xffff, 0xffff, 7, 0x8003}));
    EXPECT_EQ(fold_typed(Datatype::uint16, ReduceOp::bxor, x, y, z), (std::vector<std::uint16_t>{2, 0xff0f, 1, 0x8003}));
    const std::vector<std::int64_t> big{INT64_MAX, 0}, one{1, -1}, zero{0, 0};
    EXPECT_EQ(fold_typed(Datatype::long_, ReduceOp::sum, big, one, zero), (std::vector<std::int64_t>{INT64_MIN, -1}));
    EXPECT_EQ(fold_typed(Datatype::int_, ReduceOp::land, std::vector<int>{3, 0}, std::vector<int>{-7, 9},
                         std::vector<int>{1, 1}),
              (std::vector<int>{1, 0}));
}

TEST(Kernels, FloatingAndComplexValues) {
    using sched::Datatype;
    using sched::ReduceOp;
    EXPECT_EQ(fold_typed(Datatype::float_, ReduceOp::sum, std::vector<float>{0.5f, -2}, std::vector<float>{0.25f, 3},
                         std::vector<float>{1, -1}),
              (std::vector<float>{1.75f, 0}));
    EXPECT_EQ(fold_typed(Datatype::long_double, ReduceOp::prod, std::vector<long double>{0.5L, 3},
                         std::vector<long double>{-4, 1.5L}, std::vector<long double>{2, 2}),
              (std::vector<long double>{-4, 9}));
    EXPECT_EQ(fold_typed(Datatype::real, ReduceOp::min, std::vector<float>{1, -2}, std::vector<float>{-3, 5},
                         std::vector<float>{2, -2.5f}),
              (std::vector<float>{-3, -2.5f}));
    using C = std::complex<double>;
    EXPECT_EQ(fold_typed(Datatype::c_double_complex, ReduceOp::prod, std::vector<C>{{1, 2}}, std::vector<C>{{3, 4}},
                         std::vector<C>{{0, 1}}),
              (std::vector<C>{{-10, -5}}));  // (1+2i)(3+4i) = -5+10i; times i
    using F = std::complex<float>;
    EXPECT_EQ(fold_typed(Datatype::complex, ReduceOp::sum, std::vector<F>{{1, 2}}, std::vector<F>{{3, -4}},
                         std::vector<F>{{0.5f, 0}}),
              (std::vector<F>{{4.5f, -2}}));
}

TEST(Kernels, LogicalBytesAndPairs) {
    using sched::Datatype;
    using sched::ReduceOp;
    const auto bools = [](std::vector<std::uint8_t> values) {
        std::vector<exec::Bool8> out;
        for (auto v : values) out.push_back({v});
        return out;
    };
    const auto values_of = [](const auto& typed) {
        std::vector<long long> out;
        for (const auto& v : typed) out.push_back(v.value);
        return out;
    };
    const auto p = bools({1, 1, 0, 0}), q = bools({1, 0, 0, 1}), r = bools({1, 1, 0, 1});
    EXPECT_EQ(values_of(fold_typed(Datatype::c_bool, ReduceOp::land, p, q, r)), (std::vector<long long>{1, 0, 0, 0}));
    EXPECT_EQ(values_of(fold_typed(Datatype::c_bool, ReduceOp::lor, p, q, r)), (std::vector<long long>{1, 1, 0, 1}));
    EXPECT_EQ(values_of(fold_typed(Datatype::c_bool, ReduceOp::lxor, p, q, r)), (std::vector<long long>{1, 0, 0, 0}));
    const std::vector<exec::Logical32> f{{1}, {0}}, g{{-5}, {0}}, h{{7}, {2}};  // any nonzero is true
    EXPECT_EQ(values_of(fold_typed(Datatype::logical, ReduceOp::land, f, g, h)), (std::vector<long long>{1, 0}));
    EXPECT_EQ(values_of(fold_typed(Datatype::logical, ReduceOp::lxor, f, g, h)), (std::vector<long long>{1, 1}));
    const std::vector<exec::Byte> m{{0xf0}}, n{{0x3c}}, o{{0x01}};
    EXPECT_EQ(values_of(fold_typed(Datatype::byte, ReduceOp::bxor, m, n, o)), (std::vector<long long>{0xcd}));
    // minloc and maxloc: the extreme value, and of equal values the smaller index.
    using P = exec::ValueIndex<double>;
    const std::vector<P> s{{2, 5}, {1, 9}, {3, 0}}, t{{2, 3}, {4, 1}, {3, 2}}, u{{7, 1}, {1, 4}, {-1, 6}};
    const auto pairs = [](const std::vector<P>& typed) {
        std::vector<std::pair<double, int>> out;
        for (const auto& v : typed) out.emplace_back(v.value, v.index);
        return out;
    };
    EXPECT_EQ(pairs(fold_typed(Datatype::double_int, ReduceOp::minloc, s, t, u)),
              (std::vector<std::pair<double, int>>{{2, 3}, {1, 4}, {-1, 6}}));
    EXPECT_EQ(pairs(fold_typed(Datatype::double_int, ReduceOp::maxloc, s, t, u)),
              (std::vector<std::pair<double, int>>{{7, 1}, {4, 1}, {3, 0}}));
}

TEST(Kernels, EveryTypeFoldsInPlaceAcrossBlocks) {
    // 3,000 elements cross the 2 KiB blocks of every size; the destination is the second source.
    for (sched::Datatype datatype : sched::all_datatypes())
        for (sched::ReduceOp op : sched::operations_on(datatype)) {
            SCOPED_TRACE(testing::Message() << sched::to_string(datatype) << " " << sched::to_string(op));
            const std::size_t size = sched::element_size(datatype), count = 3000;
            std::vector<std::byte> a(count * size), b(count * size), expected(count * size);
            exec::fill_elements(a.data(), 0, 0, count, 7, datatype, op);
            exec::fill_elements(b.data(), 1, 0, count, 7, datatype, op);
            exec::reduced_elements(expected.data(), 2, 0, count, 7, datatype, op);
            const std::byte* sources[] = {a.data(), b.data()};
            exec::reduce_into(b.data(), sources, count, datatype, op);
            for (std::size_t i = 0; i < count; ++i)
                ASSERT_TRUE(exec::same_value(b.data() + i * size, expected.data() + i * size, datatype))
                    << "element " << i << ": " << exec::element_text(b.data() + i * size, datatype) << " vs "
                    << exec::element_text(expected.data() + i * size, datatype);
        }
}

TEST(Kernels, AnOperationThatDoesNotApplyIsAnError) {
    double a = 1, b = 2;
    const std::byte* sources[] = {reinterpret_cast<const std::byte*>(&a), reinterpret_cast<const std::byte*>(&b)};
    EXPECT_THROW(exec::reduce_into(reinterpret_cast<std::byte*>(&a), sources, 1, sched::Datatype::double_,
                                   sched::ReduceOp::band),
                 Error);
}

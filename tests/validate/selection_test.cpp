// Which algorithm each source picks at each size, the agreement rates, and
// the crossovers, on made-up points whose answers are known.
#include "validate/selection.hpp"

#include <gtest/gtest.h>

using namespace numacoll;

namespace {

validate::ValidationPoint point(const std::string& algorithm, std::uint64_t bytes, double measured_ns, double p90_ns,
                                double simulated_ns, std::optional<double> model_ns) {
    validate::ValidationPoint p;
    p.simulated.collective = p.measured.collective = "allreduce";
    p.simulated.algorithm = p.measured.algorithm = algorithm;
    p.simulated.bytes = p.measured.bytes = bytes;
    p.simulated.time_ns = simulated_ns;
    p.measured.time_ns = measured_ns;
    TimeStats spread;
    spread.median_ns = measured_ns;
    spread.p10_ns = measured_ns * 0.9;
    spread.p90_ns = p90_ns;
    spread.iterations = 10;
    p.measured.spread = spread;
    p.model_ns = model_ns;
    return p;
}

}  // namespace

TEST(Selection, PicksAgreementAndCrossovers) {
    // tree wins small sizes and tiled large ones; measured crossover between 1 KiB and 4 KiB,
    // simulated between 4 KiB and 16 KiB (so the simulation picks wrong at 4 KiB), modelled
    // between 1 KiB and 4 KiB.
    const std::vector<validate::ValidationPoint> points = {
        point("tree", 64, 100, 110, 100, 90),      point("tiled", 64, 200, 220, 210, 190),
        point("tree", 1024, 300, 330, 300, 280),   point("tiled", 1024, 400, 440, 420, 380),
        point("tree", 4096, 900, 990, 800, 900),   point("tiled", 4096, 600, 660, 850, 500),
        point("tree", 16384, 4000, 4400, 4000, 3900), point("tiled", 16384, 2000, 2200, 2100, 1900),
    };
    const auto selections = validate::select_algorithms(points);
    ASSERT_EQ(selections.size(), 1u);
    const auto& s = selections.front();
    EXPECT_EQ(s.algorithms, (std::vector<std::string>{"tree", "tiled"}));
    ASSERT_EQ(s.sizes.size(), 4u);
    EXPECT_EQ(s.sizes[2].measured, "tiled");
    EXPECT_EQ(s.sizes[2].simulated, "tree");
    EXPECT_FALSE(s.sizes[2].simulated_agrees);
    EXPECT_DOUBLE_EQ(s.simulated_agreement, 0.75);
    ASSERT_TRUE(s.model_agreement.has_value());
    EXPECT_DOUBLE_EQ(*s.model_agreement, 1.0);
    ASSERT_EQ(s.crossovers.size(), 1u);
    EXPECT_EQ(s.crossovers[0].measured, (std::vector<std::string>{"between 1KiB and 4KiB (tiled becomes faster)"}));
    EXPECT_EQ(s.crossovers[0].simulated, (std::vector<std::string>{"between 4KiB and 16KiB (tiled becomes faster)"}));
    EXPECT_EQ(s.crossovers[0].modelled, s.crossovers[0].measured);
    const std::string text = validate::selection_text(selections);
    // The headline counts what the table shows, and the table's marks are explained under it.
    EXPECT_NE(text.find("simulation picks the measured best at 3 of 4 sizes, and an algorithm the measurement cannot "
                        "tell from it (tie) at 0 more: 75% with the ties"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("tree (x)"), std::string::npos) << text;
    EXPECT_NE(text.find("(x): an algorithm measured slower than that"), std::string::npos) << text;
}

TEST(Selection, APickWithinTheSpreadOfTheBestAgrees) {
    // tiled measures 105 against tree's 100, inside tree's p90 of 110: a tie the machine cannot break.
    const std::vector<validate::ValidationPoint> points = {point("tree", 64, 100, 110, 120, std::nullopt),
                                                           point("tiled", 64, 105, 115, 90, std::nullopt)};
    const auto s = validate::select_algorithms(points).front();
    EXPECT_EQ(s.sizes[0].measured, "tree");
    EXPECT_EQ(s.sizes[0].simulated, "tiled");
    EXPECT_TRUE(s.sizes[0].simulated_agrees);
    const std::string text = validate::selection_text({s});
    EXPECT_NE(text.find("tiled (tie)"), std::string::npos) << text;
    EXPECT_NE(text.find("at 0 of 1 sizes, and an algorithm the measurement cannot tell from it (tie) at 1 more"),
              std::string::npos)
        << text;
    EXPECT_FALSE(s.model_agreement.has_value());  // no model, no pick
    EXPECT_FALSE(s.crossovers[0].modelled_known);
    // Outside the spread it does not.
    const auto outside = validate::select_algorithms({point("tree", 64, 100, 104, 120, std::nullopt),
                                                      point("tiled", 64, 105, 115, 90, std::nullopt)});
    EXPECT_FALSE(outside.front().sizes[0].simulated_agrees);
}

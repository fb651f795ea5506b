#include "core/grids/separation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

constexpr double kPi = 3.14159265358979323846;

const std::vector<double> kWorkstations = {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};

TEST(Separation, PaperExampleSevenFastTwoSlow) {
  const SpeedSeparation s = separate_slow_processors({1, 2, 3, 4, 5, 6, 7, 100, 100});
  EXPECT_EQ(s.fast_count, 7u);
  EXPECT_TRUE(s.separated());
}

TEST(Separation, PaperWorkstationsThreeFast) {
  const SpeedSeparation s = separate_slow_processors(kWorkstations);
  EXPECT_EQ(s.fast_count, 3u);
  // The three Ultra 1 (indices 1, 2, 4 of Table 3) come first, in the caller's order.
  EXPECT_EQ(s.order[0], 1u);
  EXPECT_EQ(s.order[1], 2u);
  EXPECT_EQ(s.order[2], 4u);
  EXPECT_EQ(s.order[8], 8u);
}

TEST(Separation, CloseValuesAreNotSeparated) {
  std::vector<double> t(25);
  for (std::size_t k = 0; k < t.size(); ++k) t[k] = static_cast<double>(k + 1);
  const SpeedSeparation s = separate_slow_processors(t);
  EXPECT_EQ(s.fast_count, 25u);
  EXPECT_FALSE(s.separated());
}

TEST(Separation, SpreadCurveIsSigmaOverKInUnitsOfTheFastest) {
  // Standard deviation with the square the paper's formula misses: for the workstations,
  // the first 4 values (1,1,1,4) have σ = sqrt(1.6875) and σ_4/4 = 0.3248.
  const SortedProcessors sorted = sort_processors(kWorkstations);
  EXPECT_DOUBLE_EQ(sorted.spread[0], 0.0);
  EXPECT_DOUBLE_EQ(sorted.spread[2], 0.0);
  EXPECT_NEAR(sorted.spread[3], std::sqrt(1.6875) / 4.0, 1e-14);
  // Angles quoted in separation.hpp.
  EXPECT_NEAR(spread_turn(sorted.spread, 3) * 180.0 / kPi, 18.0, 0.05);
  const SortedProcessors first = sort_processors({1, 2, 3, 4, 5, 6, 7, 100, 100});
  EXPECT_NEAR(spread_turn(first.spread, 7) * 180.0 / kPi, 74.8, 0.05);
}

TEST(Separation, ThresholdSeparatesAboutThreeTimesSlower) {
  EXPECT_EQ(separate_slow_processors({1, 1, 1, 3}).fast_count, 3u);
  EXPECT_EQ(separate_slow_processors({1, 1, 1, 2.5}).fast_count, 4u);
  // A stricter threshold keeps the workstations together (turn 18°).
  EXPECT_EQ(separate_slow_processors(kWorkstations, 20.0 * kPi / 180.0).fast_count, 9u);
}

TEST(Separation, InvariantUnderScaling) {
  std::mt19937 gen(12345);
  std::uniform_real_distribution<double> base(1.0, 3.0);
  std::uniform_int_distribution<int> slow_count(0, 4);
  int separated = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<double> t(3 + trial % 20);
    for (double& x : t) x = base(gen);
    // Make some instances with a slow group so that both outcomes are exercised.
    const int slow = std::min<int>(slow_count(gen), static_cast<int>(t.size()) - 2);
    for (int k = 0; k < slow; ++k) t[static_cast<std::size_t>(k)] *= 10.0;
    const std::size_t reference = separate_slow_processors(t).fast_count;
    if (reference < t.size()) ++separated;
    for (double scale : {0.001, 0.37, 3.0, 1e6}) {
      std::vector<double> scaled(t);
      for (double& x : scaled) x *= scale;
      EXPECT_EQ(separate_slow_processors(scaled).fast_count, reference)
          << "trial " << trial << " scale " << scale;
    }
  }
  // Both outcomes occur, so the invariance is tested on each.
  EXPECT_GT(separated, 30);
  EXPECT_LT(separated, 270);
}

TEST(Separation, FastPrefixUsesOnlyThePrefix) {
  const SortedProcessors sorted = sort_processors({1, 2, 3, 4, 5, 6, 7, 100, 100, 1000});
  EXPECT_EQ(fast_prefix_count(sorted, 9), 7u);
  EXPECT_EQ(fast_prefix_count(sorted, 7), 7u);
  EXPECT_EQ(fast_prefix_count(sorted, 1), 1u);
  EXPECT_THROW(fast_prefix_count(sorted, 0), InvalidArgument);
  EXPECT_THROW(fast_prefix_count(sorted, 11), InvalidArgument);
}

TEST(Separation, RefusesBadInput) {
  EXPECT_THROW(separate_slow_processors({}), InvalidArgument);
  EXPECT_THROW(separate_slow_processors({1.0, -2.0}), InvalidArgument);
  EXPECT_THROW(separate_slow_processors({1.0, 2.0}, 0.0), InvalidArgument);
}

TEST(Separation, SingleProcessorIsFast) {
  EXPECT_EQ(separate_slow_processors({5.0}).fast_count, 1u);
}

}  // namespace
}  // namespace hetscal::core

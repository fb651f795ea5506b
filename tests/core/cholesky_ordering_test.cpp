#include "core/planners/cholesky_ordering.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "core/common/error.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/time_model_steps.hpp"

namespace hetscal::core {
namespace {

/// Σ over steps of the slowest grid cell's time ÷ Σ of the ideal times, by brute force: at
/// step k the trailing triangle's tiles (i, j), k < j <= i, are counted per grid cell (a, b)
/// of speed r_a·c_b. 1 is perfect balance at every step.
double step_sum_imbalance(const std::vector<std::size_t>& row_of, const std::vector<std::size_t>& col_of,
                          const std::vector<double>& r, const std::vector<double>& c) {
  const std::size_t K = row_of.size();
  const double total_speed = std::accumulate(r.begin(), r.end(), 0.0) * std::accumulate(c.begin(), c.end(), 0.0);
  double slowest_sum = 0.0, ideal_sum = 0.0;
  for (std::size_t k = 0; k + 1 < K; ++k) {
    std::vector<double> tiles(r.size() * c.size(), 0.0);
    double all = 0.0;
    for (std::size_t i = k + 1; i < K; ++i)
      for (std::size_t j = k + 1; j <= i; ++j) tiles[row_of[i] * c.size() + col_of[j]] += 1.0, all += 1.0;
    double slowest = 0.0;
    for (std::size_t a = 0; a < r.size(); ++a)
      for (std::size_t b = 0; b < c.size(); ++b) slowest = std::max(slowest, tiles[a * c.size() + b] / (r[a] * c[b]));
    slowest_sum += slowest;
    ideal_sum += all / total_speed;
  }
  return slowest_sum / ideal_sum;
}

TEST(CholeskyOrdering, EverySuffixIsBalanced) {
  // Brute force over every suffix: each class holds within 1.5 tiles of its share (the
  // greedy's bound for two classes is one tile; three classes may need a little more).
  for (const auto& shares : {std::vector<double>{3.0, 2.0, 1.0}, std::vector<double>{1.0, 7.95},
                             std::vector<double>{1.0, 1.0, 1.0, 1.0}}) {
    for (std::size_t K : {7u, 40u, 101u}) {
      const auto order = suffix_balanced_order(shares, K);
      ASSERT_EQ(order.size(), K);
      const double sum = std::accumulate(shares.begin(), shares.end(), 0.0);
      for (std::size_t s = 0; s < K; ++s)
        for (std::size_t a = 0; a < shares.size(); ++a) {
          const double held = static_cast<double>(std::count(order.begin() + static_cast<long>(s), order.end(), a));
          EXPECT_LE(std::abs(held - static_cast<double>(K - s) * shares[a] / sum), 1.5) << "K " << K << " suffix " << s;
        }
    }
  }
  // Equal shares give a cyclic order.
  EXPECT_EQ(suffix_balanced_order({1.0, 1.0, 1.0}, 6), (std::vector<std::size_t>{2, 1, 0, 2, 1, 0}));
  EXPECT_THROW(suffix_balanced_order({1.0, 0.0}, 4), InvalidArgument);
  EXPECT_THROW(suffix_balanced_order({1.0}, 0), InvalidArgument);
}

TEST(CholeskyOrdering, TrailingTriangleStaysBalancedStepByStep) {
  // Measured (brute force): the overhead is the rounding of the last, small steps, about
  // 5/K; the reversed order is at least as good as the forward one to within 0.5% and
  // better where the forward order piles a slow grid row's tiles at the end.
  struct Grid {
    std::vector<double> r, c;
  };
  for (const Grid& g : {Grid{{1.0, 3.0}, {1.0, 2.0, 4.0}}, Grid{{1.0, 2.5}, {3.0, 1.0, 1.7}},
                        Grid{{1.0, 1.0}, {1.0, 7.95}}}) {
    for (std::size_t K : {30u, 60u, 120u}) {
      const double ordered =
          step_sum_imbalance(suffix_balanced_order(g.r, K), suffix_balanced_order(g.c, K), g.r, g.c);
      const double forward =
          step_sum_imbalance(proportional_sequence(K, g.r), proportional_sequence(K, g.c), g.r, g.c);
      EXPECT_LE(ordered, 1.0 + 6.0 / static_cast<double>(K)) << "K " << K;
      EXPECT_LE(ordered, forward * 1.005) << "K " << K;
    }
  }
  const std::vector<double> r{1.0, 3.0}, c{1.0, 2.0, 4.0};
  EXPECT_LT(step_sum_imbalance(suffix_balanced_order(r, 60), suffix_balanced_order(c, 60), r, c),
            step_sum_imbalance(proportional_sequence(60, r), proportional_sequence(60, c), r, c) - 0.015);
}

TEST(CholeskyOrdering, OrderedCandidateIsPricedOnItsOrder) {
  Platform platform;
  const std::vector<double> r{1.0, 3.0}, c{1.0, 2.0};
  for (double a : r)
    for (double b : c) platform.processors.push_back({1.0e9 * a * b, 1.0e12});
  platform.network = {1.0e-6, 1.0e10, NetworkKind::Switched, {}};
  const Candidate plain = cartesian_candidate("hetero 2x2", 50, 2, 2, {0, 1, 2, 3}, r, c);
  const Candidate ordered = with_cholesky_order(plain, 3000);
  EXPECT_EQ(ordered.label, "hetero 2x2 ordered");
  EXPECT_EQ(ordered.row_order, suffix_balanced_order(r, 60));
  const TileOwnership layout = ownership_of(ordered, 3000);
  for (std::size_t t = 0; t < 60; ++t) EXPECT_EQ(layout.row_class[t], ordered.row_order[t]);
  const auto time_of = [&](const Candidate& cand) {
    return simulate_steps(platform, Routine::Cholesky, ownership_of(cand, 3000)).compute;
  };
  EXPECT_LT(time_of(ordered), time_of(plain));
  Candidate pattern = plain;
  pattern.kind = CandidateKind::Pattern;
  EXPECT_THROW(with_cholesky_order(pattern, 100), InvalidArgument);
  Candidate bad_order = ordered;
  bad_order.row_order = {0, 2};
  EXPECT_THROW(ownership_of(bad_order, 100), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

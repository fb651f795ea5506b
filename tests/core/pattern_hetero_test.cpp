#include "core/patterns/pattern_hetero.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "core/common/error.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_g2dbc.hpp"

namespace hetscal::core {
namespace {

/// Speeds in [1, 10] with both ends present, so the ratio is exactly 1:10.
std::vector<double> random_speeds(int P, std::mt19937_64& rng) {
  std::vector<double> s(P);
  for (auto& v : s) v = 1.0 + 9.0 * static_cast<double>(rng() % 10001) / 10000.0;
  s[rng() % P] = 1.0;
  s[rng() % P] = 10.0;
  return s;
}

double quota(const std::vector<double>& s, std::size_t k, std::int64_t cells) {
  return static_cast<double>(cells) * s[k] / std::accumulate(s.begin(), s.end(), 0.0);
}

TEST(PatternHetero, ApportionKeepsEveryCountWithinOneUnit) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int P = 1 + static_cast<int>(rng() % 40);
    const auto s = random_speeds(std::max(P, 2), rng);
    const std::int64_t total = static_cast<std::int64_t>(rng() % 5000);
    const auto counts = apportion(s, total);
    EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::int64_t{0}), total);
    for (std::size_t k = 0; k < s.size(); ++k) {
      EXPECT_LT(std::abs(static_cast<double>(counts[k]) - quota(s, k, total)), 1.0);
    }
  }
  EXPECT_EQ(apportion({1.0, 1.0, 2.0}, 8), (std::vector<std::int64_t>{2, 2, 4}));
  EXPECT_EQ(apportion({1.0, 1.0, 1.0}, 2),
            (std::vector<std::int64_t>{1, 1, 0}));  // ties: lowest index
  EXPECT_THROW(apportion({1.0, 0.0}, 3), InvalidArgument);
  EXPECT_THROW(apportion({1.0}, -1), InvalidArgument);
}

// Random speed vectors (ratio 1:10, P from 4 to 64, fixed seeds): every node's cells within
// one cell of proportional, the slowest node's quota at least min_cells_per_node, and the
// cost T within 5% of homogeneous G-2DBC's for the same P (measured: within ~2%).
TEST(PatternHetero, SharesWithinOneCellAndCostNearG2dbc) {
  std::mt19937_64 rng(2024);
  for (int trial = 0; trial < 24; ++trial) {
    const int P = 4 + static_cast<int>(rng() % 61);
    const auto s = random_speeds(P, rng);
    HeteroPatternOptions options;
    options.seed = static_cast<std::uint64_t>(trial);
    const Pattern p = hetero_pattern(Speeds::from_speeds(s), options);
    const std::int64_t cells = static_cast<std::int64_t>(p.rows()) * p.cols();
    const auto owned = p.cells_per_node();
    ASSERT_EQ(p.num_nodes(), P);
    for (int k = 0; k < P; ++k) {
      EXPECT_LT(std::abs(static_cast<double>(owned[k]) - quota(s, k, cells)), 1.0)
          << "P = " << P << " node " << k;
      EXPECT_GE(quota(s, k, cells), options.min_cells_per_node - 1e-9);
    }
    EXPECT_LE(lu_cost(p), 1.05 * g2dbc_cost_formula(P)) << "P = " << P;
    EXPECT_LE(load_balance(p, 4 * p.rows(), 4 * p.cols(), Factorization::LU, s).max_over_average,
              1.0 + 1.0 / options.min_cells_per_node);
  }
}

TEST(PatternHetero, EqualSpeedsCostNoMoreThanG2dbc) {
  for (int P : {4, 9, 23, 31, 39, 50}) {
    const Pattern p = hetero_pattern(Speeds::from_speeds(std::vector<double>(P, 3.0)));
    EXPECT_LE(lu_cost(p), g2dbc_cost_formula(P) + 1e-12) << P;
    EXPECT_EQ(p.cells_per_node(), std::vector<std::int64_t>(P, p.cells_per_node().front()));
  }
}

TEST(PatternHetero, ExplicitSizeDeterministicAndLocalSearchNeverHurts) {
  const auto s = Speeds::from_speeds({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0});
  HeteroPatternOptions no_search;
  no_search.improvement_sweeps = 0;
  const Pattern start = hetero_pattern(s, 40, 12, no_search);
  const Pattern improved = hetero_pattern(s, 40, 12);
  EXPECT_LE(lu_cost(improved), lu_cost(start));
  EXPECT_EQ(improved.cells_per_node(), start.cells_per_node());
  EXPECT_EQ(improved, hetero_pattern(s, 40, 12));
  // Tiny patterns still hand out every cell, within one of the quota.
  EXPECT_EQ(hetero_pattern(s, 1, 2).cells_per_node(), apportion(s.speeds(), 2));
}

// The attempts budget allows whole sweeps only: a budget of 3.5 sweeps makes the pattern of
// 3 sweeps, and a pattern whose sweeps all fit in the budget is the unbudgeted one.
TEST(PatternHetero, AttemptsBudgetAllowsWholeSweeps) {
  const auto s = Speeds::from_speeds({1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0});
  const std::int64_t cells = 40 * 12;
  HeteroPatternOptions unbudgeted;
  unbudgeted.stall_fraction = 0.0;  // every sweep runs: each one changes the pattern
  unbudgeted.max_attempts = std::numeric_limits<std::int64_t>::max();
  HeteroPatternOptions three_sweeps = unbudgeted, budget = unbudgeted;
  three_sweeps.improvement_sweeps = 3;
  budget.max_attempts = 3 * cells + cells / 2;
  EXPECT_EQ(hetero_pattern(s, 40, 12, budget), hetero_pattern(s, 40, 12, three_sweeps));
  EXPECT_NE(hetero_pattern(s, 40, 12, budget), hetero_pattern(s, 40, 12, unbudgeted));
  budget.max_attempts = unbudgeted.improvement_sweeps * cells;
  EXPECT_EQ(hetero_pattern(s, 40, 12, budget), hetero_pattern(s, 40, 12, unbudgeted));
  budget.max_attempts = cells - 1;  // not one sweep: the start
  HeteroPatternOptions no_search = unbudgeted;
  no_search.improvement_sweeps = 0;
  EXPECT_EQ(hetero_pattern(s, 40, 12, budget), hetero_pattern(s, 40, 12, no_search));
  EXPECT_NE(hetero_pattern(s, 40, 12, budget), hetero_pattern(s, 40, 12, three_sweeps));
}

TEST(PatternHetero, RefusesBadOptions) {
  const auto s = Speeds::from_speeds({1.0, 2.0});
  HeteroPatternOptions bad;
  bad.min_cells_per_node = 0;
  EXPECT_THROW(hetero_pattern(s, bad), InvalidArgument);
  bad = HeteroPatternOptions{};
  bad.improvement_sweeps = -1;
  EXPECT_THROW(hetero_pattern(s, bad), InvalidArgument);
  bad = HeteroPatternOptions{};
  bad.max_attempts = -1;
  EXPECT_THROW(hetero_pattern(s, bad), InvalidArgument);
  EXPECT_THROW(hetero_pattern(s, 4, 4, bad), InvalidArgument);
  EXPECT_THROW(hetero_pattern(s, 0, 4), InvalidArgument);
  EXPECT_THROW(hetero_pattern(s, 1, 65536), InvalidArgument);  // a line's count must fit 16 bits
  bad = HeteroPatternOptions{};
  bad.min_cells_per_node = 1 << 30;
  EXPECT_THROW(hetero_pattern(s, bad), InvalidArgument);
}

// min_cells_per_node·Σs/min s, by hand: speeds 1 and 3 with 4 cells for the slowest need
// 4 + 12 cells; three speeds of 1e308 need 3·32, not inf (Σs would overflow).
TEST(PatternHetero, CellsNeededAreRelativeToTheSlowest) {
  EXPECT_DOUBLE_EQ(hetero_pattern_cells_needed(Speeds::from_speeds({1.0, 3.0}), 4), 16.0);
  EXPECT_DOUBLE_EQ(hetero_pattern_cells_needed(Speeds::from_speeds({1e308, 1e308, 1e308}), 32), 96.0);
  EXPECT_THROW(hetero_pattern_cells_needed(Speeds::from_speeds({1.0}), 0), InvalidArgument);
  const Pattern huge = hetero_pattern(Speeds::from_speeds({1e308, 1e308, 1e308}));
  EXPECT_EQ(huge.cells_per_node()[0], huge.cells_per_node()[2]);
}

}  // namespace
}  // namespace hetscal::core

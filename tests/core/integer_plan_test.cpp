#include "core/grids/integer_plan.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "core/grids/heuristic_grid.hpp"

namespace hetscal::core {
namespace {

using Counts = std::vector<std::int64_t>;

Arrangement random_arrangement(std::mt19937& gen, std::size_t rows, std::size_t cols) {
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  Arrangement a;
  a.rows = rows;
  a.cols = cols;
  for (std::size_t k = 0; k < rows * cols; ++k) a.cycle_time.push_back(speed(gen));
  a.processor.resize(a.cycle_time.size());
  return a;
}

/// Calls visit for every composition of `total` into `parts` parts >= 1.
void for_each_composition(std::int64_t total, std::size_t parts,
                          const std::function<void(const Counts&)>& visit) {
  Counts c(parts, 1);
  std::function<void(std::size_t, std::int64_t)> rec = [&](std::size_t j, std::int64_t left) {
    if (j + 1 == parts) {
      c[j] = left;
      visit(c);
      return;
    }
    for (std::int64_t x = 1; x <= left - static_cast<std::int64_t>(parts - j - 1); ++x) {
      c[j] = x;
      rec(j + 1, left - x);
    }
  };
  rec(0, total);
}

/// min over every (r, c) pair of compositions: the exact optimum, independently of the
/// 1D reduction used by plan_panel_counts.
double brute_force_panel_time(const Arrangement& a, std::int64_t bp, std::int64_t bq) {
  double best = -1.0;
  for_each_composition(bp, a.rows, [&](const Counts& r) {
    for_each_composition(bq, a.cols, [&](const Counts& c) {
      const double t = panel_time(a, PanelCounts{r, c});
      if (best < 0 || t < best) best = t;
    });
  });
  return best;
}

void expect_valid(const PanelCounts& counts, std::int64_t bp, std::int64_t bq) {
  EXPECT_EQ(std::accumulate(counts.r.begin(), counts.r.end(), std::int64_t{0}), bp);
  EXPECT_EQ(std::accumulate(counts.c.begin(), counts.c.end(), std::int64_t{0}), bq);
  for (auto x : counts.r) EXPECT_GE(x, 1);
  for (auto x : counts.c) EXPECT_GE(x, 1);
}

TEST(AllocationAtLeastOne, KeepsOneEachAndMatchesBruteForce) {
  EXPECT_EQ(allocation_at_least_one({1.0, 100.0}, 2), (Counts{1, 1}));
  EXPECT_EQ(allocation_at_least_one({3.0, 5.0, 8.0}, 10), (Counts{5, 3, 2}));  // §2.3.1
  std::mt19937 gen(99);
  std::uniform_real_distribution<double> speed(1.0, 20.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> t(1 + trial % 4);
    for (double& x : t) x = speed(gen);
    const std::int64_t total = static_cast<std::int64_t>(t.size()) + trial % 9;
    const Counts got = allocation_at_least_one(t, total);
    auto time = [&](const Counts& n) {
      double m = 0;
      for (std::size_t k = 0; k < t.size(); ++k) m = std::max(m, static_cast<double>(n[k]) * t[k]);
      return m;
    };
    double best = -1;
    for_each_composition(total, t.size(), [&](const Counts& n) {
      if (best < 0 || time(n) < best) best = time(n);
    });
    EXPECT_DOUBLE_EQ(time(got), best) << "trial " << trial;
  }
  EXPECT_THROW(allocation_at_least_one({1.0, 2.0}, 1), InvalidArgument);
}

/// Algorithm 2.3.1 with a floor of one, chunk by chunk: the next chunk to the lowest index
/// among argmin (n_k + 1)·t_k (the definition allocation_at_least_one implements).
Counts chunk_by_chunk(const std::vector<double>& t, std::int64_t chunks) {
  Counts n(t.size(), 1);
  for (std::int64_t left = chunks - static_cast<std::int64_t>(t.size()); left > 0; --left) {
    std::size_t pick = 0;
    for (std::size_t k = 1; k < t.size(); ++k)
      if (static_cast<double>(n[k] + 1) * t[k] < static_cast<double>(n[pick] + 1) * t[pick]) pick = k;
    ++n[pick];
  }
  return n;
}

// allocation_at_least_one starts from every chunk finishing by the rational balance at once
// (greedy_prefix): the same counts as chunk by chunk, ties included (integer cycle-times tie
// often, and the lowest index must win them), for few and many chunks.
TEST(AllocationAtLeastOne, SameCountsAsChunkByChunkTiesIncluded) {
  std::mt19937 gen(23);
  std::uniform_real_distribution<double> real_time(1.0, 20.0);
  std::uniform_int_distribution<int> whole_time(1, 6);
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<double> t(1 + trial % 9);
    for (double& x : t) x = trial % 2 == 0 ? real_time(gen) : whole_time(gen);
    const std::int64_t chunks = static_cast<std::int64_t>(t.size()) + (trial * 7) % 97;
    const Counts final_counts = chunk_by_chunk(t, chunks);
    ASSERT_EQ(allocation_at_least_one(t, chunks), final_counts) << "trial " << trial;
    // The start is on the greedy's way, and leaves it at most one chunk per processor.
    const Counts start = allocation_at_least_one_start(t, chunks);
    std::int64_t started = 0;
    for (std::size_t k = 0; k < t.size(); ++k) {
      ASSERT_GE(start[k], 1);
      ASSERT_LE(start[k], final_counts[k]) << "trial " << trial;
      started += start[k];
    }
    ASSERT_GE(started + static_cast<std::int64_t>(t.size()), chunks) << "trial " << trial;
  }
  // A balance that falls exactly on finish times: 2 processors of cycle-time 1, 12 chunks.
  EXPECT_EQ(allocation_at_least_one({1.0, 1.0}, 12), (Counts{6, 6}));
  EXPECT_EQ(allocation_at_least_one({1.0, 1.0}, 11), (Counts{6, 5}));
  EXPECT_EQ(allocation_at_least_one({2.0, 1.0, 2.0}, 9), chunk_by_chunk({2.0, 1.0, 2.0}, 9));
}

TEST(LargestRemainder, SumsAndFloor) {
  EXPECT_EQ(largest_remainder_round({3.0, 1.0}, 8), (Counts{6, 2}));
  EXPECT_EQ(largest_remainder_round({1.0, 1.0, 1.0}, 4), (Counts{2, 1, 1}));
  // A tiny share still gets one unit, taken from the most over-served entry.
  EXPECT_EQ(largest_remainder_round({1.0, 1.0, 1e-6}, 4), (Counts{2, 1, 1}));
  EXPECT_EQ(largest_remainder_round({1.0, 1e-6, 1e-6}, 3), (Counts{1, 1, 1}));
  EXPECT_THROW(largest_remainder_round({1.0, 1.0}, 1), InvalidArgument);
}

TEST(IntegerPlan, SectionThreeTwoTwoExample) {
  Arrangement a{2, 2, {1, 2, 3, 5}, {0, 1, 2, 3}};
  const Shares rational{{1, 1.0 / 3}, {1, 0.5}};
  const IntegerPlan plan = plan_panel_counts(a, rational, 8, 6);
  EXPECT_EQ(plan.counts.r, (Counts{6, 2}));
  EXPECT_EQ(plan.counts.c, (Counts{4, 2}));
  EXPECT_EQ(plan.search, IntegerSearch::Exhaustive);
  EXPECT_DOUBLE_EQ(plan.work_per_time, 2.0);  // = the rational optimum, 48 blocks in 24
}

TEST(IntegerPlan, ExactOnSmallCasesAgainstBruteForce) {
  std::mt19937 gen(5);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t rows = 1 + trial % 3;
    const std::size_t cols = 1 + (trial / 3) % 3;
    const Arrangement a = random_arrangement(gen, rows, cols);
    const std::int64_t bp = static_cast<std::int64_t>(rows) + trial % 7;
    const std::int64_t bq = static_cast<std::int64_t>(cols) + (trial / 2) % 6;
    const IntegerPlan plan = plan_panel_counts(a, Shares{std::vector<double>(rows, 1.0),
                                                         std::vector<double>(cols, 1.0)},
                                               bp, bq);
    EXPECT_EQ(plan.search, IntegerSearch::Exhaustive);
    expect_valid(plan.counts, bp, bq);
    EXPECT_DOUBLE_EQ(panel_time(a, plan.counts), brute_force_panel_time(a, bp, bq))
        << "trial " << trial;
  }
}

// The exhaustive search keeps the row loads of a composition's first columns (PrefixRowLoads):
// four and five columns on either side exercise every depth of that prefix.
TEST(IntegerPlan, ExactWithManyColumnsOnEitherSideAgainstBruteForce) {
  std::mt19937 gen(17);
  for (int trial = 0; trial < 24; ++trial) {
    const std::size_t many = 4 + trial % 2;
    const bool transposed_search = (trial / 2) % 2 == 1;  // the many lines are rows
    const std::size_t rows = transposed_search ? many : 2, cols = transposed_search ? 2 : many;
    const Arrangement a = random_arrangement(gen, rows, cols);
    // The side of many lines has fewer compositions than the other (40 blocks over 2 lines).
    const std::int64_t few_blocks = static_cast<std::int64_t>(many) + trial % 4, two_lines_blocks = 40;
    const std::int64_t bp = transposed_search ? few_blocks : two_lines_blocks;
    const std::int64_t bq = transposed_search ? two_lines_blocks : few_blocks;
    const IntegerPlan plan =
        plan_panel_counts(a, Shares{std::vector<double>(rows, 1.0), std::vector<double>(cols, 1.0)}, bp, bq);
    EXPECT_EQ(plan.search, IntegerSearch::Exhaustive);
    expect_valid(plan.counts, bp, bq);
    EXPECT_DOUBLE_EQ(panel_time(a, plan.counts), brute_force_panel_time(a, bp, bq)) << "trial " << trial;
  }
}

TEST(IntegerPlan, AlternatingNeverWorseThanRoundingAndNeverBeatsExact) {
  std::mt19937 gen(11);
  IntegerPlanOptions no_exhaustive;
  no_exhaustive.exhaustive_budget = 0;
  int strictly_better = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const std::size_t rows = 2 + trial % 3;
    const std::size_t cols = 2 + (trial / 3) % 3;
    const Arrangement a = random_arrangement(gen, rows, cols);
    HeuristicGridResult h = plan_grid_heuristic(a.cycle_time, rows, cols);
    const std::int64_t bp = static_cast<std::int64_t>(rows) + 1 + trial % 9;
    const std::int64_t bq = static_cast<std::int64_t>(cols) + 2 + trial % 7;
    const IntegerPlan alt = plan_panel_counts(h.arrangement, h.shares, bp, bq, no_exhaustive);
    EXPECT_EQ(alt.search, IntegerSearch::Alternating);
    expect_valid(alt.counts, bp, bq);
    const PanelCounts rounded{largest_remainder_round(h.shares.r, bp),
                              largest_remainder_round(h.shares.c, bq)};
    const double rounded_time = panel_time(h.arrangement, rounded);
    EXPECT_LE(panel_time(h.arrangement, alt.counts), rounded_time) << "trial " << trial;
    if (panel_time(h.arrangement, alt.counts) < rounded_time) ++strictly_better;
    const IntegerPlan exact = plan_panel_counts(h.arrangement, h.shares, bp, bq);
    EXPECT_EQ(exact.search, IntegerSearch::Exhaustive);
    EXPECT_LE(panel_time(h.arrangement, exact.counts), panel_time(h.arrangement, alt.counts));
    EXPECT_LE(panel_time(h.arrangement, exact.counts), rounded_time);
  }
  EXPECT_GT(strictly_better, 5);
}

TEST(IntegerPlan, LargeGridsUseTheAlternatingSearch) {
  std::mt19937 gen(3);
  const Arrangement a = random_arrangement(gen, 8, 8);
  const HeuristicGridResult h = plan_grid_heuristic(a.cycle_time, 8, 8);
  const IntegerPlan plan = plan_panel_counts(h.arrangement, h.shares, 64, 64);
  EXPECT_EQ(plan.search, IntegerSearch::Alternating);
  expect_valid(plan.counts, 64, 64);
  EXPECT_LE(plan.work_per_time, h.work_per_time * (1 + 1e-12));  // rounding only loses
  EXPECT_GT(plan.work_per_time, 0.9 * h.work_per_time);
}

TEST(IntegerPlan, RefusesPanelsSmallerThanTheGrid) {
  Arrangement a{2, 2, {1, 2, 3, 5}, {0, 1, 2, 3}};
  const Shares s{{1, 1}, {1, 1}};
  EXPECT_THROW(plan_panel_counts(a, s, 1, 4), InvalidArgument);
  EXPECT_THROW(plan_panel_counts(a, s, 4, 1), InvalidArgument);
  EXPECT_THROW(plan_panel_counts(a, Shares{{1}, {1, 1}}, 4, 4), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

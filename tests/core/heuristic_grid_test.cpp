#include "core/grids/heuristic_grid.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

const std::vector<double> kWorkstations = {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};

using Matrix = std::vector<std::vector<double>>;

Matrix cycle_times_of(const Arrangement& a) {
  Matrix m(a.rows, std::vector<double>(a.cols));
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) m[i][j] = a.t(i, j);
  return m;
}

Arrangement arrangement_of(const Matrix& m) {
  Arrangement a;
  a.rows = m.size();
  a.cols = m[0].size();
  for (const auto& row : m) a.cycle_time.insert(a.cycle_time.end(), row.begin(), row.end());
  a.processor.resize(a.cycle_time.size());
  return a;
}

void expect_values(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k) EXPECT_NEAR(got[k], want[k], tol) << "entry " << k;
}

TEST(HeuristicArrangement, BorderFillFiveByFive) {
  std::vector<double> t(25);
  for (std::size_t k = 0; k < t.size(); ++k) t[k] = static_cast<double>(25 - k);  // any order
  const HeuristicGridResult h = plan_grid_heuristic(t, 5, 5);
  EXPECT_EQ(h.split.direction, SplitDirection::None);
  const Matrix want = {{1, 3, 5, 7, 9},
                       {2, 10, 12, 14, 16},
                       {4, 11, 17, 19, 21},
                       {6, 13, 18, 22, 24},
                       {8, 15, 20, 23, 25}};
  EXPECT_EQ(cycle_times_of(h.arrangement), want);
  // processor[] indexes the caller's list.
  for (std::size_t cell = 0; cell < 25; ++cell)
    EXPECT_EQ(t[h.arrangement.processor[cell]], h.arrangement.cycle_time[cell]);
}

TEST(HeuristicArrangement, BorderFillNonSquareGivesTheRestToTheLongerLine) {
  // 2x4: corner, column (one cell), then the row takes the rest.
  EXPECT_EQ(border_fill_ranks(2, 4), (std::vector<std::size_t>{0, 2, 3, 4, 1, 5, 6, 7}));
  // 4x2: the column takes the rest.
  EXPECT_EQ(border_fill_ranks(4, 2), (std::vector<std::size_t>{0, 2, 1, 5, 3, 6, 4, 7}));
  EXPECT_EQ(border_fill_ranks(1, 3), (std::vector<std::size_t>{0, 1, 2}));
}

TEST(HeuristicArrangement, SlowColumnPaddedWithSlowestFast) {
  const HeuristicGridResult h = plan_grid_heuristic({100, 1, 2, 3, 4, 5, 6, 7, 100}, 3, 3);
  EXPECT_EQ(h.fast_count, 7u);
  EXPECT_EQ(h.split.direction, SplitDirection::Columns);
  EXPECT_EQ(h.split.fast_lines, 2u);
  const Matrix want = {{1, 3, 7}, {2, 5, 100}, {4, 6, 100}};
  EXPECT_EQ(cycle_times_of(h.arrangement), want);
}

TEST(HeuristicArrangement, WorkstationsThreeByThree) {
  const HeuristicGridResult h = plan_grid_heuristic(kWorkstations, 3, 3);
  EXPECT_EQ(h.fast_count, 3u);
  EXPECT_EQ(h.split.direction, SplitDirection::Columns);
  const Matrix want = {{1, 4, 7.8}, {1, 6.3, 7.95}, {1, 7.8, 8}};
  EXPECT_EQ(cycle_times_of(h.arrangement), want);
}

TEST(HeuristicArrangement, WorkstationsTwoByFour) {
  const HeuristicGridResult h = plan_grid_heuristic(kWorkstations, 2, 4);
  EXPECT_EQ(h.fast_count, 3u);
  EXPECT_EQ(h.split.direction, SplitDirection::Rows);
  const Matrix want = {{1, 1, 1, 4}, {6.3, 7.8, 7.8, 7.95}};
  EXPECT_EQ(cycle_times_of(h.arrangement), want);
}

TEST(HeuristicArrangement, RowFirstFillIsTheTransposeOnSquareGrids) {
  const std::vector<std::size_t> column_first = border_fill_ranks(5, 5);
  const std::vector<std::size_t> row_first = border_fill_ranks(5, 5, BorderOrder::RowFirst);
  for (std::size_t i = 0; i < 5; ++i)
    for (std::size_t j = 0; j < 5; ++j) EXPECT_EQ(row_first[i * 5 + j], column_first[j * 5 + i]);
  EXPECT_EQ(border_fill_ranks(2, 4, BorderOrder::RowFirst),
            (std::vector<std::size_t>{0, 1, 3, 4, 2, 5, 6, 7}));
}

TEST(HeuristicArrangement, MirroredVariantFindsTheBetterRowLayout) {
  // The paper's layout of (1..7,100,100) has W = 2.3683; the row split filled directly
  // reaches 2.4225 (the exact optimum, see grid_planner_test).
  const std::vector<double> t = {1, 2, 3, 4, 5, 6, 7, 100, 100};
  HeuristicOptions both;
  both.fills = FillSearch::BothVariants;
  const HeuristicGridResult paper = plan_grid_heuristic(t, 3, 3);
  const HeuristicGridResult best = plan_grid_heuristic(t, 3, 3, both);
  EXPECT_EQ(best.fill, FillVariant::Mirrored);
  // Columns first among equal W: the transpose of the directly filled row layout
  // [[1,3,4],[2,5,6],[7,100,100]].
  EXPECT_EQ(best.split.direction, SplitDirection::Columns);
  EXPECT_EQ(cycle_times_of(best.arrangement), (Matrix{{1, 2, 7}, {3, 5, 100}, {4, 6, 100}}));
  const std::vector<std::size_t> direct_rows =
      split_fill_ranks(3, 3, GridSplit{SplitDirection::Rows, 2}, FillVariant::Mirrored);
  EXPECT_EQ(direct_rows, (std::vector<std::size_t>{0, 2, 3, 1, 4, 5, 6, 7, 8}));
  EXPECT_NEAR(paper.work_per_time, 2.3683, 1e-4);
  EXPECT_NEAR(best.work_per_time, 2.4225, 1e-4);
  // Where the paper's fill is as good, it is kept.
  const HeuristicGridResult ws = plan_grid_heuristic(kWorkstations, 3, 3, both);
  EXPECT_EQ(ws.fill, FillVariant::Paper);
  EXPECT_EQ(cycle_times_of(ws.arrangement), (Matrix{{1, 4, 7.8}, {1, 6.3, 7.95}, {1, 7.8, 8}}));
}

TEST(HeuristicArrangement, BothVariantsNeverWorseThanPaperOnly) {
  std::mt19937 gen(4);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  HeuristicOptions both;
  both.fills = FillSearch::BothVariants;
  int improved = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<double> t(6 + trial % 10);
    for (double& x : t) x = speed(gen);
    const std::size_t p = 2 + trial % 2;
    const double paper = plan_grid_heuristic(t, p, t.size() / p).work_per_time;
    const double best = plan_grid_heuristic(t, p, t.size() / p, both).work_per_time;
    EXPECT_GE(best, paper) << "trial " << trial;
    if (best > paper * (1 + 1e-9)) ++improved;
  }
  EXPECT_GT(improved, 0);
}

TEST(HeuristicArrangement, FewestMisplacedSplits) {
  // 7 fast on 3x3: 2 columns or 2 rows, one misplaced each; columns first.
  const std::vector<GridSplit> s = fewest_misplaced_splits(3, 3, 7);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].direction, SplitDirection::Columns);
  EXPECT_EQ(s[0].fast_lines, 2u);
  EXPECT_EQ(s[1].direction, SplitDirection::Rows);
  // 3 fast on 2x4: one row (pad 1 slow), one column (1 fast left out), two columns (pad 1).
  EXPECT_EQ(fewest_misplaced_splits(2, 4, 3).size(), 3u);
  EXPECT_TRUE(fewest_misplaced_splits(1, 1, 1).empty());
  EXPECT_THROW(split_fill_ranks(3, 3, GridSplit{SplitDirection::Rows, 3}), InvalidArgument);
}

TEST(HarmonicRule, AllCloseExample) {
  const Arrangement a = arrangement_of({{1, 3, 5}, {2, 6, 7}, {4, 8, 9}});
  EXPECT_NEAR(harmonic_cycle_time({1, 2, 4}), 12.0 / 7.0, 1e-15);  // paper: 1.7
  EXPECT_NEAR(harmonic_cycle_time({1, 3, 5}), 45.0 / 23.0, 1e-15);  // paper: 1.95
  const Shares s = harmonic_rule_shares(a, 3, 3);
  // The paper prints c_2 = 2/max… and c_3 = 3/max…: typos, the values are 1/max….
  expect_values(s.r, {1, 0.5, 0.25}, 1e-15);
  expect_values(s.c, {1, 1.0 / 3, 1.0 / 5}, 1e-15);
}

TEST(HarmonicRule, SlowExampleTieGoesToTheLongerLine) {
  const Arrangement a = arrangement_of({{1, 4, 8}, {1, 6, 8}, {1, 8, 8}});
  const Shares s = harmonic_rule_shares(a, 3, 1);
  expect_values(s.r, {1, 1, 1}, 1e-15);
  expect_values(s.c, {1, 1.0 / 8, 1.0 / 8}, 1e-15);
  EXPECT_THROW(harmonic_rule_shares(a, 0, 1), InvalidArgument);
  EXPECT_THROW(harmonic_rule_shares(a, 3, 4), InvalidArgument);
}

TEST(HarmonicRule, FasterFirstRowFixesTheColumns) {
  // Transposed first example: the first row is now the faster line.
  const Arrangement a = arrangement_of({{1, 2, 4}, {3, 6, 8}, {5, 7, 9}});
  const Shares s = harmonic_rule_shares(a, 3, 3);
  expect_values(s.c, {1, 0.5, 0.25}, 1e-15);
  expect_values(s.r, {1, 1.0 / 3, 1.0 / 5}, 1e-15);
}

TEST(HeuristicGrid, WorkstationFiguresOfSection5) {
  const HeuristicGridResult g33 = plan_grid_heuristic(kWorkstations, 3, 3);
  expect_values(g33.rule_shares.r, {1, 1, 1}, 1e-15);
  expect_values(g33.rule_shares.c, {1, 1 / 7.8, 1 / 8.0}, 1e-15);  // paper: 0.128, 0.125
  EXPECT_NEAR(g33.work_per_time, 3.76, 0.005);
  const double cyclic33 = cyclic_work_per_time(g33.arrangement);
  EXPECT_DOUBLE_EQ(cyclic33, 1.125);
  EXPECT_NEAR(g33.work_per_time / cyclic33, 3.34, 0.005);

  const HeuristicGridResult g24 = plan_grid_heuristic(kWorkstations, 2, 4);
  expect_values(g24.rule_shares.r, {1, 1 / 7.8}, 1e-15);  // paper: r_2 = 0.128
  expect_values(g24.rule_shares.c, {1, 1, 1, 0.25}, 1e-15);
  EXPECT_NEAR(g24.work_per_time, 3.67, 0.005);
  const double cyclic24 = cyclic_work_per_time(g24.arrangement);
  // Paper prints 1.01 (8/7.95 = 1.0063 rounded).
  EXPECT_NEAR(cyclic24, 8 / 7.95, 1e-15);
  // Paper prints 3.63 = 3.67/1.01, a ratio of rounded values; the definitions give
  // (3.25 · (1 + 1/7.8)) / (8/7.95) = 3.64375.
  EXPECT_NEAR(g24.work_per_time / cyclic24, 3.64375, 1e-12);
}

TEST(Refinement, FixesTheMissingFactorOfThePaper) {
  const Arrangement a = arrangement_of({{1, 3}, {2, 5}});
  // For c = (1, 1): k = (3, 5), so the best r is (1/3, 1/5), not the paper's equal values.
  expect_values(best_rows_for_columns(a, {1, 1}), {1.0 / 3, 1.0 / 5}, 1e-15);
  expect_values(best_columns_for_rows(a, {1, 1}), {1.0 / 2, 1.0 / 5}, 1e-15);
}

TEST(Refinement, NeverWorsensAndReachesAFixedPoint) {
  std::mt19937 gen(2024);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  std::uniform_real_distribution<double> share(0.1, 1.0);
  int improved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Arrangement a;
    a.rows = 1 + trial % 5;
    a.cols = 1 + (trial / 5) % 6;
    for (std::size_t k = 0; k < a.rows * a.cols; ++k) a.cycle_time.push_back(speed(gen));
    a.processor.resize(a.cycle_time.size());
    Shares start{std::vector<double>(a.rows), std::vector<double>(a.cols)};
    for (double& x : start.r) x = share(gen);
    for (double& x : start.c) x = share(gen);
    const double before = work_per_time(a, start);
    const Refinement refined = refine_shares(a, start);
    EXPECT_GE(refined.work_per_time, before * (1 - 1e-14)) << "trial " << trial;
    EXPECT_NEAR(refined.work_per_time, work_per_time(a, refined.shares), 1e-12 * before);
    if (refined.work_per_time > before * (1 + 1e-9)) ++improved;
    // Fixed point: one more round does not improve.
    const Refinement again = refine_shares(a, refined.shares);
    EXPECT_LE(again.work_per_time, refined.work_per_time * (1 + 1e-10)) << "trial " << trial;
  }
  EXPECT_GT(improved, 100);
}

TEST(HeuristicGrid, RefinementNeverDecreasesTheRuleW) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  for (int trial = 0; trial < 100; ++trial) {
    std::vector<double> t(2 + trial % 30);
    for (double& x : t) x = speed(gen);
    const std::size_t p = 1 + trial % 4;
    const std::size_t q = t.size() / p;
    if (q == 0) continue;
    const HeuristicGridResult h = plan_grid_heuristic(t, p, q);
    EXPECT_GE(h.work_per_time, h.rule_work_per_time * (1 - 1e-14)) << "trial " << trial;
    EXPECT_NEAR(slowest_time(h.arrangement, h.shares), 1.0, 1e-12);
  }
}

TEST(HeuristicGrid, RefusesBadGrids) {
  EXPECT_THROW(plan_grid_heuristic({1, 2, 3}, 2, 2), InvalidArgument);
  EXPECT_THROW(plan_grid_heuristic({1, 2, 3}, 0, 2), InvalidArgument);
  EXPECT_THROW(plan_grid_heuristic({1, 0, 3}, 1, 2), InvalidArgument);
  EXPECT_THROW(refine_shares(arrangement_of({{1, 2}}), Shares{{1}, {1}}), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

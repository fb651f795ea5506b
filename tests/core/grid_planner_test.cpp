#include "core/grids/grid_planner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "core/grids/exact_grid.hpp"

namespace hetscal::core {
namespace {

const std::vector<double> kWorkstations = {7.8, 1.0, 1.0, 4.0, 1.0, 6.3, 7.8, 7.95, 8.0};

PlannerOptions heuristic_only() {
  PlannerOptions options;
  options.exact_max_processors = 0;
  return options;
}

TEST(HeuristicVsExact, PaperGridsAreOptimal) {
  // §5.2: "the solution given by the heuristic is indeed optimal" for both grids.
  for (auto [p, q] : {std::pair<std::size_t, std::size_t>{3, 3}, {2, 4}}) {
    const HeuristicGridResult h = plan_grid_heuristic(kWorkstations, p, q);
    const ExactGridResult exact = best_grid_exact(kWorkstations, p, q);
    EXPECT_NEAR(h.work_per_time, exact.work_per_time, 1e-12 * exact.work_per_time)
        << p << "x" << q;
    // The rule's shares are already optimal here, before any refinement.
    EXPECT_NEAR(h.rule_work_per_time, exact.work_per_time, 1e-12 * exact.work_per_time);
  }
}

TEST(HeuristicVsExact, NeverBetterThanExactOnRandomInstances) {
  std::mt19937 gen(31);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  std::uniform_real_distribution<double> slow(30.0, 100.0);
  double worst_ratio = 1.0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t p = 1 + trial % 3;
    const std::size_t q = 1 + (trial / 3) % 3;
    std::vector<double> t(p * q + trial % 3);
    for (double& x : t) x = speed(gen);
    if (trial % 4 == 0) t[0] = slow(gen);  // some instances with a slow processor
    const HeuristicGridResult h = plan_grid_heuristic(t, p, q);
    const ExactGridResult exact = best_grid_exact(t, p, q);
    EXPECT_LE(h.work_per_time, exact.work_per_time * (1 + 1e-12)) << "trial " << trial;
    worst_ratio = std::min(worst_ratio, h.work_per_time / exact.work_per_time);
  }
  // Not a bound from the paper: a guard against a broken heuristic.
  EXPECT_GT(worst_ratio, 0.7);
}

TEST(HeuristicVsExact, RuleSharesAreAlreadyAFixedPointOfTheRefinement) {
  // The r/c rule makes every grid row tight in the first column and every column tight
  // somewhere: each side is a best response to the other, so the (corrected) refinement
  // of §4.4.4 has nothing to improve on the heuristic's own shares.
  std::mt19937 gen(8);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  for (int trial = 0; trial < 40; ++trial) {
    std::vector<double> t(4 + trial % 12);
    for (double& x : t) x = speed(gen);
    const std::size_t p = 1 + trial % 3;
    const HeuristicGridResult h = plan_grid_heuristic(t, p, t.size() / p);
    EXPECT_EQ(h.refinement_half_steps, 2u);
    EXPECT_NEAR(h.work_per_time, h.rule_work_per_time, 1e-12 * h.work_per_time);
  }
}

TEST(GridFigures, WorkstationsThreeByThree) {
  const GridChoice g = plan_grid_shape(kWorkstations, 3, 3, heuristic_only());
  const GridFigures& f = g.candidate.figures;
  EXPECT_NEAR(f.work_per_time, 3.0 * (1 + 1 / 7.8 + 1 / 8.0), 1e-12);
  EXPECT_DOUBLE_EQ(f.cyclic_work_per_time, 1.125);
  EXPECT_NEAR(f.predicted_speedup, f.work_per_time / 1.125, 1e-12);
  EXPECT_DOUBLE_EQ(f.words_per_update, 4.0);
  double speed = 0;
  for (double t : kWorkstations) speed += 1 / t;
  EXPECT_NEAR(f.efficiency, f.work_per_time / speed, 1e-12);
  const std::vector<ProcessorLoad> loads = processor_loads(g.arrangement, g.shares);
  ASSERT_EQ(loads.size(), 9u);
  double work = 0;
  double min_busy = 1;
  for (const ProcessorLoad& l : loads) {
    work += l.work_fraction;
    min_busy = std::min(min_busy, l.busy_fraction);
    EXPECT_LE(l.busy_fraction, 1 + 1e-12);
    EXPECT_EQ(kWorkstations[l.processor], g.arrangement.t(l.row, l.col));
  }
  EXPECT_NEAR(work, 1.0, 1e-12);
  EXPECT_DOUBLE_EQ(min_busy, f.min_busy_fraction);
  // The fast column is always busy; t = 4 in the middle column is busy 4/7.8 of the time.
  EXPECT_NEAR(loads[0].busy_fraction, 1.0, 1e-12);
  EXPECT_NEAR(loads[1].busy_fraction, 4 / 7.8, 1e-12);
}

TEST(GridFigures, CommunicationVolume) {
  EXPECT_DOUBLE_EQ(words_per_rank1_update(1, 1, 1000), 0.0);
  EXPECT_DOUBLE_EQ(words_per_rank1_update(3, 3, 1000), 4000.0);
  EXPECT_DOUBLE_EQ(words_per_rank1_update(1, 9, 1000), 8000.0);
  EXPECT_DOUBLE_EQ(words_per_rank1_update(2, 4), 4.0);
}

TEST(GridPlanner, ListsEveryShape) {
  const std::vector<GridCandidate> shapes = list_grid_shapes(kWorkstations);
  ASSERT_EQ(shapes.size(), 9u);
  const std::size_t want_cols[] = {9, 4, 3, 2, 1, 1, 1, 1, 1};
  for (std::size_t p = 1; p <= 9; ++p) {
    EXPECT_EQ(shapes[p - 1].rows, p);
    EXPECT_EQ(shapes[p - 1].cols, want_cols[p - 1]);
  }
  EXPECT_NEAR(shapes[2].figures.work_per_time, 3.7596, 1e-4);  // 3x3, paper 3.76
  EXPECT_NEAR(shapes[1].figures.work_per_time, 3.6667, 1e-4);  // 2x4, paper 3.67
  // The list holds what plan_grid_shape computes for each shape.
  for (const GridCandidate& c : shapes) {
    const GridChoice g = plan_grid_shape(kWorkstations, c.rows, c.cols);
    EXPECT_EQ(g.candidate.figures.work_per_time, c.figures.work_per_time);
    EXPECT_EQ(g.candidate.method, c.method);
  }
  // 2x4 leaves out the slowest workstation (t = 8, index 8) and uses each other one once.
  const GridChoice g24 = plan_grid_shape(kWorkstations, 2, 4);
  std::vector<std::size_t> used = g24.arrangement.processor;
  std::sort(used.begin(), used.end());
  EXPECT_EQ(used, (std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7}));
  // 1x9 and 9x1 are 1D: perfect balance, W = Σ 1/t.
  double speed = 0;
  for (double t : kWorkstations) speed += 1 / t;
  EXPECT_NEAR(shapes[0].figures.work_per_time, speed, 1e-12);
  EXPECT_NEAR(shapes[8].figures.work_per_time, speed, 1e-12);
}

TEST(GridPlanner, ExactReplacesTheHeuristicOnlyWhenBetter) {
  std::mt19937 gen(77);
  std::uniform_real_distribution<double> speed(1.0, 10.0);
  int exact_used = 0;
  for (int trial = 0; trial < 30; ++trial) {
    std::vector<double> t(9);
    for (double& x : t) x = speed(gen);
    const GridChoice with_exact = plan_grid_shape(t, 3, 3);
    const GridChoice without = plan_grid_shape(t, 3, 3, heuristic_only());
    EXPECT_GE(with_exact.candidate.figures.work_per_time,
              without.candidate.figures.work_per_time * (1 - 1e-12));
    EXPECT_NEAR(with_exact.candidate.figures.work_per_time,
                best_grid_exact(t, 3, 3).work_per_time, 1e-12 * without.candidate.figures.work_per_time);
    if (with_exact.candidate.method == PlanMethod::Exact) ++exact_used;
  }
  EXPECT_GT(exact_used, 0);
}

TEST(GridPlanner, ChooseUsesTheScore) {
  const GridChoice by_w = choose_grid(kWorkstations);
  EXPECT_EQ(by_w.candidate.rows, 1u);  // 1D rows balance perfectly: the largest W
  EXPECT_EQ(by_w.candidate.cols, 9u);
  // A score that penalises communication (a stand-in for a time model) picks a 2D grid.
  const GridScore penalise_comm = [](const GridCandidate& c) {
    return c.figures.work_per_time - 0.1 * c.figures.words_per_update;
  };
  const GridChoice by_model = choose_grid(kWorkstations, PlannerOptions{}, penalise_comm);
  EXPECT_EQ(by_model.candidate.rows, 3u);
  EXPECT_EQ(by_model.candidate.cols, 3u);
  EXPECT_EQ(by_model.arrangement.rows, 3u);
  EXPECT_THROW(best_candidate({}), InvalidArgument);
  EXPECT_THROW(best_candidate(list_grid_shapes({1.0}), GridScore{}), InvalidArgument);
}

TEST(GridPlanner, ListsTheShapesOfBoundedSides) {
  // Up to the bound: list_grid_shapes' shapes, planned alike.
  const std::vector<GridCandidate> every = list_grid_shapes(kWorkstations);
  const std::vector<GridCandidate> bounded = list_bounded_grid_shapes(kWorkstations, 4);
  ASSERT_EQ(bounded.size(), 4u);
  for (std::size_t p = 1; p <= 4; ++p) {
    EXPECT_EQ(bounded[p - 1].rows, p);
    EXPECT_EQ(bounded[p - 1].cols, std::min<std::size_t>(4, 9 / p));
    if (9 / p <= 4) {
      EXPECT_EQ(bounded[p - 1].figures.work_per_time, every[p - 1].figures.work_per_time);
    }
  }
  // 1x4 instead of 1x9: the fastest four, in one row (W = their Σ 1/t).
  const GridChoice g14 = plan_grid_shape(kWorkstations, 1, 4);
  EXPECT_EQ(bounded[0].figures.work_per_time, g14.candidate.figures.work_per_time);
  // Thousands of processors: no more shapes than the bound, no side longer.
  const std::vector<double> many(20000, 1.0);
  const std::vector<GridCandidate> wide = list_bounded_grid_shapes(many, 64);
  ASSERT_EQ(wide.size(), 64u);
  for (const GridCandidate& c : wide) {
    EXPECT_LE(c.rows, 64u);
    EXPECT_EQ(c.cols, 64u);  // 20,000 / p >= 64 for every p <= 64
  }
  EXPECT_THROW(list_bounded_grid_shapes(kWorkstations, 0), InvalidArgument);
}

TEST(GridPlanner, RefusesBadInput) {
  EXPECT_THROW(list_grid_shapes({}), InvalidArgument);
  EXPECT_THROW(plan_grid_shape({1.0, 2.0}, 2, 2), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

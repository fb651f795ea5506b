// The Cholesky layout the runtime plans (runtime/potrf_plan.hpp) with the core chooser:
// square tiles over the whole matrix, owners exactly those of the priced pattern or grid
// (read back tile by tile from the owner table), the triangle's work in proportion to speed
// (counted element by element), ranks left out owning nothing, the caller's layout kept
// where nothing beats it, and both routes priced against flop counts written out by hand.
#include "runtime/potrf_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/common/error.hpp"
#include "layout/pattern_distribution.hpp"
#include "runtime/cholesky_layouts_option.hpp"
#include "runtime/machine.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::runtime {
namespace {

using core::CholeskyLayoutKind;

// Every kind but the caller's layout (what HETSCAL_FORCE plans with).
std::vector<CholeskyLayoutKind> hetscal_layouts() {
  std::vector<CholeskyLayoutKind> kinds = all_cholesky_layouts();
  kinds.erase(kinds.begin());  // CallerLayout comes first
  return kinds;
}

// Elements of the lower triangle (diagonal included) each rank owns, counted one by one.
std::map<int, double> lower_triangle_per_rank(const layout::Distribution& a) {
  std::map<int, double> elements;
  for (std::int64_t i = 0; i < a.rows().extent(); ++i) {
    const std::int64_t tile_row = a.rows().tile_of(i);
    for (std::int64_t j = 0; j <= i; ++j) elements[a.owner({tile_row, a.cols().tile_of(j)})] += 1;
  }
  return elements;
}

// Processes of the given flop rates on a network of this latency and bandwidth.
core::Platform processes(const std::vector<double>& flops, double latency_s = 1e-15,
                         double bandwidth = 1e18) {
  MachineFigures machine;
  machine.flops = flops;
  machine.latency_s = latency_s;
  machine.bandwidth_bytes_per_s = bandwidth;
  machine.memory_bytes = 1e12;
  return machine.platform();
}

// Flop rates 1e9 per unit of speed.
std::vector<double> rates(const std::vector<double>& speeds) {
  std::vector<double> flops;
  for (double s : speeds) flops.push_back(1e9 * s);
  return flops;
}

// Order N on the caller's p×q block-cyclic grid (row-major ranks) with square blocks.
core::Problem cholesky_on_caller_grid(std::size_t n, std::size_t p, std::size_t q, std::size_t block = 100) {
  core::Problem problem;
  problem.routine = core::Routine::Cholesky;
  problem.n = n;
  problem.caller.grid_rows = p;
  problem.caller.grid_cols = q;
  problem.caller.block = block;
  for (std::size_t r = 0; r < p * q; ++r) problem.caller.processor_at.push_back(r);
  return problem;
}

// The layout hetscal runs for ranks of these speeds (caller's layout excluded), free network.
CholeskyLayout layout_for(const std::vector<double>& speeds, std::size_t n) {
  return choose_cholesky_layout(processes(rates(speeds)), cholesky_on_caller_grid(n, 1, speeds.size()), hetscal_layouts());
}

bool is_pattern(CholeskyLayoutKind kind) {
  return kind == CholeskyLayoutKind::G2dbc || kind == CholeskyLayoutKind::Gcrm ||
         kind == CholeskyLayoutKind::HeteroSymmetric;
}

// Every tile's owner is the candidate's cell (I mod R, J mod C) for a pattern, and a rank
// the plan uses for any layout; ranks outside the plan own nothing.
void expect_owners_as_priced(const CholeskyLayout& plan) {
  const layout::Distribution& a = *plan.a;
  const std::set<std::size_t> used(plan.ranks.begin(), plan.ranks.end());
  const bool pattern = plan.candidate.kind == core::CandidateKind::Pattern;
  for (std::int64_t i = 0; i < a.rows().count(); ++i) {
    for (std::int64_t j = 0; j < a.cols().count(); ++j) {
      const int owner = a.owner({i, j});
      ASSERT_TRUE(owner >= 0 && used.count(static_cast<std::size_t>(owner))) << owner;
      if (pattern) {
        const std::size_t cell = static_cast<std::size_t>(i) % plan.candidate.rows * plan.candidate.cols +
                                 static_cast<std::size_t>(j) % plan.candidate.cols;
        ASSERT_EQ(static_cast<std::size_t>(owner), plan.candidate.owner[cell]) << i << "," << j;
      }
    }
  }
}

TEST(CholeskyLayout, SquareTilesOverTheWholeMatrix) {
  for (const std::vector<double>& speeds :
       {std::vector<double>{1, 3}, {1, 2, 3, 4}, {3, 1, 2, 2, 1, 3}, {1, 1, 1, 1, 1, 1, 1, 8}}) {
    for (std::int64_t n : {9, 100, 777}) {
      const CholeskyLayout plan = layout_for(speeds, static_cast<std::size_t>(n));
      ASSERT_FALSE(plan.keeps_caller_layout());
      ASSERT_TRUE(plan.a);
      const layout::Distribution& a = *plan.a;
      EXPECT_EQ(a.rows().extent(), n);
      EXPECT_EQ(a.cols().extent(), n);
      EXPECT_EQ(a.rows().block(), plan.tile);
      EXPECT_EQ(a.cols().block(), plan.tile);
      EXPECT_EQ(a.num_ranks(), static_cast<int>(speeds.size()));
      EXPECT_EQ(plan.candidate.tile, static_cast<std::size_t>(plan.tile));
      EXPECT_EQ(plan.candidate.owner.size(), plan.candidate.rows * plan.candidate.cols);
      expect_owners_as_priced(plan);
      EXPECT_NE(plan.description.find("tile " + std::to_string(plan.tile)), std::string::npos);
    }
  }
}

TEST(CholeskyLayout, TheTriangleIsSharedInProportionToSpeed) {
  // Speeds 1:3: the fast rank holds about three times the slow one's part of the triangle.
  const CholeskyLayout plan = layout_for({1, 3}, 1500);
  const auto elements = lower_triangle_per_rank(*plan.a);
  const double ratio = elements.at(1) / elements.at(0);
  EXPECT_GT(ratio, 2.5);
  EXPECT_LT(ratio, 3.5);
  // Even speeds: an even share.
  const auto even = lower_triangle_per_rank(*layout_for({2, 2}, 1500).a);
  EXPECT_NEAR(even.at(1) / even.at(0), 1.0, 0.1);
}

TEST(CholeskyLayout, RefusesAnEmptyProblem) {
  EXPECT_THROW(layout_for({1, 2, 3, 4}, 0), InvalidArgument);
  core::Problem gemm = cholesky_on_caller_grid(100, 1, 2);
  gemm.routine = core::Routine::Gemm;
  EXPECT_THROW(choose_cholesky_layout(processes(rates({1, 2})), gemm, hetscal_layouts()), InvalidArgument);
  EXPECT_THROW(choose_cholesky_layout(processes(rates({1, 2})), cholesky_on_caller_grid(100, 1, 2), {}),
               InvalidArgument);
}

// Five equal ranks at N = 600 on a 1 GB/s network: no 2D grid of 5 exists, a 1D grid sends
// every panel to all, 2x2 leaves a rank idle; GCR&M's colrows touch 2.75 nodes on average.
TEST(CholeskyLayout, APatternThatWinsOnTheModelIsPlannedAsThatPattern) {
  for (double latency : {1e-6, 1e-5, 1e-4}) {
    const CholeskyLayout plan = choose_cholesky_layout(
        processes(std::vector<double>(5, 2e9), latency, 1e9), cholesky_on_caller_grid(600, 1, 5, 32), hetscal_layouts());
    ASSERT_EQ(plan.kind, CholeskyLayoutKind::Gcrm) << plan.description;
    EXPECT_TRUE(is_pattern(plan.kind));
    ASSERT_NE(dynamic_cast<const layout::PatternDistribution*>(plan.a.get()), nullptr);
    EXPECT_EQ(plan.ranks, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
    expect_owners_as_priced(plan);
    EXPECT_NE(plan.description.find("GCR&M"), std::string::npos) << plan.description;
    EXPECT_NE(plan.description.find("(T "), std::string::npos) << plan.description;
  }
}

// Restricted to the heterogeneous symmetric pattern (HETSCAL_CHOLESKY_LAYOUTS), the plan is
// that pattern on the ranks of unequal speeds, owners as priced.
TEST(CholeskyLayout, OnlyTheKindsGivenArePlanned) {
  const CholeskyLayout plan =
      choose_cholesky_layout(processes(rates({1, 1, 2, 4}), 1e-5, 1e9), cholesky_on_caller_grid(800, 1, 4, 32),
                             {CholeskyLayoutKind::HeteroSymmetric});
  ASSERT_EQ(plan.kind, CholeskyLayoutKind::HeteroSymmetric) << plan.description;
  ASSERT_NE(dynamic_cast<const layout::PatternDistribution*>(plan.a.get()), nullptr);
  expect_owners_as_priced(plan);
  EXPECT_NE(plan.description.find("hetero sym"), std::string::npos) << plan.description;
}

// Speeds 1,1,2,2,4 at N = 200: the model runs on the three fastest; the two slow ranks own
// no element of the triangle (counted tile by tile).
TEST(CholeskyLayout, ARankLeftOutOwnsNothing) {
  const CholeskyLayout plan = choose_cholesky_layout(
      processes(rates({1, 1, 2, 2, 4}), 1e-6, 1e9), cholesky_on_caller_grid(200, 1, 5, 32), hetscal_layouts());
  ASSERT_EQ(plan.ranks, (std::vector<std::size_t>{2, 3, 4})) << plan.description;
  const auto elements = lower_triangle_per_rank(*plan.a);
  EXPECT_EQ(elements.count(0), 0u);
  EXPECT_EQ(elements.count(1), 0u);
  double total = 0;
  for (const auto& [rank, count] : elements) total += count;
  EXPECT_EQ(total, 200.0 * 201.0 / 2.0);
  EXPECT_NE(plan.description.find("ranks 2-4 of 5"), std::string::npos) << plan.description;
}

// Equal ranks already on a 2x2 block-cyclic grid (blocks of 100, a size the planner does not
// tile with), a slow network: moving the matrix costs more than any layout can gain, so the
// caller's own layout is kept (no distribution built), unless it is excluded.
TEST(CholeskyLayout, TheCallersLayoutWinsWhereMovingCannotPay) {
  const core::Platform platform = processes(rates({1, 1, 1, 1}), 1e-4, 1e8);
  const core::Problem problem = cholesky_on_caller_grid(2000, 2, 2, 100);
  const CholeskyLayout kept = choose_cholesky_layout(platform, problem, all_cholesky_layouts());
  EXPECT_TRUE(kept.keeps_caller_layout()) << kept.description;
  EXPECT_EQ(kept.a, nullptr);
  EXPECT_NE(kept.description.find("caller layout"), std::string::npos) << kept.description;
  const CholeskyLayout moved = choose_cholesky_layout(platform, problem, hetscal_layouts());
  EXPECT_FALSE(moved.keeps_caller_layout());
  ASSERT_NE(moved.a, nullptr);
  EXPECT_GT(moved.predicted_s, kept.predicted_s);
}

TEST(CholeskyPricing, ScaLapackWaitsForTheSlowerProcessAndThePlanDoesNot) {
  // N³/3 flops. Block-cyclic over 1×2 gives the slow process about half of them, at 1e9
  // flop/s; a plan balanced 1:3 needs at least the whole at 4e9 flop/s.
  const std::size_t n = 2000;
  const double flops = static_cast<double>(n) * n * n / 3.0;
  const CholeskyLayout plan = layout_for({1, 3}, n);
  const Prices prices = price_routes(processes({1e9, 3e9}), cholesky_on_caller_grid(n, 1, 2), plan.candidate);
  EXPECT_GT(prices.forward_s, 0.45 * flops / 1e9);
  EXPECT_GT(prices.heterogeneous_s, flops / 4e9);
  EXPECT_LT(prices.heterogeneous_s, 0.7 * prices.forward_s);
}

TEST(CholeskyPricing, EvenSpeedsGainNothing) {
  const std::size_t n = 2000;
  const CholeskyLayout plan = layout_for({2, 2}, n);
  const Prices prices = price_routes(processes({2e9, 2e9}), cholesky_on_caller_grid(n, 1, 2), plan.candidate);
  EXPECT_GT(prices.heterogeneous_s, 0.8 * prices.forward_s);
}

}  // namespace
}  // namespace hetscal::runtime

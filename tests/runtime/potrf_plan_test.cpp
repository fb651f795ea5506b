// The planned Cholesky layout (runtime/potrf_plan.hpp) and its price: square tiles over the
// whole matrix, the triangle's work in proportion to speed (counted element by element),
// refusals, and both routes priced by the core time model against flop counts written out
// by hand on a platform whose network costs nothing.
#include "runtime/potrf_plan.hpp"

#include <gtest/gtest.h>

#include <map>

#include "core/error.hpp"
#include "runtime/machine.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::runtime {
namespace {

// Elements of the lower triangle (diagonal included) each rank owns, counted one by one.
std::map<int, double> lower_triangle_per_rank(const layout::Distribution& a) {
  std::map<int, double> elements;
  for (std::int64_t i = 0; i < a.rows().extent(); ++i) {
    const std::int64_t tile_row = a.rows().tile_of(i);
    for (std::int64_t j = 0; j <= i; ++j) elements[a.owner({tile_row, a.cols().tile_of(j)})] += 1;
  }
  return elements;
}

// Processes of the given flop rates; a network that costs nothing.
core::Platform processes(const std::vector<double>& flops) {
  MachineFigures machine;
  machine.flops = flops;
  machine.latency_s = 1e-15;
  machine.bandwidth_bytes_per_s = 1e18;
  machine.memory_bytes = 1e12;
  return machine.platform();
}

// Order N on the caller's 1×P block-cyclic grid with square blocks of 100.
core::Problem cholesky_on_caller_grid(std::size_t n, std::size_t ranks) {
  core::Problem problem;
  problem.routine = core::Routine::Cholesky;
  problem.n = n;
  problem.caller.grid_rows = 1;
  problem.caller.grid_cols = ranks;
  problem.caller.block = 100;
  for (std::size_t p = 0; p < ranks; ++p) problem.caller.processor_at.push_back(p);
  return problem;
}

// The layout for ranks of these speeds (flop rates 1e9 per unit of speed).
CholeskyLayout layout_for(const std::vector<double>& speeds, std::size_t n) {
  std::vector<double> flops;
  for (double s : speeds) flops.push_back(1e9 * s);
  return choose_cholesky_layout(processes(flops), cholesky_on_caller_grid(n, speeds.size()), speeds);
}

TEST(CholeskyLayout, SquareTilesOverTheWholeMatrix) {
  for (const std::vector<double>& speeds :
       {std::vector<double>{1, 3}, {1, 2, 3, 4}, {3, 1, 2, 2, 1, 3}, {1, 1, 1, 1, 1, 1, 1, 8}}) {
    for (std::int64_t n : {9, 100, 777}) {
      const CholeskyLayout plan = layout_for(speeds, static_cast<std::size_t>(n));
      const layout::Distribution& a = *plan.a;
      EXPECT_EQ(a.rows().extent(), n);
      EXPECT_EQ(a.cols().extent(), n);
      EXPECT_EQ(a.rows().block(), plan.tile);
      EXPECT_EQ(a.cols().block(), plan.tile);
      EXPECT_EQ(a.rows().first(), a.cols().first());
      EXPECT_EQ(a.num_ranks(), static_cast<int>(speeds.size()));
      for (std::int64_t i = 0; i < a.rows().count(); ++i) {
        for (std::int64_t j = 0; j < a.cols().count(); ++j) {
          const int owner = a.owner({i, j});
          EXPECT_TRUE(owner >= 0 && owner < static_cast<int>(speeds.size()));
        }
      }
      EXPECT_EQ(plan.candidate.tile, static_cast<std::size_t>(plan.tile));
      EXPECT_EQ(plan.candidate.owner.size(), plan.candidate.rows * plan.candidate.cols);
      EXPECT_FALSE(plan.description.empty());
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

TEST(CholeskyLayout, RefusesAnOrderNoGridFits) {
  EXPECT_THROW(layout_for({1, 2, 3, 4}, 0), InvalidArgument);
  EXPECT_THROW(layout_for({1, 2, 3, 4}, 1), InvalidArgument);  // 1 tile, no 1x1 grid
  EXPECT_NO_THROW(layout_for({1, 2, 3, 4}, 4));
}

TEST(CholeskyPricing, ScaLapackWaitsForTheSlowerProcessAndThePlanDoesNot) {
  // N³/3 flops. Block-cyclic over 1×2 gives the slow process about half of them, at 1e9
  // flop/s; a plan balanced 1:3 needs at least the whole at 4e9 flop/s.
  const std::size_t n = 2000;
  const double flops = static_cast<double>(n) * n * n / 3.0;
  const CholeskyLayout plan = layout_for({1, 3}, n);
  const Prices prices = price_routes(processes({1e9, 3e9}), cholesky_on_caller_grid(n, 2), plan.candidate);
  EXPECT_GT(prices.forward_s, 0.45 * flops / 1e9);
  EXPECT_GT(prices.heterogeneous_s, flops / 4e9);
  EXPECT_LT(prices.heterogeneous_s, 0.7 * prices.forward_s);
}

TEST(CholeskyPricing, EvenSpeedsGainNothing) {
  const std::size_t n = 2000;
  const CholeskyLayout plan = layout_for({2, 2}, n);
  const Prices prices = price_routes(processes({2e9, 2e9}), cholesky_on_caller_grid(n, 2), plan.candidate);
  EXPECT_GT(prices.heterogeneous_s, 0.8 * prices.forward_s);
}

}  // namespace
}  // namespace hetscal::runtime

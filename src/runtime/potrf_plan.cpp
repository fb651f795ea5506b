#include "runtime/potrf_plan.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/pricing.hpp"

namespace hetscal::runtime {
namespace {

// The grid GEMM's planner builds for an N×N×N product, with tiles of at most `largest`.
CholeskyLayout cartesian_layout(const std::vector<double>& speeds, std::int64_t n,
                                std::int64_t largest) {
  GemmLayout grid = plan_gemm_layout(speeds, n, n, n, largest);
  CholeskyLayout plan;
  plan.tile = grid.tile;
  plan.a = std::move(grid.c);  // TileSplit(n, tile) both ways: square tiles
  plan.candidate = std::move(grid.candidate);
  plan.description = "heterogeneous Cartesian " + grid.description;
  return plan;
}

}  // namespace

CholeskyLayout choose_cholesky_layout(const core::Platform& platform, const core::Problem& problem,
                                      const std::vector<double>& speeds) {
  const auto n = static_cast<std::int64_t>(problem.n);
  if (problem.routine != core::Routine::Cholesky || n < 1) {
    throw InvalidArgument("hetscal: a Cholesky layout needs a Cholesky problem of order >= 1");
  }
  // GEMM's largest tile, then halves of it down to 16 (each tries a few sizes below it).
  const std::int64_t largest = planned_tile(n, n, static_cast<int>(speeds.size()));
  std::optional<CholeskyLayout> best;
  double best_s = std::numeric_limits<double>::infinity();
  std::string refusal;
  for (std::int64_t tile = largest; tile >= 1; tile /= 2) {
    try {  // a tile too large for the grid still leaves the smaller ones
      CholeskyLayout plan = cartesian_layout(speeds, n, tile);
      const double seconds = predicted_compute_seconds(platform, problem, plan.candidate);
      if (seconds < best_s) {
        best_s = seconds;
        best = std::move(plan);
      }
    } catch (const InvalidArgument& e) {
      refusal = e.what();
    }
    if (tile <= 16) break;
  }
  if (!best) throw InvalidArgument(refusal);
  return std::move(*best);
}

}  // namespace hetscal::runtime

// sampled_update_lower_bound (update_bound.hpp): never above the LU and QR step models it
// bounds, on grids and patterns of random shapes, speeds, networks and lengths (sampled and
// walked); far above the bound at perfect balance where ranks of different speeds get equal
// shares, and near the model where a bus carries a tall grid's column messages (what lets the
// search skip such candidates); and a partial sum once it passes `enough`.
#include "core/time_models/update_bound.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "core/planners/candidate_search.hpp"
#include "core/time_models/lu_steps.hpp"
#include "core/time_models/qr_steps.hpp"
#include "core/time_models/step_sampling.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

double model_total(const Platform& platform, Routine routine, const TileOwnership& layout, PanelRank rank) {
  return (routine == Routine::LU ? simulate_lu(platform, layout, rank) : simulate_qr(platform, layout, rank)).total();
}

TEST(UpdateBound, NeverAboveTheStepModels) {
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10), latency(0.0, 1.0e-3);
  std::uniform_int_distribution<std::size_t> short_side(1, 60), long_side(200, 400);
  std::size_t sampled = 0;
  for (int trial = 0; trial < 90; ++trial) {
    const std::size_t processors = 12, tile = 16;
    // Every third trial has more than 2·kSampledSteps steps: the bound then sums the strata
    // the pricing samples.
    const bool long_sequence = trial % 3 == 1;
    const std::size_t n = tile * (long_sequence ? long_side(rng) : short_side(rng));
    sampled += long_sequence;
    std::vector<double> speeds(processors);
    for (double& s : speeds) s = speed(rng);
    Platform platform = planner_platform(speeds, bandwidth(rng), trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    platform.network.latency_s = latency(rng);
    if (trial % 4 == 3) platform.network.node_of = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};  // shared node links
    const TileOwnership layout = random_layout(rng, processors, n, tile, trial);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", n = " + std::to_string(n));
    for (Routine routine : {Routine::LU, Routine::QR}) {
      const double bound = sampled_update_lower_bound(platform, routine, layout);
      EXPECT_GT(bound, 0.0);
      for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest})
        EXPECT_LE(bound, model_total(platform, routine, layout, rank)) << routine_name(routine);
    }
  }
  EXPECT_EQ(sampled, 30u);
}

// 2D block-cyclic over speeds 4, 2 and 1: every rank gets the same tiles, so the slowest takes
// 7/3 of the time perfect balance would give it; the bound sees it.
TEST(UpdateBound, SeesTheSlowestRankOfEqualShares) {
  std::vector<double> speeds;
  for (std::size_t x = 0; x < 12; ++x) speeds.push_back(4.0e9 / static_cast<double>(1u << (x % 3)));
  const Platform platform = planner_platform(speeds, 1.0e12);
  std::vector<std::size_t> owner(12);
  for (std::size_t x = 0; x < 12; ++x) owner[x] = x;
  const std::size_t n = 16 * 240, tile = 16;
  const TileOwnership layout = block_cyclic_ownership(n, tile, 3, 4, owner);
  double summed = 0.0;
  for (double s : speeds) summed += s;
  for (Routine routine : {Routine::LU, Routine::QR}) {
    Problem problem;
    problem.routine = routine;
    problem.n = problem.m = n;
    const double balanced = compute_lower_bound(platform, problem, tile, summed);
    EXPECT_GT(sampled_update_lower_bound(platform, routine, layout), 2.0 * balanced) << routine_name(routine);
  }
}

// A 12×1 grid on a slow shared bus: every step's U (LU) or W (QR) goes from the row-k rank to
// the eleven others, one after another; the bound counts most of the model's time.
TEST(UpdateBound, CountsTheColumnMessagesOfATallGridOnABus) {
  const Platform platform = planner_platform(std::vector<double>(12, 1.0e10), 1.0e6, NetworkKind::SharedBus);
  std::vector<std::size_t> owner(12);
  for (std::size_t x = 0; x < 12; ++x) owner[x] = x;
  const TileOwnership layout = block_cyclic_ownership(16 * 300, 16, 12, 1, owner);
  for (Routine routine : {Routine::LU, Routine::QR}) {
    const double model = model_total(platform, routine, layout, PanelRank::DiagonalOwner);
    EXPECT_GT(sampled_update_lower_bound(platform, routine, layout), 0.3 * model) << routine_name(routine);
  }
}

TEST(UpdateBound, StopsOncePastEnough) {
  std::mt19937_64 rng(5);
  const Platform platform = planner_platform({1.0e9, 2.0e9, 3.0e9, 4.0e9});
  const TileOwnership layout = random_layout(rng, 4, 16 * 300, 16, 1);
  for (Routine routine : {Routine::LU, Routine::QR}) {
    const double whole = sampled_update_lower_bound(platform, routine, layout);
    const double enough = 0.25 * whole;
    const double partial = sampled_update_lower_bound(platform, routine, layout, enough);
    EXPECT_GT(partial, enough) << routine_name(routine);
    EXPECT_LT(partial, whole) << routine_name(routine);
    EXPECT_EQ(sampled_update_lower_bound(platform, routine, layout, std::numeric_limits<double>::infinity()), whole);
  }
}

TEST(UpdateBound, OtherRoutinesHaveNone) {
  std::mt19937_64 rng(6);
  const Platform platform = planner_platform({1.0e9, 2.0e9});
  const TileOwnership layout = random_layout(rng, 2, 16 * 20, 16, 1);
  EXPECT_EQ(sampled_update_lower_bound(platform, Routine::Cholesky, layout), 0.0);
  EXPECT_EQ(sampled_update_lower_bound(platform, Routine::Gemm, layout), 0.0);
}

// sampled_step_floors: the step models stop a pricing once its partial sum and the floors of
// the samples still to come pass the limit, so a floor above what its sample adds would stop
// a pricing whose whole sum is within the limit. With the limit at the whole sum, on random
// grids and patterns, speeds, networks and lengths, on the full and the coarse strata, none
// may stop.
TEST(StepFloors, NeverStopAPricingWithinItsLimit) {
  std::mt19937_64 rng(2027);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10), latency(0.0, 1.0e-3);
  std::uniform_int_distribution<std::size_t> short_side(1, 60), long_side(200, 400);
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t processors = 12, tile = 16;
    const std::size_t n = tile * (trial % 3 == 1 ? long_side(rng) : short_side(rng));
    std::vector<double> speeds(processors);
    for (double& s : speeds) s = speed(rng);
    Platform platform = planner_platform(speeds, bandwidth(rng), trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    platform.network.latency_s = latency(rng);
    if (trial % 4 == 3) platform.network.node_of = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    const TileOwnership layout = random_layout(rng, processors, n, tile, trial);
    SCOPED_TRACE("trial " + std::to_string(trial) + ", n = " + std::to_string(n));
    for (std::size_t samples : {kSampledSteps, kCoarseSampledSteps}) {
      const StepSamplingScope strata(samples);
      for (Routine routine : {Routine::LU, Routine::QR})
        for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
          const double whole = model_total(platform, routine, layout, rank);
          const PricingLimitScope limit(whole);
          EXPECT_EQ(model_total(platform, routine, layout, rank), whole) << routine_name(routine);
          EXPECT_FALSE(limit.stopped()) << routine_name(routine) << " on " << samples << " strata";
        }
    }
  }
}

// A wide grid on a slow switched network: each step waits for the next panel's delivery to
// the row's other ranks, which the update bound alone does not see; the floors count it.
TEST(StepFloors, CountTheNextPanelsDelivery) {
  const Platform platform = planner_platform(std::vector<double>(12, 1.0e10), 1.0e7);
  std::vector<std::size_t> processor_at(12);
  for (std::size_t x = 0; x < 12; ++x) processor_at[x] = x;
  const TileOwnership layout = cartesian_ownership(16 * 300, 16, 1, 12, processor_at, {1.0}, std::vector<double>(12, 1.0));
  for (Routine routine : {Routine::LU, Routine::QR}) {
    const std::vector<SampledStep> samples = sampled_steps(300, kSampledSteps);
    const std::vector<double> floors = sampled_step_floors(platform, routine, layout, samples);
    double floor_sum = 0.0;
    for (std::size_t s = 0; s < samples.size(); ++s) floor_sum += samples[s].weight * floors[s];
    const double model = model_total(platform, routine, layout, PanelRank::DiagonalOwner);
    EXPECT_LE(floor_sum, model) << routine_name(routine);
    EXPECT_GT(floor_sum, 0.8 * model) << routine_name(routine);
    EXPECT_GT(floor_sum, 2.0 * sampled_update_lower_bound(platform, routine, layout)) << routine_name(routine);
  }
}

}  // namespace
}  // namespace hetscal::core

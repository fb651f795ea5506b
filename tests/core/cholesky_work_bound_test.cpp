// cholesky_update_lower_bound (cholesky_work_bound.hpp): never above the Cholesky step model
// on grids and patterns of random shapes and speeds, equal to its compute where the slowest
// owner is the busiest, and far above the balanced compute bound on 2D block-cyclic over ranks
// of different speeds (what lets the search skip those). cholesky_message_lower_bound: never
// above the step model either, and the larger of the two where messages dominate.
#include "core/time_models/cholesky_work_bound.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/planners/candidate_search.hpp"
#include "core/time_models/cholesky_steps.hpp"
#include "core/time_models/time_model_steps.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

TEST(CholeskyUpdateBound, NeverAboveTheStepModel) {
  std::mt19937_64 rng(41);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10);
  for (int trial = 0; trial < 60; ++trial) {
    // Up to 2·kSampledSteps tiles a side: every step walked, no sampling error.
    const std::size_t processors = 16, tile = 16, n = 16 * (1 + static_cast<std::size_t>(trial) % 40);
    std::vector<double> speeds(processors);
    for (double& s : speeds) s = speed(rng);
    const Platform platform = planner_platform(speeds, bandwidth(rng),
                                               trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    const TileOwnership layout = random_layout(rng, processors, n, tile, trial);
    SCOPED_TRACE("trial " + std::to_string(trial));
    const TimeBreakdown model = simulate_cholesky(platform, layout);
    const double bound = cholesky_update_lower_bound(platform, layout);
    EXPECT_LE(bound, model.compute * (1.0 + 1e-12));  // the busiest owner's updates
    EXPECT_LE(bound, model.total() * (1.0 + 1e-12));
    EXPECT_LE(cholesky_message_lower_bound(platform, layout), model.total() * (1.0 + 1e-12));
    EXPECT_LE(cholesky_panel_chain_lower_bound(platform, layout), model.total());
  }
}

// The chain of colrow phases on grids of random shapes, shares, speeds and networks, from a few
// steps to several times 2·kSampledSteps (where the model samples its steps, and the bound
// follows the same samples): never above the model, whose step-by-step total it bounds.
TEST(CholeskyPanelChainBound, NeverAboveTheStepModelOnRandomGrids) {
  std::mt19937_64 rng(3232);
  std::uniform_int_distribution<std::size_t> side(1, 9), tiles(2, 700);
  std::uniform_real_distribution<double> speed(1.0e8, 4.0e9), bandwidth(1.0e6, 1.0e10);
  double closest = 0.0;
  for (int trial = 0; trial < 80; ++trial) {
    const std::size_t rows = side(rng), cols = trial % 5 == 0 ? 1 : side(rng), processors = rows * cols + 2;
    std::vector<double> speeds(processors);
    for (double& s : speeds) s = speed(rng);
    const Platform platform =
        planner_platform(speeds, bandwidth(rng), trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    const std::size_t tile = 8;
    const TileOwnership layout = random_grid(rng, rows, cols, 1, tile * tiles(rng), tile, trial % 3 == 0);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(rows) + "x" + std::to_string(cols) + ", " +
                 std::to_string(layout.tiles()) + " tiles");
    const double model = simulate_cholesky(platform, layout).total();
    const double bound = cholesky_panel_chain_lower_bound(platform, layout);
    EXPECT_LE(bound, model);
    closest = std::max(closest, bound / model);
  }
  EXPECT_GT(closest, 0.5);  // and not trivially so
}

// Step k's colrow phase as the step model prices it (cholesky_steps.hpp), from the listed walk.
double colrow_phase(const Network& network, const CholeskyStepLoad& load, double tile_bytes, std::size_t processors) {
  BroadcastPhase phase(network);
  std::vector<double> received(processors, 0.0);
  for (std::size_t b = 1; b < load.broadcasts.size(); ++b) {
    phase.broadcast(load.broadcasts[b].sender, load.broadcasts[b].count + 1, tile_bytes);
    for (std::size_t x : load.receivers_of(b)) received[x] += 1.0;
  }
  for (std::size_t x = 0; x < processors; ++x)
    if (received[x] > 0.0) phase.receive(x, tile_bytes, received[x]);
  return phase.time();
}

// Each term of the chain against the phase it bounds, step by step on random grids and both
// networks: never above it, and equal to it on some steps of most grids (the busiest sender
// or receiver is one of those counted), so a term that counts a tile or a tree round too many
// fails here.
TEST(CholeskyPanelChainBound, EachStepsTermIsWithinItsColrowPhase) {
  std::mt19937_64 rng(32032);
  std::uniform_int_distribution<std::size_t> side(1, 6), tiles(2, 90);
  int exact = 0, trials = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t rows = side(rng), cols = side(rng), processors = rows * cols + 1;
    const Platform platform = planner_platform(std::vector<double>(processors, 1.0e9), 1.0e7,
                                               trial % 2 ? NetworkKind::Switched : NetworkKind::SharedBus);
    const std::size_t tile = 8;
    const TileOwnership layout = random_grid(rng, rows, cols, 1, tile * tiles(rng), tile, trial % 3 == 0);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(rows) + "x" + std::to_string(cols));
    std::vector<std::size_t> steps(layout.tiles() - 1);
    std::iota(steps.begin(), steps.end(), std::size_t{0});
    const std::vector<double> bounds = cholesky_colrow_phase_lower_bounds(platform.network, layout, steps);
    ASSERT_EQ(bounds.size(), steps.size());
    CholeskySteps walk(layout, processors);
    bool some_exact = false;
    for (std::size_t k : steps) {
      const double phase = colrow_phase(platform.network, walk.step(k), 8.0 * tile * tile, processors);
      EXPECT_LE(bounds[k], phase * (1.0 + 1e-12)) << "step " << k;
      some_exact = some_exact || bounds[k] >= phase * (1.0 - 1e-12);
    }
    exact += some_exact ? 1 : 0;
    ++trials;
  }
  EXPECT_GT(exact, trials / 2);
}

// One rank sends, or one receives, most colrows: a 1×16 grid's panel owner broadcasts every
// colrow to up to 16 ranks, a 16×1 grid's last rank receives nearly every colrow. On a slow
// network the chain is most of the model there (the sender's trees: far above the message
// bound, an average over the ranks); on a pattern that repeats its owners it is not counted.
TEST(CholeskyPanelChainBound, NearTheModelWhereOneRankCarriesTheColrows) {
  const Platform platform = planner_platform(std::vector<double>(16, 1.0e10), 1.0e7);
  const TileOwnership wide = block_cyclic_ownership(4096, 32, 1, 16, {}), tall = block_cyclic_ownership(4096, 32, 16, 1, {});
  for (const TileOwnership* layout : {&wide, &tall}) {
    const double model = simulate_cholesky(platform, *layout).total();
    const double bound = cholesky_panel_chain_lower_bound(platform, *layout);
    EXPECT_LE(bound, model);
    EXPECT_GT(bound, 0.7 * model);
    EXPECT_GT(bound, cholesky_message_lower_bound(platform, *layout));
  }
  EXPECT_GT(cholesky_panel_chain_lower_bound(platform, wide), 4.0 * cholesky_message_lower_bound(platform, wide));
  const TileOwnership repeated = pattern_ownership(1024, 32, 4, 4, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3});
  EXPECT_EQ(cholesky_panel_chain_lower_bound(platform, repeated), 0.0);
}

// On a shared bus every rank's broadcasts add up: a 16×1 grid's sixteen senders together, not
// the busiest alone (a sixteenth of them), make the chain most of the model there, as a
// 16384×1 grid's on a slow bus (a thousand times the best plan, which the busiest sender's
// chain could not prune).
TEST(CholeskyPanelChainBound, NearTheModelOnASharedBusWhereEveryRankSends) {
  const Platform bus = planner_platform(std::vector<double>(16, 1.0e10), 1.0e7, NetworkKind::SharedBus);
  const TileOwnership tall = block_cyclic_ownership(4096, 32, 16, 1, {});
  const double model = simulate_cholesky(bus, tall).total();
  const double bound = cholesky_panel_chain_lower_bound(bus, tall);
  EXPECT_LE(bound, model);
  EXPECT_GT(bound, 0.7 * model);
}

// With a limit, the chain stops summing once it exceeds it: the search's decision (prune when
// the bound exceeds its limit) is the same as on the whole chain, and below the limit the
// value is the whole chain's.
TEST(CholeskyPanelChainBound, StopsOnceAboveTheLimitWithTheSameDecision) {
  const Platform platform = planner_platform(std::vector<double>(16, 1.0e10), 1.0e7);
  std::size_t stopped = 0;
  for (const TileOwnership& layout :
       {block_cyclic_ownership(4096, 32, 1, 16, {}), block_cyclic_ownership(4096, 32, 16, 1, {}),
        block_cyclic_ownership(8192, 32, 4, 4, {}), block_cyclic_ownership(2048, 16, 2, 8, {})}) {
    const double whole = cholesky_panel_chain_lower_bound(platform, layout);
    ASSERT_GT(whole, 0.0);
    for (double fraction : {0.01, 0.3, 0.7, 0.999, 1.0, 1.5}) {
      const double limit = fraction * whole;
      const double bound = cholesky_panel_chain_lower_bound(platform, layout, limit);
      EXPECT_EQ(bound > limit, whole > limit) << fraction;
      EXPECT_LE(bound, whole) << fraction;
      if (!(whole > limit)) {
        EXPECT_EQ(bound, whole) << fraction;
      }
      stopped += bound < whole;
    }
  }
  EXPECT_GT(stopped, 8u);  // it did stop early
}

// Grids of distinct processors and patterns that repeat them, on a slow network where the
// colrows' tiles cost more than the updates: the message bound is above the update bound, and
// within the model.
TEST(CholeskyMessageBound, AboveTheUpdateBoundWhereMessagesDominate) {
  const Platform platform = planner_platform(std::vector<double>(16, 1.0e10), 1.0e7);
  const TileOwnership grid = block_cyclic_ownership(1024, 32, 4, 4, {});
  const TileOwnership wide = block_cyclic_ownership(1024, 32, 1, 16, {});
  const TileOwnership repeated = pattern_ownership(1024, 32, 4, 4, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 1, 2, 3});
  for (const TileOwnership* layout : {&grid, &wide, &repeated}) {
    const double bound = cholesky_message_lower_bound(platform, *layout);
    EXPECT_GT(bound, 2.0 * cholesky_update_lower_bound(platform, *layout));
    EXPECT_LE(bound, simulate_cholesky(platform, *layout).total());
  }
  // On a longer matrix (fewer steps near the end, where colrows are not full yet), the wide
  // grid sends every colrow tile to 15 ranks, the square one to 6.
  const double wide_long = cholesky_message_lower_bound(platform, block_cyclic_ownership(8192, 32, 1, 16, {}));
  const double square_long = cholesky_message_lower_bound(platform, block_cyclic_ownership(8192, 32, 4, 4, {}));
  EXPECT_GT(wide_long, 2.0 * square_long);
}

// One rank: its updates are all the model's compute.
TEST(CholeskyUpdateBound, IsTheComputeOfASingleRank) {
  const Platform platform = planner_platform({2.0e9});
  const TileOwnership layout = block_cyclic_ownership(1024, 64, 1, 1, {});
  EXPECT_NEAR(cholesky_update_lower_bound(platform, layout), simulate_cholesky(platform, layout).compute,
              1e-12 * simulate_cholesky(platform, layout).compute);
}

// 2DBC over ranks of speeds 1, 2 and 4: every rank holds as much, so the slowest one's
// updates take about (1 + 2 + 4)/3 times the balanced bound.
TEST(CholeskyUpdateBound, SeesTheSlowestRankOfAnEvenSplit) {
  const Platform platform = planner_platform({4.0e9, 2.0e9, 1.0e9, 4.0e9, 2.0e9, 1.0e9});
  Problem problem;
  problem.routine = Routine::Cholesky;
  problem.n = 4096;
  const TileOwnership layout = block_cyclic_ownership(4096, 64, 2, 3, {});
  const double balanced = compute_lower_bound(platform, problem, 64, 14.0e9);
  EXPECT_GT(cholesky_update_lower_bound(platform, layout), 2.0 * balanced);
  EXPECT_LE(cholesky_update_lower_bound(platform, layout), simulate_cholesky(platform, layout).total());
}

// A 16×1 grid over 8 tile rows: ranks 8 … 15, the slow ones, own no tile. The bound counts the
// ranks that update, near the model's busiest (not 0, the updates of an idle slow rank).
TEST(CholeskyUpdateBound, CountsOnlyTheRanksWithTiles) {
  std::vector<double> speeds(16, 4.0e9);
  std::fill(speeds.begin() + 8, speeds.end(), 1.0e9);
  const Platform platform = planner_platform(speeds);
  const TileOwnership layout = block_cyclic_ownership(8 * 64, 64, 16, 1, {});
  const double compute = simulate_cholesky(platform, layout).compute;
  EXPECT_LE(cholesky_update_lower_bound(platform, layout), compute * (1.0 + 1e-12));
  EXPECT_GT(cholesky_update_lower_bound(platform, layout), 0.3 * compute);  // 8 tile rows: the last one has most
}

}  // namespace
}  // namespace hetscal::core

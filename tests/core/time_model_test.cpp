#include "core/time_models/time_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "core/common/error.hpp"
#include "core/time_models/time_model_steps.hpp"
#include "time_model_test_support.hpp"

namespace hetscal::core {
namespace {

Platform uniform_platform(std::size_t count, double flops, NetworkKind kind,
                          double memory = 1e12) {
  Platform p;
  p.processors.assign(count, Processor{flops, memory});
  p.network = {1e-5, 1e9, kind, {}};
  p.kernel.half_tile = 16.0;
  return p;
}

/// Compute and panel time by enumerating every tile of every step (independent of the
/// suffix counting in simulate_steps).
TimeBreakdown enumerate_steps(const Platform& platform, Routine routine, const TileOwnership& t) {
  const double nb = static_cast<double>(t.tile);
  const RoutineCosts c = routine_costs(routine, nb);
  const double eff = platform.kernel.efficiency(nb);
  const std::size_t tiles = t.tiles();
  const auto owner = [&](std::size_t i, std::size_t j) { return t.at(t.row_class[i], t.col_class[j]); };
  const auto slowest = [&](const std::vector<double>& work, double flops) {
    double worst = 0.0;
    for (std::size_t x = 0; x < work.size(); ++x)
      worst = std::max(worst, work[x] * flops / (platform.processors[x].speed_flops * eff));
    return worst;
  };
  TimeBreakdown out;
  for (std::size_t k = 0; k < tiles; ++k) {
    std::vector<double> update(platform.size(), 0.0), panel(platform.size(), 0.0),
        row_block(platform.size(), 0.0);
    const std::size_t first = c.factorisation ? k + 1 : 0;
    for (std::size_t i = first; i < tiles; ++i)
      for (std::size_t j = first; j < tiles; ++j) update[owner(i, j)] += 1.0;
    out.compute += slowest(update, c.update_flops_per_tile);
    if (!c.factorisation) continue;
    for (std::size_t i = k; i < tiles; ++i) panel[owner(i, k)] += 1.0;
    for (std::size_t j = k + 1; j < tiles; ++j) row_block[owner(k, j)] += 1.0;
    out.panel += slowest(panel, c.panel_flops_per_tile) + slowest(row_block, c.row_block_flops_per_tile);
  }
  return out;
}

TEST(TimeModelSteps, ComputeAndPanelMatchTileEnumeration) {
  std::mt19937 rng(5);
  Platform platform = uniform_platform(5, 1e9, NetworkKind::Switched);
  for (std::size_t x = 0; x < platform.size(); ++x) platform.processors[x].speed_flops *= 1.0 + static_cast<double>(x);
  platform.network.latency_s = 0.0;  // free messages: no pivot collectives in the panel term
  platform.network.bandwidth_bytes_per_s = 1e300;
  for (int trial = 0; trial < 20; ++trial) {
    const std::size_t n = 50 + rng() % 300, tile = 8 + rng() % 40;
    std::vector<std::size_t> owner(6);
    for (auto& o : owner) o = rng() % platform.size();
    const auto layout = trial % 2 ? cartesian_ownership(n, tile, 2, 3, owner, {1.0, 2.5}, {1, 3, 0.5})
                                  : pattern_ownership(n, tile, 3, 2, owner);
    for (Routine routine : {Routine::Gemm, Routine::LU}) {
      const auto model = simulate_steps(platform, routine, layout);
      const auto direct = enumerate_steps(platform, routine, layout);
      EXPECT_NEAR(model.compute, direct.compute, 1e-9 * direct.compute) << trial;
      EXPECT_NEAR(model.panel, direct.panel, 1e-9 * direct.panel) << trial;
      if (routine == Routine::Gemm) {
        EXPECT_EQ(model.panel, 0.0);
      }
    }
  }
}

TEST(TimeModelSteps, OneProcessorLuComputesTwoThirdsNCubed) {
  const Platform platform = uniform_platform(1, 1e9, NetworkKind::SharedBus);
  const std::size_t tile = 32, tiles = 40;
  const auto t = simulate_steps(platform, Routine::LU,
                                block_cyclic_ownership(tile * tiles, tile, 1, 1, {}));
  // Σ_k 2 nb³ (K−k−1)² = 2 nb³ (K−1)K(2K−1)/6
  const double k = static_cast<double>(tiles), nb = static_cast<double>(tile);
  const double flops = 2.0 * nb * nb * nb * (k - 1) * k * (2 * k - 1) / 6.0;
  EXPECT_NEAR(t.compute, flops / (1e9 * platform.kernel.efficiency(nb)), 1e-9);
  EXPECT_EQ(t.communication, 0.0);  // nothing to send on one processor
}

TEST(TimeModelSteps, BroadcastsOnBusAndSwitch) {
  Network bus{1e-4, 1e7, NetworkKind::SharedBus, {}};
  Network sw{1e-4, 1e7, NetworkKind::Switched, {}};
  EXPECT_EQ(broadcast_time(bus, 1, 1e6), 0.0);
  EXPECT_DOUBLE_EQ(broadcast_time(bus, 5, 1e6), 4 * (1e-4 + 0.1));
  EXPECT_DOUBLE_EQ(broadcast_time(sw, 5, 1e6), 3 * (1e-4 + 0.1));
  EXPECT_DOUBLE_EQ(broadcast_time(sw, 4, 1e6), 2 * (1e-4 + 0.1));
}

TEST(TimeModelSteps, GemmCommunicationByHand) {
  // 2×2 grid, N = 2 nb: two steps; each step every grid row broadcasts one tile to its
  // partner and every grid column one tile. Bus: 4 messages per step. Switch: rows run in
  // parallel (different senders), then columns: 2 message times per step.
  const std::size_t nb = 100;
  const double msg = 1e-4 + 8.0 * nb * nb / 1e7;
  for (NetworkKind kind : {NetworkKind::SharedBus, NetworkKind::Switched}) {
    Platform platform = uniform_platform(4, 1e9, kind);
    platform.network = {1e-4, 1e7, kind, {}};
    const auto t = simulate_steps(platform, Routine::Gemm, block_cyclic_ownership(2 * nb, nb, 2, 2, {}));
    EXPECT_NEAR(t.communication, (kind == NetworkKind::SharedBus ? 8.0 : 4.0) * msg, 1e-12);
  }
}

// Issue 32: a node's processors share one link into the switch.
TEST(SharedLinks, ALinkCarriesItsProcessorsMessagesOneAfterAnother) {
  Network own{1e-6, 1e9, NetworkKind::Switched, {}};
  EXPECT_DOUBLE_EQ(own.busiest({1.0, 2.0, 0.5, 0.5}), 2.0);
  Network shared = own;
  shared.node_of = {0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(shared.busiest({1.0, 2.0, 0.5, 0.5}), 3.0);
  EXPECT_DOUBLE_EQ(shared.busiest({0.0, 2.0, 0.0, 0.0}), 2.0) << "a processor alone has the whole link";
}

TEST(SharedLinks, GemmBroadcastsOfOneNodesRanksQueueOnItsLink) {
  // 2×2 grid on a switch: per step the grid rows' broadcasts run in parallel, then the
  // columns'. With all four ranks on one node, the two senders of a phase share its link.
  const std::size_t nb = 100;
  const double msg = 1e-4 + 8.0 * nb * nb / 1e7;
  Platform platform = uniform_platform(4, 1e9, NetworkKind::Switched);
  platform.network = {1e-4, 1e7, NetworkKind::Switched, {}};
  const auto layout = block_cyclic_ownership(2 * nb, nb, 2, 2, {});
  EXPECT_NEAR(simulate_steps(platform, Routine::Gemm, layout).communication, 4.0 * msg, 1e-12);
  platform.network.node_of = {0, 0, 0, 0};
  EXPECT_NEAR(simulate_steps(platform, Routine::Gemm, layout).communication, 8.0 * msg, 1e-12);
  platform.network.node_of = {0, 1, 2, 3};
  EXPECT_NEAR(simulate_steps(platform, Routine::Gemm, layout).communication, 4.0 * msg, 1e-12)
      << "a node per processor is a link per processor";
}

TEST(SharedLinks, RedistributionThroughTheBusiestLink) {
  Network network{0.0, 8.0, NetworkKind::Switched, {}};  // one element a second
  const std::vector<double> from{4, 4, 0, 0}, to{0, 0, 4, 4}, kept{0, 0, 0, 0};
  EXPECT_DOUBLE_EQ(redistribution_time(network, from, to, kept), 4.0);
  network.node_of = {0, 0, 1, 1};
  EXPECT_DOUBLE_EQ(redistribution_time(network, from, to, kept), 8.0);
}

TEST(SharedLinks, ThePlatformChecksItsNodes) {
  Platform platform = uniform_platform(2, 1e9, NetworkKind::Switched);
  platform.network.node_of = {0};
  EXPECT_THROW(require_valid(platform), InvalidArgument);
  platform.network.node_of = {0, 7};
  EXPECT_THROW(require_valid(platform), InvalidArgument);
  platform.network.node_of = {1, 1};
  EXPECT_NO_THROW(require_valid(platform));
}

TEST(TimeModelSteps, ReplicatedGridPatternCostsWhatTheGridCosts) {
  // A 12×16 pattern tiled from a 4×4 grid owns every tile exactly as the grid does; with
  // free latency the same bytes move, with latency the pattern sends more, smaller messages
  // (Cholesky sends one message per panel tile on any layout: the same messages).
  std::vector<std::size_t> owner;
  for (std::size_t i = 0; i < 12; ++i)
    for (std::size_t j = 0; j < 16; ++j) owner.push_back(4 * (i % 4) + j % 4);
  const Candidate pattern = pattern_candidate(128, 12, 16, owner);
  std::vector<std::size_t> ids(16);
  for (std::size_t k = 0; k < 16; ++k) ids[k] = k;
  const Candidate cartesian = grid(4, 4, 128, ids);
  for (double latency : {0.0, 1e-4}) {
    Platform platform = uniform_platform(16, 1e9, NetworkKind::Switched);
    platform.network.latency_s = latency;
    for (Routine routine : {Routine::Gemm, Routine::LU, Routine::QR, Routine::Cholesky}) {
      for (std::size_t n : {1000u, 4096u}) {
        const auto a = simulate_steps(platform, routine, ownership_of(pattern, n));
        const auto b = simulate_steps(platform, routine, ownership_of(cartesian, n));
        EXPECT_NEAR(a.compute, b.compute, 1e-12 * b.compute);
        EXPECT_NEAR(a.panel, b.panel, 1e-12 * b.panel + 1e-15);
        if (latency == 0.0 || routine == Routine::Cholesky) {
          EXPECT_NEAR(a.communication, b.communication, 1e-12 * b.communication)
              << routine_name(routine) << " N " << n;
        } else {
          EXPECT_GT(a.communication, b.communication) << routine_name(routine) << " N " << n;
        }
      }
    }
  }
}

TEST(TimeModelSteps, PatternTilesArePricedAtThePerTileRate) {
  // The same ownership as a pattern and as a grid: the grid's local arrays are updated in
  // large calls and keep the peak rate, the pattern's tiles run at per_tile_calls of it.
  const Candidate pattern = pattern_candidate(128, 2, 2, {0, 1, 2, 3});
  const Candidate cartesian = grid(2, 2, 128, {0, 1, 2, 3});
  Platform plain = uniform_platform(4, 1e9, NetworkKind::Switched);
  plain.network.latency_s = 0.0;
  Platform slower_tiles = plain;
  slower_tiles.kernel.per_tile_calls = 0.8;
  EXPECT_TRUE(ownership_of(cartesian, 1000).grouped_updates);
  EXPECT_FALSE(ownership_of(pattern, 1000).grouped_updates);
  for (Routine routine : {Routine::Gemm, Routine::LU, Routine::QR, Routine::Cholesky}) {
    const auto grid_before = simulate_steps(plain, routine, ownership_of(cartesian, 2048));
    const auto grid_after = simulate_steps(slower_tiles, routine, ownership_of(cartesian, 2048));
    const auto tiles = simulate_steps(slower_tiles, routine, ownership_of(pattern, 2048));
    EXPECT_DOUBLE_EQ(grid_after.total(), grid_before.total()) << routine_name(routine);
    if (routine == Routine::Cholesky) {  // a critical path: slower tiles, a longer path
      EXPECT_GT(tiles.total(), grid_before.total() * 1.2) << routine_name(routine);
    } else {
      EXPECT_NEAR(tiles.compute, grid_before.compute / 0.8, 1e-12 * tiles.compute)
          << routine_name(routine);
    }
  }
}

TEST(TimeModelSteps, PerTileRateOutsideZeroToOneIsRefused) {
  Platform platform = uniform_platform(2, 1e9, NetworkKind::Switched);
  for (double bad : {0.0, -0.5, 1.5, std::nan("")}) {
    platform.kernel.per_tile_calls = bad;
    EXPECT_THROW(require_valid(platform), InvalidArgument) << bad;
  }
  platform.kernel.per_tile_calls = 1.0;
  EXPECT_NO_THROW(require_valid(platform));
}

TEST(TimeModel, RedistributionIsFreeOnlyForTheSameLayout) {
  const Platform platform = uniform_platform(4, 1e9, NetworkKind::Switched);
  const Problem problem{Routine::LU, 1000, CallerLayout{2, 2, 64, {}}};
  const auto in_place = predict(platform, problem, caller_layout_candidate(problem));
  EXPECT_EQ(in_place.time.redistribution, 0.0);
  EXPECT_EQ(in_place.moved_bytes, 0.0);
  // The same grid as a planned copy moves nothing either (every element keeps its owner)...
  const auto same = predict(platform, problem, grid(2, 2, 64, {0, 1, 2, 3}));
  EXPECT_EQ(same.time.redistribution, 0.0);
  // ...but it costs memory for the copy.
  EXPECT_GT(same.memory_fraction, in_place.memory_fraction);
  // A transposed grid moves the off-diagonal half of the matrix, in and out.
  const auto moved = predict(platform, problem, grid(2, 2, 64, {0, 2, 1, 3}));
  EXPECT_NEAR(moved.moved_bytes, 2.0 * 8.0 * 1000.0 * 1000.0 / 2.0, 8.0 * 2 * 64 * 1000);
  EXPECT_GT(moved.time.redistribution, 0.0);
}

TEST(TimeModel, CholeskyMovesOneTriangleEachWay) {
  // Only the UPLO triangle travels, in and back: half of LU's volume between the same layouts.
  const Platform platform = uniform_platform(4, 1e9, NetworkKind::Switched);
  const Problem lu{Routine::LU, 1000, CallerLayout{2, 2, 64, {}}};
  const Problem cholesky{Routine::Cholesky, 1000, CallerLayout{2, 2, 64, {}}};
  const auto transposed = grid(2, 2, 64, {0, 2, 1, 3});
  const auto lu_moves = predict(platform, lu, transposed);
  const auto cholesky_moves = predict(platform, cholesky, transposed);
  EXPECT_DOUBLE_EQ(cholesky_moves.moved_bytes, 0.5 * lu_moves.moved_bytes);
  EXPECT_NEAR(cholesky_moves.time.redistribution, 0.5 * lu_moves.time.redistribution,
              1e-9 * lu_moves.time.redistribution);
}

TEST(TimeModel, RefusesBadInput) {
  const Platform platform = uniform_platform(2, 1e9, NetworkKind::Switched);
  const Problem problem{Routine::Gemm, 100, CallerLayout{1, 2, 16, {}}};
  EXPECT_THROW(predict(platform, problem, grid(1, 2, 16, {0, 5})), InvalidArgument);
  EXPECT_THROW(predict(platform, problem, grid(1, 2, 0, {0, 1})), InvalidArgument);
  EXPECT_THROW(predict(platform, problem, grid(1, 2, 16, {0, 1}, {1.0}, {1.0, -1.0})), InvalidArgument);
  EXPECT_THROW(predict(platform, Problem{Routine::LU, 0, problem.caller}, grid(1, 1, 8, {0})),
               InvalidArgument);
  EXPECT_THROW(predict(platform, Problem{Routine::LU, 10, CallerLayout{2, 2, 8, {}}}, grid(1, 1, 8, {0})),
               InvalidArgument);
  Platform bad = platform;
  bad.processors[1].speed_flops = 0.0;
  EXPECT_THROW(predict(bad, problem, grid(1, 1, 8, {0})), InvalidArgument);
  EXPECT_THROW(choose(std::vector<Prediction>{}), Error);
}

}  // namespace
}  // namespace hetscal::core

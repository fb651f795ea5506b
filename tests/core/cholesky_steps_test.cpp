#include "core/cholesky_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "core/error.hpp"
#include "core/model_candidates.hpp"
#include "core/pattern_2dbc.hpp"
#include "core/pattern_cost.hpp"
#include "core/pattern_gcrm.hpp"
#include "core/time_model.hpp"

namespace hetscal::core {
namespace {

std::size_t owner(const TileOwnership& t, std::size_t i, std::size_t j) {
  return t.at(t.row_class[i], t.col_class[j]);
}

/// The oracle: the tile loop itself. At step k, POTRF(k,k); TRSM(i,k) reads L(k,k); the
/// update of (i,j), k < j <= i, reads L(i,k) and L(j,k). A tile is sent once to each node
/// other than its owner that reads it.
struct BruteStep {
  std::vector<double> trsm, syrk, gemm;
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> sent;  ///< (source tile row, receivers)
};

BruteStep brute_force_step(const TileOwnership& t, std::size_t processors, std::size_t k) {
  const std::size_t K = t.tiles();
  BruteStep s{std::vector<double>(processors), std::vector<double>(processors),
              std::vector<double>(processors), {}};
  std::vector<std::set<std::size_t>> readers(K);  // readers[i]: nodes reading L(i,k)
  for (std::size_t i = k + 1; i < K; ++i) {
    s.trsm[owner(t, i, k)] += 1;
    readers[k].insert(owner(t, i, k));
    for (std::size_t j = k + 1; j <= i; ++j) {
      const std::size_t x = owner(t, i, j);
      (i == j ? s.syrk : s.gemm)[x] += 1;
      readers[i].insert(x);
      readers[j].insert(x);
    }
  }
  for (std::size_t i = k; i < K; ++i) {
    readers[i].erase(owner(t, i, k));
    s.sent.emplace_back(i, std::vector<std::size_t>(readers[i].begin(), readers[i].end()));
  }
  return s;
}

void expect_matches_brute_force(const TileOwnership& t, std::size_t processors) {
  CholeskySteps steps(t, processors);
  ASSERT_EQ(steps.steps(), t.tiles());
  for (std::size_t k = 0; k < steps.steps(); ++k) {
    const CholeskyStepLoad load = steps.step(k);
    const BruteStep brute = brute_force_step(t, processors, k);
    EXPECT_EQ(load.trsm_tiles, brute.trsm) << "step " << k;
    EXPECT_EQ(load.syrk_tiles, brute.syrk) << "step " << k;
    EXPECT_EQ(load.gemm_tiles, brute.gemm) << "step " << k;
    EXPECT_EQ(load.diagonal_owner, owner(t, k, k));
    ASSERT_EQ(load.broadcasts.size(), brute.sent.size()) << "step " << k;
    for (std::size_t b = 0; b < brute.sent.size(); ++b) {
      EXPECT_EQ(load.broadcasts[b].sender, owner(t, brute.sent[b].first, k));
      auto receivers = load.receivers_of(b);
      std::sort(receivers.begin(), receivers.end());
      EXPECT_EQ(receivers, brute.sent[b].second)
          << "step " << k << ", tile row " << brute.sent[b].first;
    }
  }
}

TEST(CholeskySteps, MatchTheTileLoopOnPatternsAndGrids) {
  // 2DBC 3x2, a GCR&M pattern with its diagonal resolved, a heterogeneous Cartesian grid
  // whose tile sequences are not periodic, and a pattern wider than the matrix.
  expect_matches_brute_force(pattern_ownership(23 * 8, 8, 3, 2, {0, 1, 2, 3, 4, 5}), 6);
  const Candidate gcrm = pattern_candidate("gcrm", 4, gcrm_pattern(7, 6, 3), {0, 1, 2, 3, 4, 5, 6});
  expect_matches_brute_force(ownership_of(gcrm, 4 * 31), 7);
  expect_matches_brute_force(
      cartesian_ownership(100, 5, 2, 3, {0, 1, 2, 3, 4, 5}, {1.0, 2.5}, {3.0, 1.0, 1.7}), 6);
  expect_matches_brute_force(pattern_ownership(5 * 4, 4, 7, 7, std::vector<std::size_t>(49, 2)), 3);
}

// The critical path of a heterogeneous grid, step by step from the tile loop: the slowest
// processor's update, then its POTRF and slowest TRSM; communication on a shared bus is every
// message (one tree of g − 1 messages per tile with g − 1 receivers).
TEST(CholeskySteps, HeterogeneousGridTimeIsTheTileLoopsCriticalPath) {
  Platform platform;
  for (double s : {1.0e9, 3.0e9, 2.0e9, 6.0e9}) platform.processors.push_back({s, 1.0e12});
  platform.network = {1.0e-4, 1.0e8, NetworkKind::SharedBus};
  const std::size_t nb = 8;
  const TileOwnership grid = cartesian_ownership(30 * nb, nb, 2, 2, {0, 1, 2, 3}, {1.0, 2.0}, {1.0, 3.0});
  double compute = 0.0, panel = 0.0, communication = 0.0;
  const double cube = 512.0, message = 1.0e-4 + 64.0 * 8.0 / 1.0e8;  // nb³ flops, nb² doubles
  for (std::size_t k = 0; k < grid.tiles(); ++k) {
    const BruteStep b = brute_force_step(grid, 4, k);
    double update = 0.0, trsm = 0.0;
    for (std::size_t x = 0; x < 4; ++x) {
      const double speed = platform.processors[x].speed_flops;
      update = std::max(update, (b.syrk[x] + 2.0 * b.gemm[x]) * cube / speed);
      trsm = std::max(trsm, b.trsm[x] * cube / speed);
    }
    compute += update;
    panel += cube / 3.0 / platform.processors[owner(grid, k, k)].speed_flops + trsm;
    for (const auto& sent : b.sent) communication += static_cast<double>(sent.second.size()) * message;
  }
  const TimeBreakdown t = simulate_cholesky(platform, grid);
  EXPECT_NEAR(t.compute, compute, 1e-12 * compute);
  EXPECT_NEAR(t.panel, panel, 1e-12 * panel);
  EXPECT_NEAR(t.communication, communication, 1e-12 * communication);

  // Switched: per phase (L(k,k), then the colrow tiles) the busiest sender's binomial trees
  // (⌈log2 g⌉ messages per tile) or the busiest receiver (one message per tile it reads).
  platform.network.kind = NetworkKind::Switched;
  double switched = 0.0;
  for (std::size_t k = 0; k < grid.tiles(); ++k) {
    const BruteStep b = brute_force_step(grid, 4, k);
    const auto phase = [&](std::size_t from, std::size_t to) {
      std::vector<double> sent(4, 0.0), received(4, 0.0);
      for (std::size_t s = from; s < to; ++s) {
        const auto& receivers = b.sent[s].second;
        if (!receivers.empty())
          sent[owner(grid, b.sent[s].first, k)] += std::ceil(std::log2(static_cast<double>(receivers.size()) + 1.0)) * message;
        for (std::size_t x : receivers) received[x] += message;
      }
      return std::max(*std::max_element(sent.begin(), sent.end()), *std::max_element(received.begin(), received.end()));
    };
    switched += phase(0, 1) + phase(1, b.sent.size());
  }
  EXPECT_NEAR(simulate_cholesky(platform, grid).communication, switched, 1e-12 * switched);
}

TEST(CholeskySteps, VolumeTendsToThePapersFormula) {
  // m(m+1)/2 · (T − 1) tiles, T = cholesky_cost: 2DBC 4x3 (T = 6) and a GCR&M pattern.
  const Pattern gcrm = gcrm_pattern(10, 8, 5);
  const Candidate gcrm_candidate = pattern_candidate("gcrm", 1, gcrm, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  for (const auto& [layout, T] :
       {std::make_pair(pattern_ownership(240, 1, 4, 3, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                       cholesky_cost(block_cyclic_pattern(4, 3))),
        std::make_pair(ownership_of(gcrm_candidate, 240), cholesky_cost(gcrm))}) {
    const double m = 240.0;
    const double formula = m * (m + 1.0) / 2.0 * (T - 1.0);
    const double counted = cholesky_volume_tiles(layout, 12);
    // The steps near the end see truncated colrows: a few percent below, never above.
    EXPECT_LE(counted, formula);
    EXPECT_GT(counted, 0.95 * formula) << "T = " << T;
  }
}

TEST(CholeskySteps, OneProcessorTimeIsTheFlopCount) {
  Platform platform;
  platform.processors = {{1.0e9, 1.0e12}};
  platform.network = {1.0e-5, 1.0e9, NetworkKind::Switched};
  const std::size_t K = 20, nb = 10;
  const TimeBreakdown t = simulate_cholesky(platform, pattern_ownership(K * nb, nb, 1, 1, {0}));
  double update_tiles = 0.0;  // Σ_k: (K−k−1) SYRK of nb³ and (K−k−1)(K−k−2)/2 GEMM of 2nb³
  for (std::size_t k = 0; k < K; ++k) update_tiles += static_cast<double>((K - k - 1) + (K - k - 1) * (K - k - 2));
  const double cube = 1000.0;
  EXPECT_NEAR(t.compute, update_tiles * cube / 1.0e9, 1e-15);
  EXPECT_NEAR(t.panel, (K / 3.0 + K * (K - 1) / 2.0) * cube / 1.0e9, 1e-15);
  EXPECT_EQ(t.communication, 0.0);
  // In total n³/3 flops up to lower-order terms.
  EXPECT_NEAR((t.compute + t.panel) * 1.0e9, std::pow(K * nb, 3) / 3.0, 0.1 * std::pow(K * nb, 3) / 3.0);
}

TEST(CholeskySteps, PredictUsesTheTriangleModel) {
  Platform platform;
  platform.processors.assign(4, {1.0e9, 1.0e12});
  platform.network = {1.0e-5, 1.0e8, NetworkKind::Switched};
  Problem problem;
  problem.routine = Routine::Cholesky;
  problem.n = 400;
  problem.caller = {2, 2, 20, {0, 1, 2, 3}};
  const Candidate c = pattern_candidate("2dbc", 20, block_cyclic_pattern(2, 2), {0, 1, 2, 3});
  const Prediction p = predict(platform, problem, c);
  const TimeBreakdown direct = simulate_cholesky(platform, ownership_of(c, 400));
  EXPECT_DOUBLE_EQ(p.time.compute, direct.compute);
  EXPECT_DOUBLE_EQ(p.time.communication, direct.communication);
  EXPECT_EQ(p.time.redistribution, 0.0);  // same layout as the caller's
}

TEST(CholeskySteps, RejectsBadLayoutsAndOrder) {
  TileOwnership rect = cartesian_ownership(MatrixShape{40, 20}, 10, 1, 1, {0}, {1.0}, {1.0});
  EXPECT_THROW(CholeskySteps(rect, 1), InvalidArgument);
  TileOwnership skew = pattern_ownership(40, 10, 1, 1, {0});
  skew.row_offset = 3;
  EXPECT_THROW(CholeskySteps(skew, 1), InvalidArgument);
  const TileOwnership ok = pattern_ownership(40, 10, 1, 2, {0, 1});
  EXPECT_THROW(CholeskySteps(ok, 1), InvalidArgument);  // processor 1 of 1
  CholeskySteps steps(ok, 2);
  EXPECT_THROW(steps.step(1), InvalidArgument);
  steps.step(0);
  EXPECT_THROW(steps.step(0), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

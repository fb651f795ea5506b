// hetscal's LU priced step by step (core/time_models/lu_steps.hpp) against the tile loop itself,
// and ScaLAPACK's PDGETRF on the caller's layout priced as latency-bound per column.
#include "core/time_models/lu_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/common/error.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/qr_steps.hpp"
#include "core/time_models/time_model_steps.hpp"

namespace hetscal::core {
namespace {

std::size_t owner(const TileOwnership& t, std::size_t i, std::size_t j) {
  return t.at(t.row_class[i], t.col_class[j]);
}

/// The oracle: step k of the kernel read off the tiles one by one. [s·P + x]: s sends x.
struct BruteStep {
  std::size_t panel_rank = 0;
  std::vector<double> gathered, factored, swap, trsm, u, gemm;
};

BruteStep brute_force_step(const TileOwnership& t, const std::vector<double>& speeds, PanelRank rank, std::size_t k) {
  const std::size_t P = speeds.size(), rows = t.row_class.size(), cols = t.col_class.size();
  BruteStep s;
  s.panel_rank = owner(t, k, k);
  if (rank == PanelRank::Fastest)
    for (std::size_t i = k; i < rows; ++i) {
      const std::size_t x = owner(t, i, k);
      if (speeds[x] > speeds[s.panel_rank] || (speeds[x] == speeds[s.panel_rank] && x < s.panel_rank)) s.panel_rank = x;
    }
  for (auto* v : {&s.gathered, &s.factored, &s.trsm, &s.gemm}) v->assign(P, 0.0);
  s.swap.assign(P * P, 0.0);
  s.u.assign(P * P, 0.0);
  for (std::size_t i = k; i < rows; ++i) {
    if (owner(t, i, k) != s.panel_rank) s.gathered[owner(t, i, k)] += 1;
    // Tile row i's factored tile goes to its owner and to whoever uses L(i,k): the row
    // block's owners (i = k) or the owners of trailing tiles of row i.
    std::set<std::size_t> readers{owner(t, i, k)};
    for (std::size_t j = k + 1; j < cols; ++j) readers.insert(owner(t, i, j));
    readers.erase(s.panel_rank);
    for (std::size_t x : readers) s.factored[x] += 1;
  }
  for (std::size_t j = k + 1; j < cols; ++j) {
    const std::size_t d = owner(t, k, j);
    s.trsm[d] += 1;
    std::set<std::size_t> readers;
    for (std::size_t i = k; i < rows; ++i) {
      if (owner(t, i, j) != d) s.swap[d * P + owner(t, i, j)] += 1.0 / static_cast<double>(rows - k);
      if (i > k) s.gemm[owner(t, i, j)] += 1, readers.insert(owner(t, i, j));
    }
    readers.erase(d);
    for (std::size_t x : readers) s.u[d * P + x] += 1;
  }
  return s;
}

void expect_near_all(const std::vector<double>& model, const std::vector<double>& brute, const char* what, std::size_t k) {
  ASSERT_EQ(model.size(), brute.size());
  for (std::size_t x = 0; x < model.size(); ++x) EXPECT_NEAR(model[x], brute[x], 1e-12) << what << " [" << x << "], step " << k;
}

/// The pair messages as a dense [from·P + to] table.
std::vector<double> dense(const std::vector<PairMessage>& messages, std::size_t P) {
  std::vector<double> table(P * P, 0.0);
  for (const PairMessage& m : messages) {
    EXPECT_EQ(table[m.from * P + m.to], 0.0) << "pair " << m.from << " -> " << m.to << " listed twice";
    EXPECT_NE(m.from, m.to);
    table[m.from * P + m.to] += m.tiles;
  }
  return table;
}

void expect_matches_brute_force(const TileOwnership& t, const std::vector<double>& speeds, PanelRank rank) {
  const LuSteps steps(t, speeds.size(), rank, speeds);
  ASSERT_EQ(steps.steps(), std::min(t.row_class.size(), t.col_class.size()));
  for (std::size_t k = 0; k < steps.steps(); ++k) {
    const LuStepLoad load = steps.step(k);
    const BruteStep brute = brute_force_step(t, speeds, rank, k);
    EXPECT_EQ(load.panel_rank, brute.panel_rank) << "step " << k;
    EXPECT_EQ(load.panel_tiles, static_cast<double>(t.row_class.size() - k));
    expect_near_all(load.gathered, brute.gathered, "gathered", k);
    expect_near_all(load.factored, brute.factored, "factored", k);
    expect_near_all(dense(load.swaps, speeds.size()), brute.swap, "swap", k);
    expect_near_all(load.trsm_tiles, brute.trsm, "trsm", k);
    expect_near_all(dense(load.u_messages, speeds.size()), brute.u, "u", k);
    expect_near_all(load.gemm_tiles, brute.gemm, "gemm", k);
  }
}

TEST(LuSteps, MatchTheTileLoopOnGridsAndPatterns) {
  const std::vector<double> speeds{1.0, 3.0, 2.0, 3.0, 0.5, 1.0, 2.0};
  for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
    // A heterogeneous grid (non-periodic tile sequences), taller than wide and wider than
    // tall; a G-2DBC pattern on 7; a pattern wider than the matrix.
    expect_matches_brute_force(
        cartesian_ownership(MatrixShape{130, 75}, 5, 2, 3, {0, 1, 2, 3, 4, 5}, {1.0, 2.5}, {3.0, 1.0, 1.7}), speeds, rank);
    expect_matches_brute_force(
        cartesian_ownership(MatrixShape{42, 100}, 5, 3, 2, {5, 4, 3, 2, 1, 0}, {1.0, 2.5, 1.0}, {3.0, 1.7}), speeds, rank);
    const Candidate g2dbc = pattern_candidate("g2dbc", 4, g2dbc_pattern(7), {0, 1, 2, 3, 4, 5, 6});
    expect_matches_brute_force(ownership_of(g2dbc, MatrixShape{4 * 29, 4 * 23}), speeds, rank);
    expect_matches_brute_force(pattern_ownership(MatrixShape{20, 24}, 4, 7, 7, std::vector<std::size_t>(49, 2)), speeds, rank);
  }
}

/// Every step's panel_step(k) against its step(k) (`same_panel` compares their panel fields
/// and checks the rest empty), and panel_step past the last step refused.
template <typename Steps, typename SamePanel>
void expect_panel_steps(const Steps& steps, SamePanel same_panel) {
  for (std::size_t k = 0; k < steps.steps(); ++k) {
    SCOPED_TRACE("step " + std::to_string(k));
    same_panel(steps.step(k), steps.panel_step(k));
  }
  EXPECT_THROW(steps.panel_step(steps.steps()), InvalidArgument);
}

// panel_step(k) is step(k)'s panel alone, for LU and QR: what the lookahead prices of a
// sampled step's next.
TEST(LuSteps, PanelStepIsTheStepsPanel) {
  const std::vector<double> speeds{1.0, 3.0, 2.0, 3.0, 0.5, 1.0, 2.0};
  const TileOwnership layout =
      cartesian_ownership(MatrixShape{130, 75}, 5, 2, 3, {0, 1, 2, 3, 4, 5}, {1.0, 2.5}, {3.0, 1.0, 1.7});
  for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
    expect_panel_steps(LuSteps(layout, speeds.size(), rank, speeds), [](const LuStepLoad& whole, const LuStepLoad& panel) {
      EXPECT_EQ(panel.panel_rank, whole.panel_rank);
      EXPECT_EQ(panel.panel_tiles, whole.panel_tiles);
      EXPECT_EQ(panel.gathered, whole.gathered);
      EXPECT_EQ(panel.factored, whole.factored);
      EXPECT_TRUE(panel.swaps.empty() && panel.u_messages.empty() && panel.gemm_tiles.empty());
    });
    expect_panel_steps(QrSteps(layout, speeds.size(), rank, speeds), [](const QrStepLoad& whole, const QrStepLoad& panel) {
      EXPECT_EQ(panel.panel_rank, whole.panel_rank);
      EXPECT_EQ(panel.panel_tiles, whole.panel_tiles);
      EXPECT_EQ(panel.gathered, whole.gathered);
      EXPECT_EQ(panel.reflectors, whole.reflectors);
      EXPECT_TRUE(panel.w_partials.empty() && panel.update_tiles.empty());
    });
  }
}

// One processor: no message, and every panel on the critical path (the panel rank is the
// only one, so lookahead hides nothing): Σ_k 2nb³(K−k−1)² of update, Σ_k (K−k−1/3)nb³ of
// getrf and (K−k−1)nb³ of TRSM; about 2/3 N³ in all.
TEST(LuSteps, OneProcessorTimeIsTheFlopCount) {
  Platform platform;
  platform.processors = {{1.0e9, 1.0e12}};
  platform.network = {1.0e-5, 1.0e9, NetworkKind::Switched, {}};
  const std::size_t K = 20, nb = 10;
  const TimeBreakdown t = simulate_lu(platform, pattern_ownership(K * nb, nb, 1, 1, {0}), PanelRank::DiagonalOwner);
  double update = 0.0, panel = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    const double rest = static_cast<double>(K - k - 1);
    update += 2.0 * rest * rest;
    panel += static_cast<double>(K - k) - 1.0 / 3.0 + rest;
  }
  const double cube = 1000.0;
  EXPECT_NEAR(t.compute, update * cube / 1.0e9, 1e-15);
  EXPECT_NEAR(t.panel, panel * cube / 1.0e9, 1e-15);
  EXPECT_EQ(t.communication, 0.0);
  EXPECT_NEAR((t.compute + t.panel) * 1.0e9, 2.0 / 3.0 * std::pow(K * nb, 3), 0.1 * std::pow(K * nb, 3));
}

// Two processors, free network, 1×2 block-cyclic columns: the panel of step k+1 lies with
// the owner of tile column k+1, which also solves and updates its share of step k; what it
// adds beyond the slowest TRSM and update is the exposed panel time (lookahead), counted
// from the tile loop.
TEST(LuSteps, LookaheadHidesThePanelBehindTheOtherRanksUpdate) {
  Platform platform;
  platform.processors = {{1.0e9, 1.0e12}, {1.0e9, 1.0e12}};
  platform.network = {0.0, 1.0e300, NetworkKind::Switched, {}};
  const std::size_t K = 12, nb = 8;
  const TileOwnership t = pattern_ownership(K * nb, nb, 1, 2, {0, 1});
  const double cube = 512.0;
  double compute = 0.0, panel = (K - 1.0 / 3.0) * cube / 1.0e9;  // panel 0 in full
  for (std::size_t k = 0; k < K; ++k) {
    const BruteStep step = brute_force_step(t, {1.0, 1.0}, PanelRank::DiagonalOwner, k);
    const double slowest = 2.0 * cube * std::max(step.gemm[0], step.gemm[1]) / 1.0e9;
    const double slowest_trsm = std::max(step.trsm[0], step.trsm[1]) * cube / 1.0e9;
    compute += slowest;
    panel += slowest_trsm;
    if (k + 1 < K) {
      const std::size_t next = owner(t, k + 1, k + 1);
      const double next_panel = (static_cast<double>(K - k - 1) - 1.0 / 3.0) * cube / 1.0e9;
      const double own_part = (2.0 * step.gemm[next] + step.trsm[next]) * cube / 1.0e9;
      panel += std::max(0.0, next_panel + own_part - slowest - slowest_trsm);
    }
  }
  const TimeBreakdown model = simulate_lu(platform, t, PanelRank::DiagonalOwner);
  EXPECT_NEAR(model.compute, compute, 1e-12 * compute);
  EXPECT_NEAR(model.panel, panel, 1e-12 * panel);
  EXPECT_NEAR(model.communication, 0.0, 1e-12);
}

// Shared bus: every message adds up. Communication: each swap both ways and each U message;
// the panel's gather and getrf, then its factored tiles and pivots (two messages to the two
// other ranks), are panel time: all of it at step 0, afterwards what the lookahead does not
// hide behind the step's messages, slowest TRSM and slowest update (the panel rank does its
// own part after its getrf).
TEST(LuSteps, SharedBusCountsEveryMessageOfTheTileLoop) {
  Platform platform;
  platform.processors = {{1.0e9, 1.0e12}, {2.0e9, 1.0e12}, {3.0e9, 1.0e12}};
  platform.network = {1.0e-4, 1.0e8, NetworkKind::SharedBus, {}};
  const std::size_t nb = 8, K = 14;
  const TileOwnership t = cartesian_ownership(MatrixShape{20 * nb, K * nb}, nb, 1, 3, {0, 1, 2}, {1.0}, {1.0, 2.0, 3.0});
  const double tile_bytes = 64.0 * 8.0, cube = 512.0;
  const auto message = [&](double bytes) { return 1.0e-4 + bytes / 1.0e8; };
  for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
    double communication = 0.0, panel = 0.0;
    std::vector<double> gather_getrf(K), delivery(K), messages(K, 0.0), update(3), trsm(3);
    for (std::size_t k = 0; k < K; ++k) {
      const BruteStep s = brute_force_step(t, {1.0, 2.0, 3.0}, rank, k);
      gather_getrf[k] = (20.0 - static_cast<double>(k) - 1.0 / 3.0) * cube / platform.processors[s.panel_rank].speed_flops;
      delivery[k] = 2.0 * message(nb * 8.0);
      for (std::size_t x = 0; x < 3; ++x) {
        if (s.gathered[x] > 0) gather_getrf[k] += message(s.gathered[x] * tile_bytes);
        if (s.factored[x] > 0) delivery[k] += message(s.factored[x] * tile_bytes);
      }
      for (std::size_t p = 0; p < 9; ++p) {
        if (s.swap[p] > 0) messages[k] += 2.0 * message(s.swap[p] * tile_bytes);
        if (s.u[p] > 0) messages[k] += message(s.u[p] * tile_bytes);
      }
      communication += messages[k];
      for (std::size_t x = 0; x < 3; ++x) trsm[x] = s.trsm[x] * cube / platform.processors[x].speed_flops;
      panel += *std::max_element(trsm.begin(), trsm.end());
    }
    panel += gather_getrf[0] + delivery[0];
    for (std::size_t k = 0; k + 1 < K; ++k) {
      const BruteStep s = brute_force_step(t, {1.0, 2.0, 3.0}, rank, k);
      const std::size_t next = brute_force_step(t, {1.0, 2.0, 3.0}, rank, k + 1).panel_rank;
      for (std::size_t x = 0; x < 3; ++x) {
        update[x] = 2.0 * cube * s.gemm[x] / platform.processors[x].speed_flops;
        trsm[x] = s.trsm[x] * cube / platform.processors[x].speed_flops;
      }
      const double window = messages[k] + *std::max_element(trsm.begin(), trsm.end()) +
                            *std::max_element(update.begin(), update.end());
      const double own_part = messages[k] + trsm[next] + update[next];
      panel += std::max({window, gather_getrf[k + 1] + own_part, gather_getrf[k + 1] + delivery[k + 1]}) - window;
    }
    const TimeBreakdown model = simulate_lu(platform, t, rank);
    EXPECT_NEAR(model.communication, communication, 1e-12 * communication);
    EXPECT_NEAR(model.panel, panel, 1e-12 * panel);
  }
}

// ScaLAPACK's PDGETRF on a 2×1 grid pays per column: a pivot search and a pivot row
// broadcast over the process column (one latency each between two ranks) and, for the half
// of the pivots on the other process row, a swap (one exchange): 2.5·nb latencies a step.
// hetscal's kernel on the same layout pays a few messages per step. Flops are made free.
TEST(LuSteps, ScalapacksPanelIsLatencyBoundPerColumnTheKernelsPerStep) {
  Platform platform;
  platform.processors.assign(2, {1.0e18, 1.0e12});
  const double latency = 1.0e-5;
  platform.network = {latency, 1.0e300, NetworkKind::Switched, {}};
  const std::size_t nb = 32, K = 16;
  Problem problem;
  problem.routine = Routine::LU;
  problem.n = K * nb;
  problem.caller = {2, 1, nb, {0, 1}};
  const Prediction scalapack = predict(platform, problem, caller_layout_candidate(problem));
  const Prediction kernel = predict(platform, problem, cartesian_candidate("2DBC 2x1", nb, 2, 1, {0, 1}, {1.0, 1.0}, {1.0}));
  EXPECT_EQ(kernel.time.redistribution, 0.0);
  EXPECT_GE(scalapack.total_s(), 2.5 * static_cast<double>(nb * K) * latency);
  EXPECT_LE(kernel.total_s(), 10.0 * static_cast<double>(K) * latency);
}

TEST(LuSteps, PredictPricesTheKernelAwayFromTheCallersLayout) {
  Platform platform;
  platform.processors = {{1.0e9, 1.0e12}, {3.0e9, 1.0e12}, {2.0e9, 1.0e12}, {1.0e9, 1.0e12}};
  platform.network = {1.0e-5, 1.0e8, NetworkKind::Switched, {}};
  Problem problem;
  problem.routine = Routine::LU;
  problem.m = 700;
  problem.n = 450;
  problem.caller = {2, 2, 50, {0, 1, 2, 3}};
  Candidate c = pattern_candidate("g2dbc", 50, g2dbc_pattern(4 + 1), {0, 1, 2, 3, 0});
  for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
    c.panel_rank = rank;
    const TimeBreakdown direct = simulate_lu(platform, ownership_of(c, MatrixShape{700, 450}), rank);
    const Prediction p = predict(platform, problem, c);
    EXPECT_DOUBLE_EQ(p.time.compute, direct.compute);
    EXPECT_DOUBLE_EQ(p.time.panel, direct.panel);
    EXPECT_DOUBLE_EQ(p.time.communication, direct.communication);
  }
  const Prediction caller = predict(platform, problem, caller_layout_candidate(problem));
  const TimeBreakdown scalapack = simulate_steps(platform, problem, caller_ownership(problem, {700, 450}));
  EXPECT_DOUBLE_EQ(caller.time.communication, scalapack.communication);
  EXPECT_DOUBLE_EQ(caller.time.panel, scalapack.panel);
}

TEST(LuSteps, RejectsBadLayouts) {
  TileOwnership skew = pattern_ownership(40, 10, 1, 1, {0});
  skew.row_offset = 3;
  EXPECT_THROW(LuSteps(skew, 1, PanelRank::DiagonalOwner, {1.0}), InvalidArgument);
  TileOwnership tall_tiles = pattern_ownership(40, 10, 1, 1, {0});
  tall_tiles.row_tile = 20;
  EXPECT_THROW(LuSteps(tall_tiles, 1, PanelRank::DiagonalOwner, {1.0}), InvalidArgument);
  const TileOwnership two = pattern_ownership(40, 10, 1, 2, {0, 1});
  EXPECT_THROW(LuSteps(two, 1, PanelRank::DiagonalOwner, {1.0}), InvalidArgument);  // processor 1 of 1
  EXPECT_THROW(LuSteps(two, 2, PanelRank::Fastest, {1.0}), InvalidArgument);        // one speed for two
  const LuSteps steps(two, 2, PanelRank::DiagonalOwner, {1.0, 1.0});
  EXPECT_THROW(steps.step(4), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

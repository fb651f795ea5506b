#include "core/time_models/cholesky_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>

#include "core/common/error.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "core/patterns/pattern_gcrm.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/time_model.hpp"
#include "plan_test_support.hpp"

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
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>>
      sent;  ///< (source tile row, receivers)
};

BruteStep brute_force_step(const TileOwnership& t, std::size_t processors, std::size_t k) {
  const std::size_t K = t.tiles();
  BruteStep s{std::vector<double>(processors),
              std::vector<double>(processors),
              std::vector<double>(processors),
              {}};
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

/// The oracle's schedule (kernels/cholesky.cpp's), from the tile loop's counts: per
/// processor a clock; panel k's owners solve once their column k and the factor are there
/// and the panel reaches everyone `message_s` later per phase; the update of step k starts
/// when both the processor and panel k are ready: tile (k+1,k+1) and its POTRF first on its
/// owner, then the rest of column k+1, then the rest. Each processor's own message seconds of step
/// k (own_s[k][x]) go on its clock before its update.
struct OracleSchedule {
  double total = 0.0, busiest = 0.0, messages = 0.0;
};

OracleSchedule tile_loop_schedule(const Platform& platform, const TileOwnership& t,
                                  const std::vector<double>& phase_s,
                                  const std::vector<std::vector<double>>& own_s) {
  const std::size_t P = platform.size(), K = t.tiles();
  const double cube = std::pow(static_cast<double>(t.tile), 3);
  const auto seconds = [&](std::size_t x, double tiles) {
    return tiles * cube / platform.processors[x].speed_flops;
  };
  std::vector<double> clock(P, 0.0), column(P, 0.0), busy(P, 0.0);
  double factor = seconds(owner(t, 0, 0), 1.0 / 3.0);
  clock[owner(t, 0, 0)] = factor;
  OracleSchedule o;
  for (std::size_t k = 0; k < K; ++k) {
    const BruteStep b = brute_force_step(t, P, k);
    double ready = factor;
    for (std::size_t x = 0; x < P; ++x) {
      if (b.trsm[x] == 0.0) continue;
      const double arrival = factor + (x == owner(t, k, k) ? 0.0 : phase_s[2 * k]);
      ready = std::max(ready, std::max(column[x], arrival) + seconds(x, b.trsm[x]));
      clock[x] = std::max(clock[x], arrival) + seconds(x, b.trsm[x]);
    }
    ready += phase_s[2 * k + 1];
    o.messages += phase_s[2 * k] + phase_s[2 * k + 1];
    if (k + 1 == K) break;
    for (std::size_t x = 0; x < P; ++x) {
      clock[x] += own_s[k][x];
      double mine = 0.0;  // tiles of column k+1 in nb³ units
      for (std::size_t i = k + 1; i < K; ++i)
        if (owner(t, i, k + 1) == x) mine += i == k + 1 ? 1.0 : 2.0;
      const double all = b.syrk[x] + 2.0 * b.gemm[x];
      if (all == 0.0) continue;
      double start = std::max(clock[x], ready);
      if (x == owner(t, k + 1, k + 1)) {  // SYRK(k+1,k+1), POTRF(k+1), then the rest
        factor = start + seconds(x, 1.0) + seconds(x, 1.0 / 3.0);
        start += seconds(x, 1.0 / 3.0);
      }
      column[x] = start + seconds(x, mine);
      clock[x] = column[x] + seconds(x, all - mine);
      busy[x] += seconds(x, all);
    }
  }
  o.total = std::max(factor, *std::max_element(clock.begin(), clock.end()));
  o.busiest = *std::max_element(busy.begin(), busy.end());
  return o;
}

void expect_schedule(const TimeBreakdown& t, const OracleSchedule& o) {
  EXPECT_NEAR(t.compute, o.busiest, 1e-12 * o.total);
  EXPECT_NEAR(t.compute + t.panel + t.communication, o.total, 1e-12 * o.total);
  EXPECT_NEAR(t.communication, std::min(o.messages, o.total - o.busiest), 1e-12 * o.total);
  EXPECT_GE(t.panel, 0.0);
}

// The critical path of a heterogeneous grid, step by step from the tile loop. Communication
// on a shared bus is every message (one tree of g − 1 messages per tile with g − 1
// receivers), per phase: L(k,k), then the colrow tiles.
TEST(CholeskySteps, HeterogeneousGridTimeIsTheTileLoopsCriticalPath) {
  Platform platform;
  for (double s : {1.0e9, 3.0e9, 2.0e9, 6.0e9}) platform.processors.push_back({s, 1.0e12});
  platform.network = {1.0e-4, 1.0e8, NetworkKind::SharedBus, {}};
  const std::size_t nb = 8;
  const TileOwnership grid =
      cartesian_ownership(30 * nb, nb, 2, 2, {0, 1, 2, 3}, {1.0, 2.0}, {1.0, 3.0});
  const double message = 1.0e-4 + 64.0 * 8.0 / 1.0e8;  // nb² doubles
  // A processor's own seconds: per tile it sends, its tree (`tree(g)` messages for g − 1
  // receivers); one message per tile it receives.
  const auto own_seconds = [&](const auto& tree) {
    std::vector<std::vector<double>> own;
    for (std::size_t k = 0; k < grid.tiles(); ++k) {
      const BruteStep b = brute_force_step(grid, 4, k);
      own.emplace_back(4, 0.0);
      for (const auto& [row, receivers] : b.sent) {
        if (receivers.empty()) continue;
        own.back()[owner(grid, row, k)] += tree(receivers.size() + 1) * message;
        for (std::size_t x : receivers) own.back()[x] += message;
      }
    }
    return own;
  };
  std::vector<double> bus;
  for (std::size_t k = 0; k < grid.tiles(); ++k) {
    const BruteStep b = brute_force_step(grid, 4, k);
    bus.push_back(static_cast<double>(b.sent[0].second.size()) * message);
    double colrow = 0.0;
    for (std::size_t s = 1; s < b.sent.size(); ++s)
      colrow += static_cast<double>(b.sent[s].second.size()) * message;
    bus.push_back(colrow);
  }
  const auto bus_tree = [](std::size_t g) { return static_cast<double>(g - 1); };
  expect_schedule(simulate_cholesky(platform, grid),
                  tile_loop_schedule(platform, grid, bus, own_seconds(bus_tree)));

  // Switched: per phase the busiest sender's binomial trees (⌈log2 g⌉ messages per tile) or
  // the busiest receiver (one message per tile it reads).
  platform.network.kind = NetworkKind::Switched;
  std::vector<double> switched;
  for (std::size_t k = 0; k < grid.tiles(); ++k) {
    const BruteStep b = brute_force_step(grid, 4, k);
    const auto phase = [&](std::size_t from, std::size_t to) {
      std::vector<double> sent(4, 0.0), received(4, 0.0);
      for (std::size_t s = from; s < to; ++s) {
        const auto& receivers = b.sent[s].second;
        if (!receivers.empty())
          sent[owner(grid, b.sent[s].first, k)] +=
              std::ceil(std::log2(static_cast<double>(receivers.size()) + 1.0)) * message;
        for (std::size_t x : receivers) received[x] += message;
      }
      return std::max(*std::max_element(sent.begin(), sent.end()),
                      *std::max_element(received.begin(), received.end()));
    };
    switched.push_back(phase(0, 1));
    switched.push_back(phase(1, b.sent.size()));
  }
  const auto binomial_tree = [](std::size_t g) {
    return std::ceil(std::log2(static_cast<double>(g)));
  };
  expect_schedule(simulate_cholesky(platform, grid),
                  tile_loop_schedule(platform, grid, switched, own_seconds(binomial_tree)));
}

// Two processors, the second 3x slower, on patterns and a 1x2 grid: the schedule lies
// strictly between the busiest processor's work (everything hidden) and the steps added up
// one after another (nothing hidden; messages bounded by 1 ms a phase here).
TEST(CholeskySteps, LookaheadHidesPartOfTheSlowRanksPanels) {
  Platform platform;
  platform.processors = {{3.0e9, 1.0e12}, {1.0e9, 1.0e12}};
  platform.network = {1.0e-5, 1.0e9, NetworkKind::Switched, {}};
  for (const TileOwnership& t : {pattern_ownership(40 * 16, 16, 1, 2, {0, 1}),
                                 cartesian_ownership(40 * 16, 16, 1, 2, {0, 1}, {1.0}, {3.0, 1.0}),
                                 pattern_ownership(40 * 16, 16, 2, 2, {0, 1, 0, 0})}) {
    const double cube = 16.0 * 16.0 * 16.0;
    double added = 0.0;  // every step's slowest panel, update and messages, one after another
    for (std::size_t k = 0; k < t.tiles(); ++k) {
      const BruteStep b = brute_force_step(t, 2, k);
      double trsm = 0.0, update = 0.0;
      for (std::size_t x = 0; x < 2; ++x) {
        const double s = platform.processors[x].speed_flops;
        trsm = std::max(trsm, b.trsm[x] * cube / s);
        update = std::max(update, (b.syrk[x] + 2.0 * b.gemm[x]) * cube / s);
      }
      added += cube / 3.0 / platform.processors[owner(t, k, k)].speed_flops + trsm + update;
    }
    const TimeBreakdown time = simulate_cholesky(platform, t);
    const double total = time.compute + time.panel + time.communication;
    EXPECT_GT(total, time.compute);
    EXPECT_LT(total, added + 2.0 * static_cast<double>(t.tiles()) * 1.0e-3);
  }
}

TEST(CholeskySteps, VolumeTendsToThePapersFormula) {
  // m(m+1)/2 · (T − 1) tiles, T = cholesky_cost: 2DBC 4x3 (T = 6) and a GCR&M pattern.
  const Pattern gcrm = gcrm_pattern(10, 8, 5);
  const Candidate gcrm_candidate =
      pattern_candidate("gcrm", 1, gcrm, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
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
  platform.network = {1.0e-5, 1.0e9, NetworkKind::Switched, {}};
  const std::size_t K = 20, nb = 10;
  const TimeBreakdown t = simulate_cholesky(platform, pattern_ownership(K * nb, nb, 1, 1, {0}));
  double update_tiles = 0.0;  // Σ_k: (K−k−1) SYRK of nb³ and (K−k−1)(K−k−2)/2 GEMM of 2nb³
  for (std::size_t k = 0; k < K; ++k)
    update_tiles += static_cast<double>((K - k - 1) + (K - k - 1) * (K - k - 2));
  const double cube = 1000.0;
  EXPECT_NEAR(t.compute, update_tiles * cube / 1.0e9, 1e-15);
  EXPECT_NEAR(t.panel, (K / 3.0 + K * (K - 1) / 2.0) * cube / 1.0e9, 1e-15);
  EXPECT_EQ(t.communication, 0.0);
  // In total n³/3 flops up to lower-order terms.
  EXPECT_NEAR((t.compute + t.panel) * 1.0e9, std::pow(K * nb, 3) / 3.0,
              0.1 * std::pow(K * nb, 3) / 3.0);
}

TEST(CholeskySteps, PredictUsesTheTriangleModel) {
  Platform platform;
  platform.processors.assign(4, {1.0e9, 1.0e12});
  platform.network = {1.0e-5, 1.0e8, NetworkKind::Switched, {}};
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
  steps.step(1);  // step 0 skipped: allowed (the sampled schedule skips steps)
  EXPECT_THROW(steps.step(1), InvalidArgument);
  EXPECT_THROW(steps.step(0), InvalidArgument);
  EXPECT_THROW(steps.step(4), InvalidArgument);  // 4 tile columns: steps 0 to 3
}

TEST(CholeskySteps, ASkippedStepLoadsAsIfEveryStepWasWalked) {
  const TileOwnership t = pattern_ownership(400, 10, 3, 4, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  CholeskySteps walked(t, 6), skipping(t, 6), grouped(t, 6, true);
  for (std::size_t k = 0; k < 5; ++k) walked.step(k);
  const CholeskyStepLoad expected = walked.step(5), got = skipping.step(5), in_groups = grouped.step(5);
  EXPECT_EQ(got.trsm_tiles, expected.trsm_tiles);
  EXPECT_EQ(got.syrk_tiles, expected.syrk_tiles);
  EXPECT_EQ(got.gemm_tiles, expected.gemm_tiles);
  EXPECT_EQ(got.receivers, expected.receivers);
  // Grouped: the same work, and every tile sent to as many receivers in all.
  EXPECT_EQ(in_groups.gemm_tiles, expected.gemm_tiles);
  double tiles_sent = 0.0, tiles_sent_grouped = 0.0;
  for (const TileBroadcast& b : expected.broadcasts) tiles_sent += b.times * static_cast<double>(b.count);
  for (const TileBroadcast& b : in_groups.broadcasts) tiles_sent_grouped += b.times * static_cast<double>(b.count);
  EXPECT_EQ(tiles_sent_grouped, tiles_sent);
  EXPECT_LT(in_groups.broadcasts.size(), expected.broadcasts.size());  // some were grouped
}

// A tall owner table (more row classes than column classes) keeps its trailing counts tile row
// by tile row, its skipped columns dropped together: every step visited, after any skip, loads
// as the tile loop's (a 9×2 grid, a 5×1 pattern of repeated owners, a 7×3 heterogeneous grid).
TEST(CholeskySteps, TallLayoutsSkippingStepsLoadAsTheTileLoop) {
  const std::vector<TileOwnership> tall{
      pattern_ownership(37 * 4, 4, 9, 2, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}),
      pattern_ownership(29 * 4, 4, 5, 1, {0, 1, 0, 2, 1}),
      cartesian_ownership(41 * 4, 4, 7, 3, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20},
                          {1.0, 2.0, 1.5, 3.0, 1.0, 2.5, 1.2}, {2.0, 1.0, 3.0})};
  for (const TileOwnership& t : tall) {
    const std::size_t processors = 21;
    for (std::size_t stride : {1, 2, 5, 13}) {
      CholeskySteps steps(t, processors);
      for (std::size_t k = stride / 2; k < steps.steps(); k += stride) {
        const CholeskyStepLoad load = steps.step(k);
        const BruteStep brute = brute_force_step(t, processors, k);
        EXPECT_EQ(load.syrk_tiles, brute.syrk) << "stride " << stride << ", step " << k;
        EXPECT_EQ(load.gemm_tiles, brute.gemm) << "stride " << stride << ", step " << k;
        EXPECT_EQ(load.trsm_tiles, brute.trsm) << "stride " << stride << ", step " << k;
      }
    }
  }
}

// Per processor, the tiles it receives in a step: its listed receptions and its aggregated ones.
std::vector<double> received_per_processor(const CholeskyStepLoad& load, std::size_t processors) {
  std::vector<double> received = load.aggregated_received;
  received.resize(processors, 0.0);
  for (const TileBroadcast& b : load.broadcasts) {
    if (b.first == TileBroadcast::kAggregated) continue;
    for (std::size_t r = b.first; r < b.first + b.count; ++r) received[load.receivers[r]] += b.times;
  }
  return received;
}

// A grouped walk does not list the receivers of its grouped colrows; it counts them per
// processor (inclusion–exclusion over the row and column classes each processor owns). On
// grids and patterns (where a processor owns many cells), every processor receives exactly
// what the listed walk sends it, and the broadcasts are as many tiles to as many receivers.
TEST(CholeskySteps, GroupedWalksCountEveryProcessorsReceptionsAsTheListedWalk) {
  std::vector<std::pair<TileOwnership, std::size_t>> layouts;
  layouts.emplace_back(pattern_ownership(400, 10, 3, 4, {0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5}), 6);
  layouts.emplace_back(block_cyclic_ownership(330, 10, 3, 2, {}), 6);
  layouts.emplace_back(cartesian_ownership(320, 8, 2, 3, {0, 1, 2, 3, 4, 5}, {1.0, 3.0}, {1.0, 2.0, 4.0}), 6);
  const Candidate gcrm = pattern_candidate("gcrm", 4, gcrm_pattern(7, 6, 3), {0, 1, 2, 3, 4, 5, 6});
  layouts.emplace_back(ownership_of(gcrm, 4 * 31), 7);
  for (const auto& [layout, processors] : layouts) {
    CholeskySteps listed(layout, processors), grouped(layout, processors, true);
    bool some_aggregated = false;
    for (std::size_t k = 0; k < listed.steps(); ++k) {
      const CholeskyStepLoad want = listed.step(k), got = grouped.step(k);
      EXPECT_EQ(received_per_processor(got, processors), received_per_processor(want, processors)) << "step " << k;
      double sent = 0.0, sent_grouped = 0.0;
      for (const TileBroadcast& b : want.broadcasts) sent += b.times * static_cast<double>(b.count);
      for (const TileBroadcast& b : got.broadcasts) sent_grouped += b.times * static_cast<double>(b.count);
      EXPECT_EQ(sent_grouped, sent) << "step " << k;
      some_aggregated = some_aggregated || !got.aggregated_received.empty();
    }
    EXPECT_TRUE(some_aggregated);  // the grouped path ran
  }
}

// Per sender, the tiles it broadcasts to groups of each size: what prices its trees (a
// broadcast's time grows with its group, so equal totals are not enough).
std::map<std::pair<std::size_t, std::size_t>, double> sends_by_group(const CholeskyStepLoad& load) {
  std::map<std::pair<std::size_t, std::size_t>, double> sends;
  for (const TileBroadcast& b : load.broadcasts) sends[{b.sender, b.count}] += b.times;
  return sends;
}

// A grouped walk on a grid (every cell its own processor) counts the colrows that do not reach
// every class yet instead of listing their receivers: on random grids of random shares, each
// step has the listed walk's diagonal broadcast, its receptions per processor, and per sender
// as many tiles to groups of each size; the colrows not yet full keep their tile order.
TEST(CholeskySteps, CountedPartialColrowsAreTheListedWalkOnRandomGrids) {
  std::mt19937_64 rng(32);
  std::uniform_int_distribution<std::size_t> side(1, 7), tiles(1, 60);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t rows = side(rng), cols = side(rng), processors = rows * cols + trial % 3;
    const std::size_t tile = 4;
    const TileOwnership layout = random_grid(rng, rows, cols, 0, tile * tiles(rng), tile, trial % 4 == 0);
    SCOPED_TRACE("trial " + std::to_string(trial) + ": " + std::to_string(rows) + "x" + std::to_string(cols) +
                 ", " + std::to_string(layout.tiles()) + " tiles");
    CholeskySteps listed(layout, processors), counted(layout, processors, true);
    for (std::size_t k = 0; k < listed.steps(); ++k) {
      const CholeskyStepLoad want = listed.step(k), got = counted.step(k);
      ASSERT_FALSE(got.broadcasts.empty());
      EXPECT_EQ(got.broadcasts.front().sender, want.broadcasts.front().sender) << "step " << k;
      EXPECT_EQ(got.receivers_of(0), want.receivers_of(0)) << "step " << k;
      EXPECT_EQ(received_per_processor(got, processors), received_per_processor(want, processors)) << "step " << k;
      EXPECT_EQ(sends_by_group(got), sends_by_group(want)) << "step " << k;
      for (std::size_t b = 1; b < got.broadcasts.size(); ++b) {
        EXPECT_EQ(got.broadcasts[b].first, TileBroadcast::kAggregated) << "step " << k;
      }
    }
  }
}

}  // namespace
}  // namespace hetscal::core

// hetscal's QR priced step by step (core/time_models/qr_steps.hpp) against the tile loop itself,
// its flop count on one processor, and ScaLAPACK's PDGEQRF on the caller's layout.
#include "core/time_models/qr_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/common/error.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/planners/model_candidates.hpp"
#include "core/time_models/time_model_steps.hpp"

namespace hetscal::core {
namespace {

std::size_t owner(const TileOwnership& t, std::size_t i, std::size_t j) {
  return t.at(t.row_class[i], t.col_class[j]);
}

/// The oracle: step k of the kernel read off the tiles one by one. w[s·P + x]: s sends x
/// partial W tiles.
struct BruteStep {
  std::size_t panel_rank = 0;
  std::vector<double> gathered, reflectors, update, roots, w;
};

BruteStep brute_force_step(const TileOwnership& t, const std::vector<double>& speeds,
                           PanelRank rank, std::size_t k) {
  const std::size_t P = speeds.size(), rows = t.row_class.size(), cols = t.col_class.size();
  BruteStep s;
  s.panel_rank = owner(t, k, k);
  if (rank == PanelRank::Fastest)
    for (std::size_t i = k; i < rows; ++i) {
      const std::size_t x = owner(t, i, k);
      if (speeds[x] > speeds[s.panel_rank] ||
          (speeds[x] == speeds[s.panel_rank] && x < s.panel_rank))
        s.panel_rank = x;
    }
  for (auto* v : {&s.gathered, &s.reflectors, &s.update, &s.roots}) v->assign(P, 0.0);
  s.w.assign(P * P, 0.0);
  for (std::size_t i = k; i < rows; ++i) {
    if (owner(t, i, k) != s.panel_rank) s.gathered[owner(t, i, k)] += 1;
    // V(i,k) goes back to the panel tile's owner and to every owner of a trailing tile of row i.
    std::set<std::size_t> readers{owner(t, i, k)};
    for (std::size_t j = k + 1; j < cols; ++j) readers.insert(owner(t, i, j));
    readers.erase(s.panel_rank);
    for (std::size_t x : readers) s.reflectors[x] += 1;
  }
  for (std::size_t j = k + 1; j < cols; ++j) {
    const std::size_t root = owner(t, k, j);
    s.roots[root] += 1;
    std::set<std::size_t> contributors;
    for (std::size_t i = k; i < rows; ++i)
      s.update[owner(t, i, j)] += 1, contributors.insert(owner(t, i, j));
    contributors.erase(root);
    for (std::size_t x : contributors) s.w[x * P + root] += 1;
  }
  return s;
}

void expect_near_all(const std::vector<double>& model, const std::vector<double>& brute,
                     const char* what, std::size_t k) {
  ASSERT_EQ(model.size(), brute.size());
  for (std::size_t x = 0; x < model.size(); ++x)
    EXPECT_NEAR(model[x], brute[x], 1e-12) << what << " [" << x << "], step " << k;
}

std::vector<double> dense(const std::vector<PairMessage>& messages, std::size_t P) {
  std::vector<double> table(P * P, 0.0);
  for (const PairMessage& m : messages) {
    EXPECT_EQ(table[m.from * P + m.to], 0.0)
        << "pair " << m.from << " -> " << m.to << " listed twice";
    EXPECT_NE(m.from, m.to);
    table[m.from * P + m.to] += m.tiles;
  }
  return table;
}

void expect_matches_brute_force(const TileOwnership& t, const std::vector<double>& speeds,
                                PanelRank rank) {
  const QrSteps steps(t, speeds.size(), rank, speeds);
  ASSERT_EQ(steps.steps(), std::min(t.row_class.size(), t.col_class.size()));
  for (std::size_t k = 0; k < steps.steps(); ++k) {
    const QrStepLoad load = steps.step(k);
    const BruteStep brute = brute_force_step(t, speeds, rank, k);
    EXPECT_EQ(load.panel_rank, brute.panel_rank) << "step " << k;
    EXPECT_EQ(load.panel_tiles, static_cast<double>(t.row_class.size() - k));
    expect_near_all(load.gathered, brute.gathered, "gathered", k);
    expect_near_all(load.reflectors, brute.reflectors, "reflectors", k);
    expect_near_all(load.update_tiles, brute.update, "update", k);
    expect_near_all(load.root_columns, brute.roots, "roots", k);
    expect_near_all(dense(load.w_partials, speeds.size()), brute.w, "W partials", k);
  }
}

TEST(QrSteps, MatchTheTileLoopOnGridsAndPatterns) {
  const std::vector<double> speeds{1.0, 3.0, 2.0, 3.0, 0.5, 1.0, 2.0};
  for (PanelRank rank : {PanelRank::DiagonalOwner, PanelRank::Fastest}) {
    expect_matches_brute_force(cartesian_ownership(MatrixShape{130, 75}, 5, 2, 3,
                                                   {0, 1, 2, 3, 4, 5}, {1.0, 2.5}, {3.0, 1.0, 1.7}),
                               speeds, rank);
    expect_matches_brute_force(cartesian_ownership(MatrixShape{42, 100}, 5, 3, 2,
                                                   {5, 4, 3, 2, 1, 0}, {1.0, 2.5, 1.0}, {3.0, 1.7}),
                               speeds, rank);
    const Candidate g2dbc = pattern_candidate("g2dbc", 4, g2dbc_pattern(7), {0, 1, 2, 3, 4, 5, 6});
    expect_matches_brute_force(ownership_of(g2dbc, MatrixShape{4 * 29, 4 * 23}), speeds, rank);
    expect_matches_brute_force(
        pattern_ownership(MatrixShape{20, 24}, 4, 7, 7, std::vector<std::size_t>(49, 2)), speeds,
        rank);
  }
}

// One processor: no message, every panel exposed. Update Σ_k (4(K−k)(K−k−1) + (K−k−1))nb³
// and panel Σ_k (3(K−k) − 1)nb³; the update alone is QR's 4/3 N³ to leading order.
TEST(QrSteps, OneProcessorTimeIsTheFlopCount) {
  Platform platform;
  platform.processors = {{1.0e9, 1.0e12}};
  platform.network = {1.0e-5, 1.0e9, NetworkKind::Switched, {}};
  const std::size_t K = 20, nb = 10;
  const TimeBreakdown t =
      simulate_qr(platform, pattern_ownership(K * nb, nb, 1, 1, {0}), PanelRank::DiagonalOwner);
  double update = 0.0, panel = 0.0;
  for (std::size_t k = 0; k < K; ++k) {
    const double h = static_cast<double>(K - k);
    update += 4.0 * h * (h - 1.0) + (h - 1.0);
    panel += 3.0 * h - 1.0;
  }
  const double cube = 1000.0;
  EXPECT_NEAR(t.compute, update * cube / 1.0e9, 1e-15);
  EXPECT_NEAR(t.panel, panel * cube / 1.0e9, 1e-15);
  EXPECT_EQ(t.communication, 0.0);
  EXPECT_NEAR(t.compute * 1.0e9, 4.0 / 3.0 * std::pow(K * nb, 3), 0.1 * std::pow(K * nb, 3));
}

// A shared bus serialises every message: with free flops the communication is the W
// partials and their way back, read off the tile loop (latency only: 1-element tiles).
TEST(QrSteps, SharedBusCountsEveryReductionMessage) {
  Platform platform;
  for (int x = 0; x < 4; ++x) platform.processors.push_back({1.0e30, 1.0e12});
  platform.network = {1.0e-3, 1.0e30, NetworkKind::SharedBus, {}};
  const TileOwnership t = pattern_ownership(MatrixShape{12, 9}, 1, 2, 2, {0, 1, 2, 3});
  const std::vector<double> speeds(4, 1.0e30);
  double messages = 0.0;
  for (std::size_t k = 0; k < 9; ++k) {
    const std::vector<double> w = brute_force_step(t, speeds, PanelRank::DiagonalOwner, k).w;
    messages += 2.0 * static_cast<double>(
                          std::count_if(w.begin(), w.end(), [](double v) { return v > 0.0; }));
  }
  EXPECT_NEAR(simulate_qr(platform, t, PanelRank::DiagonalOwner).communication, messages * 1.0e-3,
              1e-9);
}

// A switched network and a 4×1 pattern: every step's root takes in the other ranks'
// partials, one after another on its link, and sends W back the same way. With free flops
// the partials all come at once, so the queues show whole (2 latencies per contributor);
// with one rank far slower the others' partials have gone through before it has made its
// own, so less shows, but at least its own round trip.
TEST(QrSteps, TheExchangeShowsWhereThePartialsComeTogether) {
  const double latency = 1.0e-3;
  const auto communication = [&](double slow_speed) {
    Platform platform;
    for (double s : {1.0e30, 1.0e30, 1.0e30, slow_speed}) platform.processors.push_back({s, 1.0e12});
    platform.network = {latency, 1.0e30, NetworkKind::Switched, {}};
    return simulate_qr(platform, pattern_ownership(MatrixShape{16, 16}, 1, 4, 1, {0, 1, 2, 3}),
                       PanelRank::DiagonalOwner)
        .communication;
  };
  const TileOwnership t = pattern_ownership(MatrixShape{16, 16}, 1, 4, 1, {0, 1, 2, 3});
  double together = 0.0, round_trips = 0.0;
  for (std::size_t k = 0; k < 16; ++k) {
    const std::vector<double> w = brute_force_step(t, std::vector<double>(4, 1.0e30),
                                                   PanelRank::DiagonalOwner, k).w;
    const auto contributors = std::count_if(w.begin(), w.end(), [](double v) { return v > 0.0; });
    together += 2.0 * static_cast<double>(contributors) * latency;
    if (contributors > 0) round_trips += 2.0 * latency;
  }
  EXPECT_NEAR(communication(1.0e30), together, 1e-12);
  const double apart = communication(1.0e3);  // its flops take seconds, its messages 1 ms
  EXPECT_LT(apart, together - 5.0 * latency);
  EXPECT_GE(apart, round_trips - 1e-12);
}

// PDGEQRF on the caller's layout: per panel column two latency-bound collectives over the
// process column (the norm, PDLARF's w = vᴴA), so a process column of 4 pays per column
// what one of 1 does not.
TEST(QrSteps, ScalapacksPanelIsLatencyBoundPerColumn) {
  Platform platform;
  for (int x = 0; x < 4; ++x) platform.processors.push_back({1.0e30, 1.0e12});
  platform.network = {1.0e-3, 1.0e30, NetworkKind::Switched, {}};
  const std::size_t N = 64, nb = 16;
  const TileOwnership column = pattern_ownership(MatrixShape{N, N}, nb, 4, 1, {0, 1, 2, 3});
  const TileOwnership row = pattern_ownership(MatrixShape{N, N}, nb, 1, 4, {0, 1, 2, 3});
  const double column_panel = simulate_steps(platform, Routine::QR, column).panel;
  // N columns, 2 collectives of ⌈log2 4⌉ = 2 latencies each.
  EXPECT_NEAR(column_panel, static_cast<double>(N) * 2.0 * 2.0 * 1.0e-3, 1e-9);
  EXPECT_NEAR(simulate_steps(platform, Routine::QR, row).panel, 0.0, 1e-12);  // flops only, free
}

TEST(QrSteps, PredictPricesTheKernelAwayFromTheCallersLayout) {
  Platform platform;
  for (double s : {1.0e9, 2.0e9}) platform.processors.push_back({s, 1.0e12});
  platform.network = {1.0e-5, 1.0e9, NetworkKind::Switched, {}};
  Problem problem;
  problem.routine = Routine::QR;
  problem.n = 200;
  problem.m = 300;
  problem.caller = CallerLayout{1, 2, 20, {0, 1}};
  Candidate planned;  // 1×2 columns cyclic, rank 1 first: not the caller's layout
  planned.kind = CandidateKind::Pattern;
  planned.tile = 20;
  planned.rows = 1;
  planned.cols = 2;
  planned.owner = {1, 0};
  const TimeBreakdown kernel =
      simulate_qr(platform, ownership_of(planned, MatrixShape{300, 200}), PanelRank::DiagonalOwner);
  const Prediction p = predict(platform, problem, planned);
  EXPECT_EQ(p.time.compute, kernel.compute);
  EXPECT_EQ(p.time.panel, kernel.panel);
  EXPECT_EQ(p.time.communication, kernel.communication);
  const Prediction in_place = predict(platform, problem, caller_layout_candidate(problem));
  const TimeBreakdown scalapack =
      simulate_steps(platform, problem, caller_ownership(problem, MatrixShape{300, 200}));
  EXPECT_EQ(in_place.time.panel, scalapack.panel);
}

TEST(QrSteps, RejectsBadLayouts) {
  TileOwnership skew = pattern_ownership(40, 10, 1, 1, {0});
  skew.row_offset = 3;
  EXPECT_THROW(QrSteps(skew, 1, PanelRank::DiagonalOwner, {1.0}), InvalidArgument);
  const TileOwnership two = pattern_ownership(40, 10, 1, 2, {0, 1});
  EXPECT_THROW(QrSteps(two, 1, PanelRank::DiagonalOwner, {1.0}), InvalidArgument);
  EXPECT_THROW(QrSteps(two, 2, PanelRank::Fastest, {1.0}), InvalidArgument);
  const QrSteps steps(two, 2, PanelRank::DiagonalOwner, {1.0, 1.0});
  EXPECT_THROW(steps.step(4), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

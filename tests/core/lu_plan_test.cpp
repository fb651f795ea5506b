// The LU planner (core/lu_plan.hpp): the obvious winner in clear cases, the choice the fastest
// of what it priced, the LU tile orders of M×N grids, memory limits, and bad input refused.
#include "core/lu_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>

#include "core/cholesky_ordering.hpp"
#include "core/error.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

Platform platform_of(const std::vector<double>& speeds, double bandwidth = 1.0e9,
                     NetworkKind kind = NetworkKind::Switched, double memory = 1.0e12) {
  Platform p;
  for (double s : speeds) p.processors.push_back({s, memory});
  p.network = {5.0e-6, bandwidth, kind};
  p.kernel.half_tile = 16.0;
  return p;
}

// The caller's p×q grid, ranks row-major, blocks of 64.
CallerLayout caller_grid(std::size_t p, std::size_t q) {
  CallerLayout caller{p, q, 64, {}};
  for (std::size_t r = 0; r < p * q; ++r) caller.processor_at.push_back(r);
  return caller;
}

std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no InvalidArgument";
}

TEST(LuPlan, EqualSpeedsKeepTheCallerLayoutOrBlockCyclic) {
  const LuChoice choice = choose_lu_plan(platform_of(std::vector<double>(4, 1.0e9)), 4000, 4000, caller_grid(2, 2));
  EXPECT_TRUE(choice.kind == LuLayoutKind::CallerLayout || choice.kind == LuLayoutKind::BlockCyclic)
      << choice.candidate.label;
  EXPECT_EQ(choice.processors.size(), 4u);
  // Equal speeds: no heterogeneous grid, pattern or fastest-rank panel is even priced.
  for (const auto& c : choice.priced) {
    EXPECT_NE(c.kind, LuLayoutKind::HeterogeneousGrid) << c.prediction.candidate.label;
    EXPECT_NE(c.kind, LuLayoutKind::HeteroPattern) << c.prediction.candidate.label;
    EXPECT_EQ(c.prediction.candidate.panel_rank, PanelRank::DiagonalOwner) << c.prediction.candidate.label;
  }
}

TEST(LuPlan, OneRankFourTimesSlowerLeavesTheCallersLayout) {
  const Platform platform = platform_of({1.0e9, 1.0e9, 1.0e9, 0.25e9});
  const LuChoice choice = choose_lu_plan(platform, 6000, 6000, caller_grid(2, 2));
  EXPECT_NE(choice.kind, LuLayoutKind::CallerLayout);
  EXPECT_LT(choice.predicted_s, 0.8 * fastest_of(choice, LuLayoutKind::CallerLayout).prediction.total_s());
}

TEST(LuPlan, HundredTimesSlowerRankIsLeftOut) {
  const LuChoice choice = choose_lu_plan(platform_of({1.0e9, 1.0e9, 1.0e9, 1.0e7}), 4000, 4000, caller_grid(2, 2));
  EXPECT_EQ(choice.processors, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(LuPlan, ChoiceIsTheFastestPricedCandidate) {
  const Platform platform = platform_of({4.0e9, 2.0e9, 1.0e9, 1.0e9, 3.0e9}, 1.0e9, NetworkKind::SharedBus);
  Problem problem{Routine::LU, 2000, caller_grid(1, 5)};
  problem.m = 3000;
  const LuChoice choice = choose_lu_plan(platform, 3000, 2000, problem.caller);
  double fastest = 1e300;
  std::size_t at = 0;
  for (std::size_t i = 0; i < choice.priced.size(); ++i) {
    const Prediction again = predict(platform, problem, choice.priced[i].prediction.candidate);
    EXPECT_DOUBLE_EQ(again.total_s(), choice.priced[i].prediction.total_s());
    if (again.fits_memory() && again.total_s() < fastest) fastest = again.total_s(), at = i;
  }
  EXPECT_EQ(choice.chosen, at);
  EXPECT_DOUBLE_EQ(choice.predicted_s, fastest);
  EXPECT_EQ(choice.candidate.label, choice.priced[at].prediction.candidate.label);
  EXPECT_EQ(choice.processors, choice.candidate.processors());
  for (LuLayoutKind kind : LuPlanOptions{}.kinds) EXPECT_NO_THROW(fastest_of(choice, kind)) << lu_layout_name(kind);
  const auto fastest_panel = std::count_if(choice.priced.begin(), choice.priced.end(), [](const LuCandidate& c) {
    return c.prediction.candidate.panel_rank == PanelRank::Fastest;
  });
  EXPECT_GT(fastest_panel, 0);
}

// M ≠ N: the heterogeneous grids deal their ⌈M/nb⌉ tile rows and ⌈N/nb⌉ tile columns in the
// suffix-balanced (LU) order of their shares.
TEST(LuPlan, HeterogeneousGridsTakeTheLuOrderOfTheirShape) {
  const Platform platform = platform_of({3.0e9, 1.0e9, 2.0e9, 1.0e9, 2.0e9, 1.0e9});
  const LuChoice choice = choose_lu_plan(platform, 3000, 1700, caller_grid(2, 3));
  std::size_t grids = 0;
  for (const auto& c : choice.priced) {
    if (c.kind != LuLayoutKind::HeterogeneousGrid) continue;
    ++grids;
    const Candidate& g = c.prediction.candidate;
    const std::size_t tile_rows = (3000 + g.tile - 1) / g.tile, tile_cols = (1700 + g.tile - 1) / g.tile;
    EXPECT_EQ(g.row_order, suffix_balanced_order(g.row_share, tile_rows)) << g.label;
    EXPECT_EQ(g.col_order, suffix_balanced_order(g.col_share, tile_cols)) << g.label;
  }
  EXPECT_GT(grids, 0u);
}

TEST(LuPlan, NothingThatExceedsMemoryIsChosen) {
  // 4000² doubles = 128 MB: the caller's share plus a copy fits in 60 MB per rank only when
  // spread over all four, so neither subsets nor (with the caller's arrays) uneven layouts fit.
  Platform platform = platform_of({1.0e9, 1.0e9, 1.0e9, 1.0e7}, 1.0e9, NetworkKind::Switched, 80.0e6);
  const LuChoice choice = choose_lu_plan(platform, 4000, 4000, caller_grid(2, 2));
  EXPECT_TRUE(choice.priced[choice.chosen].prediction.fits_memory());
  EXPECT_TRUE(std::any_of(choice.priced.begin(), choice.priced.end(),
                          [](const LuCandidate& c) { return !c.prediction.fits_memory(); }));
  for (const auto& c : choice.priced)
    if (c.prediction.fits_memory()) EXPECT_GE(c.prediction.total_s(), choice.predicted_s);
  for (auto& p : platform.processors) p.memory_bytes = 1.0e6;
  EXPECT_THROW(choose_lu_plan(platform, 4000, 4000, caller_grid(2, 2)), Error);
}

TEST(LuPlan, RefusesBadInputNamingIt) {
  const Platform platform = platform_of({1.0e9, 1.0e9});
  const CallerLayout caller = caller_grid(1, 2);
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 0, 10, caller); }).find("0 x 10"), std::string::npos);
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 10, -1, caller); }).find("10 x -1"), std::string::npos);
  LuPlanOptions options;
  options.tile_sizes.clear();
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 100, 100, caller, options); }).find("no tile size"), std::string::npos);
  options.tile_sizes = {64, 0};
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 100, 100, caller, options); }).find("tile size 0"), std::string::npos);
  options = {};
  options.kinds.clear();
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 100, 100, caller, options); }).find("no kind"), std::string::npos);
  EXPECT_NE(message_of([&] { choose_lu_plan(platform, 100, 100, CallerLayout{1, 1, 64, {5}}); }).find("processor 5"),
            std::string::npos);
  options.kinds = {LuLayoutKind::G2dbc};
  EXPECT_NE(message_of([&] { choose_lu_plan(platform_of({1.0e9}), 100, 100, CallerLayout{1, 1, 64, {0}}, options); })
                .find("none of the 1 kinds"),
            std::string::npos);
  Platform broken = platform;
  broken.processors[1].speed_flops = -1.0;
  EXPECT_THROW(choose_lu_plan(broken, 100, 100, caller), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

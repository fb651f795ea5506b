// What an in-place route is priced on (runtime/in_place_moves.hpp): its layout as the time
// model's candidate, and the elements it keeps and moves. No MPI: the layouts are built here.
#include "runtime/in_place_moves.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "runtime/pricing.hpp"

namespace hetscal::runtime {
namespace {

constexpr std::int64_t kOrder = 1000, kBlock = 64;  // 16 tile lines, the last of 40

// The caller's N×N matrix block-cyclic on a 1x2 grid (ranks 0 and 1), sub(A) at (1, 1).
layout::CartesianDistribution caller_1x2() {
  return layout::CartesianDistribution(layout::TileSplit(kOrder, kBlock), layout::TileSplit(kOrder, kBlock), {0},
                                       {0, 1}, layout::ProcessGrid::row_major(1, 2));
}

core::Platform two_ranks(double fast_flops, double slow_flops) {
  core::Platform platform;
  platform.processors = {{fast_flops, 1e9}, {slow_flops, 1e9}};
  platform.network.latency_s = 1e-6;
  platform.network.bandwidth_bytes_per_s = 1e9;
  return platform;
}

core::Problem cholesky_on_caller_1x2() {
  core::Problem problem;
  problem.routine = core::Routine::Cholesky;
  problem.n = static_cast<std::size_t>(kOrder);
  problem.caller.grid_rows = 1;
  problem.caller.grid_cols = 2;
  problem.caller.block = static_cast<std::size_t>(kBlock);
  problem.caller.processor_at = {0, 1};
  return problem;
}

TEST(InPlaceCandidate, GivesEachTileLineTheGridLineOfTheInPlaceLayout) {
  const layout::CartesianDistribution caller = caller_1x2();
  const auto in_place = minimal_move_layout(caller, {3.0, 1.0}, core::KeptLines::Spread);
  const core::Candidate candidate = in_place_candidate(*in_place);
  EXPECT_EQ(candidate.kind, core::CandidateKind::Cartesian);
  EXPECT_EQ(candidate.rows, 1u);
  EXPECT_EQ(candidate.cols, 2u);
  EXPECT_EQ(candidate.owner, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(candidate.tile, static_cast<std::size_t>(kBlock));
  ASSERT_EQ(candidate.col_order.size(), 16u);
  for (std::int64_t j = 0; j < 16; ++j)
    EXPECT_EQ(candidate.col_order[static_cast<std::size_t>(j)], static_cast<std::size_t>(in_place->grid_col(j)));
  EXPECT_EQ(candidate.row_order, std::vector<std::size_t>(16, 0));
  // 3:1 of 16 tile columns.
  EXPECT_EQ(candidate.col_share, (std::vector<double>{12.0, 4.0}));
  EXPECT_EQ(candidate.row_share, (std::vector<double>{16.0}));
}

TEST(InPlaceCandidate, TheModelPricesItsBalanceAgainstTheCallersBlockCyclicLayout) {
  // Rank 1 three times slower: the in-place layout gives it a quarter of the columns, the
  // caller's layout half. The model must see the difference, or auto could not price the route.
  const auto in_place = minimal_move_layout(caller_1x2(), {3.0, 1.0}, core::KeptLines::Spread);
  const core::Platform platform = two_ranks(3e9, 1e9);
  const core::Problem problem = cholesky_on_caller_1x2();
  const double in_place_s = predicted_compute_seconds(platform, problem, in_place_candidate(*in_place));
  const double caller_s = predicted_compute_seconds(platform, problem, core::caller_layout_candidate(problem));
  EXPECT_GT(in_place_s, 0.0);
  EXPECT_LT(in_place_s, 0.8 * caller_s);
  // Equal speeds: the in-place layout is the caller's, priced alike.
  const auto equal = minimal_move_layout(caller_1x2(), {1.0, 1.0}, core::KeptLines::Spread);
  const core::Platform even = two_ranks(1e9, 1e9);
  EXPECT_NEAR(predicted_compute_seconds(even, problem, in_place_candidate(*equal)),
              predicted_compute_seconds(even, problem, core::caller_layout_candidate(problem)), 1e-9);
}

TEST(SurplusElements, TheFastRankKeepsAllItHoldsAndReceivesWhatTheSlowOneGivesAway) {
  const layout::CartesianDistribution caller = caller_1x2();
  const auto in_place = minimal_move_layout(caller, {3.0, 1.0}, core::KeptLines::Spread);
  const SurplusElements e = surplus_elements(caller, *in_place, 2);
  const double all = static_cast<double>(kOrder * kOrder);
  EXPECT_DOUBLE_EQ(e.held[0], kOrder * 8.0 * kBlock);  // tile columns 0, 2, ..., 14
  EXPECT_DOUBLE_EQ(std::accumulate(e.held.begin(), e.held.end(), 0.0), all);
  EXPECT_DOUBLE_EQ(std::accumulate(e.planned.begin(), e.planned.end(), 0.0), all);
  EXPECT_DOUBLE_EQ(e.kept[0], e.held[0]);     // short of its count: keeps every line
  EXPECT_DOUBLE_EQ(e.kept[1], e.planned[1]);  // over its count: keeps only its share
  EXPECT_DOUBLE_EQ(e.planned[0] - e.kept[0], e.held[1] - e.kept[1]);  // what moves, moves once
  // Four of rank 1's eight tile columns move (12:4 planned), one of them the last, of 40.
  EXPECT_GT(e.held[1] - e.kept[1], 3.0 * kOrder * kBlock);
}

}  // namespace
}  // namespace hetscal::runtime

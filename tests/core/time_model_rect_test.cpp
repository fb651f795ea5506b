// The time model on rectangular problems and submatrices: compute times against flop counts
// done by hand, redistribution volumes against a walk over every element of A, B and C with
// ScaLAPACK's owner rule, memory against the arrays' sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "core/common/error.hpp"
#include "core/time_models/time_model.hpp"
#include "core/time_models/time_model_steps.hpp"
#include "time_model_test_support.hpp"

namespace hetscal::core {
namespace {

/// Processors of the given flop rates; the kernel runs at peak for every tile size, so that a
/// compute time is exactly flops / speed.
Platform platform_of(const std::vector<double>& speeds, double memory = 1e12) {
  Platform p;
  for (double s : speeds) p.processors.push_back(Processor{s, memory});
  p.network = {1e-5, 1e9, NetworkKind::Switched, {}};
  p.kernel.half_tile = 0.0;
  return p;
}

Problem gemm(std::size_t m, std::size_t n, std::size_t k, CallerLayout caller) {
  Problem problem;
  problem.routine = Routine::Gemm;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.caller = std::move(caller);
  return problem;
}

Problem factorisation(Routine routine, std::size_t m, std::size_t n, CallerLayout caller) {
  Problem problem = gemm(m, n, 0, std::move(caller));
  problem.routine = routine;
  return problem;
}

double flops_of_gemm(double m, double n, double k) { return 2.0 * m * n * k; }

TEST(TimeModelRectangular, GemmOnOneProcessorTakesTwoMnkFlops) {
  // C 96×160 = A 96×64 · B 64×160, nb = 32: every dimension a whole number of tiles.
  const Platform platform = platform_of({2e9});
  const Problem problem = gemm(96, 160, 64, CallerLayout{1, 1, 32, {}});
  for (const Candidate& c : {grid(1, 1, 32, {0}), caller_layout_candidate(problem)}) {
    const auto p = predict(platform, problem, c);
    EXPECT_NEAR(p.time.compute, flops_of_gemm(96, 160, 64) / 2e9, 1e-15) << c.label;
    EXPECT_EQ(p.time.panel, 0.0);
    EXPECT_EQ(p.time.communication, 0.0);  // nothing to send on one processor
  }
}

TEST(TimeModelRectangular, GemmOnTwoProcessorsWaitsForTheSlowerShare) {
  const Platform platform = platform_of({3e9, 1e9});
  // 1×2 grid: C's 5 tile columns go 0, 1, 0, 1, 0 -> 96 columns on P0, 64 on P1.
  const Problem wide = gemm(96, 160, 64, CallerLayout{1, 2, 32, {}});
  const double by_columns = std::max(flops_of_gemm(96, 96, 64) / 3e9, flops_of_gemm(96, 64, 64) / 1e9);
  EXPECT_NEAR(predict(platform, wide, grid(1, 2, 32, {0, 1})).time.compute, by_columns, 1e-15);
  // 2×1 grid: C's 3 tile rows go 0, 1, 0 -> 64 rows on P0, 32 on P1.
  const double by_rows = std::max(flops_of_gemm(64, 160, 64) / 3e9, flops_of_gemm(32, 160, 64) / 1e9);
  EXPECT_NEAR(predict(platform, wide, grid(2, 1, 32, {0, 1})).time.compute, by_rows, 1e-15);
  // K the largest dimension: C 64×32 is one tile column, so P0 does everything in 5 steps.
  const Problem deep = gemm(64, 32, 160, CallerLayout{1, 2, 32, {}});
  EXPECT_NEAR(predict(platform, deep, grid(1, 2, 32, {0, 1})).time.compute,
              flops_of_gemm(64, 32, 160) / 3e9, 1e-15);
}

TEST(TimeModelRectangular, CallerLayoutIsPricedOnItsOwnBlocks) {
  // MB = 64, NB = 32: C 128×96 is 2×3 tiles of 64×32 and K = 64 two steps; the flops are still
  // exactly 2mnk.
  const Platform platform = platform_of({1e9});
  CallerLayout caller{1, 1, 32, {}};
  caller.row_block = 64;
  const Problem problem = gemm(128, 96, 64, caller);
  EXPECT_NEAR(predict(platform, problem, caller_layout_candidate(problem)).time.compute,
              flops_of_gemm(128, 96, 64) / 1e9, 1e-15);
  // A submatrix starting 16 rows into its first 32-row block: C's 96 rows span 4 block rows
  // (16 + 32 + 32 + 16), each priced as a whole tile.
  caller.row_block = 0;
  caller.row_offset = 16;
  const Problem offset = gemm(96, 64, 64, caller);
  const double tile_update = 2.0 * 32 * 32 * 32;
  EXPECT_NEAR(predict(platform, offset, caller_layout_candidate(offset)).time.compute,
              4 * 2 * 2 * tile_update / 1e9, 1e-15);
}

TEST(TimeModelRectangular, LuFactorsMinMnColumns) {
  // One processor, nb = 32, hetscal's kernel (lu_steps.hpp). Tall 128×64 (4×2 tiles), two
  // steps: the trailing update is 3×1 tiles then 2×0; the panels are 4 and 3 tiles (getrf of
  // h tiles: h·nb³ − nb³/3), the U row blocks 1 and 0 tiles. A wide 64×128 matrix: updates
  // 1×3 then 0×2, panels 2 and 1, row blocks 3 and 2.
  const Platform platform = platform_of({1e9});
  const double cube = 32.0 * 32 * 32;
  const CallerLayout caller{1, 1, 32, {}};
  const auto tall = predict(platform, factorisation(Routine::LU, 128, 64, caller), grid(1, 1, 32, {0}));
  EXPECT_NEAR(tall.time.compute, 3 * 2 * cube / 1e9, 1e-15);
  EXPECT_NEAR(tall.time.panel, (4 + 1 + 3 - 2.0 / 3.0) * cube / 1e9, 1e-15);
  const auto wide = predict(platform, factorisation(Routine::LU, 64, 128, caller), grid(1, 1, 32, {0}));
  EXPECT_NEAR(wide.time.compute, 3 * 2 * cube / 1e9, 1e-15);
  EXPECT_NEAR(wide.time.panel, (2 + 3 + 1 + 2 - 2.0 / 3.0) * cube / 1e9, 1e-15);
}

/// Elements of an m×n matrix whose owner differs between the caller's layout (ScaLAPACK's
/// rule, offsets included) and a block-cyclic candidate grid.
double elements_changing_owner(std::size_t m, std::size_t n, const CallerLayout& caller,
                               const Candidate& grid_candidate) {
  double moved = 0.0;
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t gr = (i + caller.row_offset) / caller.mb() % caller.grid_rows;
      const std::size_t gc = (j + caller.col_offset) / caller.nb() % caller.grid_cols;
      const std::size_t cr = i / grid_candidate.tile % grid_candidate.rows;
      const std::size_t cc = j / grid_candidate.tile % grid_candidate.cols;
      moved += caller.processor_at[gr * caller.grid_cols + gc] !=
               grid_candidate.owner[cr * grid_candidate.cols + cc];
    }
  return moved;
}

TEST(TimeModelRectangular, RedistributionCountsEachMatrixThatMoves) {
  const Platform platform = platform_of({1e9, 1e9, 1e9, 1e9});
  CallerLayout caller{2, 2, 16, {0, 1, 2, 3}};
  caller.row_block = 24;
  caller.row_offset = 5;
  caller.col_offset = 3;
  Problem problem = gemm(150, 100, 70, caller);
  const Candidate plan = grid(2, 2, 16, {0, 2, 1, 3});
  const double a = elements_changing_owner(150, 70, caller, plan);
  const double b = elements_changing_owner(70, 100, caller, plan);
  const double c = elements_changing_owner(150, 100, caller, plan);
  ASSERT_GT(c, 0.0);

  const auto in_place = predict(platform, problem, caller_layout_candidate(problem));
  EXPECT_EQ(in_place.time.redistribution, 0.0);
  EXPECT_EQ(in_place.moved_bytes, 0.0);

  const auto reading_c = predict(platform, problem, plan);
  EXPECT_DOUBLE_EQ(reading_c.moved_bytes, 8.0 * (a + b + 2.0 * c));  // C in and out
  problem.c_read = false;
  const auto not_reading_c = predict(platform, problem, plan);
  EXPECT_DOUBLE_EQ(reading_c.moved_bytes - not_reading_c.moved_bytes, 8.0 * c);
  EXPECT_LT(not_reading_c.time.redistribution, reading_c.time.redistribution);
  EXPECT_EQ(not_reading_c.time.compute, reading_c.time.compute);

  // A factorisation moves its one matrix in and out.
  const Problem lu = factorisation(Routine::LU, 150, 100, caller);
  EXPECT_DOUBLE_EQ(predict(platform, lu, plan).moved_bytes, 8.0 * 2.0 * c);
}

TEST(TimeModelRectangular, MemoryHoldsEveryMatrixAndTwoPanels) {
  // GEMM 96×160×64 on one processor: A, B and C hold 6144 + 10240 + 15360 elements, and the
  // workspace is a 96×32 column panel and a 32×160 row panel.
  const double memory = 1e6;
  const Platform platform = platform_of({1e9}, memory);
  const Problem problem = gemm(96, 160, 64, CallerLayout{1, 1, 32, {}});
  const double arrays = 8.0 * (6144 + 10240 + 15360), workspace = 8.0 * (96 + 160) * 32;
  EXPECT_DOUBLE_EQ(predict(platform, problem, caller_layout_candidate(problem)).memory_fraction,
                   (arrays + workspace) / memory);
  EXPECT_DOUBLE_EQ(predict(platform, problem, grid(1, 1, 32, {0})).memory_fraction,
                   (2.0 * arrays + workspace) / memory);  // the caller's arrays and the copy
}

std::string message_of(const Platform& platform, const Problem& problem, const Candidate& c) {
  try {
    predict(platform, problem, c);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "(accepted)";
}

TEST(TimeModelRectangular, RefusesRectangularCholesky) {
  const Platform platform = platform_of({1e9});
  const CallerLayout caller{1, 1, 16, {}};
  EXPECT_NE(message_of(platform, factorisation(Routine::Cholesky, 80, 100, caller), grid(1, 1, 16, {0}))
                .find("Cholesky needs a square matrix; got 80 x 100"),
            std::string::npos);
  const Problem square = factorisation(Routine::Cholesky, 100, 100, caller);
  EXPECT_NO_THROW(predict(platform, square, grid(1, 1, 16, {0})));
  Problem rectangular = square;
  rectangular.m = 60;
  EXPECT_THROW(simulate_steps(platform, rectangular, ownership_of(grid(1, 1, 16, {0}), 100)),
               InvalidArgument);
}

TEST(TimeModelRectangular, RefusesCallerOffsetsOutsideTheirBlock) {
  const Platform platform = platform_of({1e9, 1e9});
  CallerLayout caller{1, 2, 32, {}};
  caller.row_offset = 32;
  const Problem rows = gemm(100, 100, 100, caller);
  EXPECT_NE(message_of(platform, rows, grid(1, 2, 32, {0, 1})).find("row offset 32 must be smaller than the block 32"),
            std::string::npos);
  EXPECT_THROW(caller_layout_candidate(rows), InvalidArgument);
  caller.row_offset = 0;
  caller.col_block = 8;
  caller.col_offset = 8;
  EXPECT_NE(message_of(platform, gemm(100, 100, 100, caller), grid(1, 2, 32, {0, 1}))
                .find("column offset 8 must be smaller than the block 8"),
            std::string::npos);
}

TEST(TimeModelRectangular, RefusesALayoutSmallerThanTheProblem) {
  // GEMM's steps run over K: a layout of C's 64×64 alone does not reach K = 100.
  const Platform platform = platform_of({1e9});
  const Problem problem = gemm(64, 64, 100, CallerLayout{1, 1, 16, {}});
  EXPECT_THROW(simulate_steps(platform, problem, ownership_of(grid(1, 1, 16, {0}), 64)),
               InvalidArgument);
  EXPECT_NO_THROW(simulate_steps(platform, problem,
                                 ownership_of(grid(1, 1, 16, {0}), step_layout_shape(problem))));
}

}  // namespace
}  // namespace hetscal::core

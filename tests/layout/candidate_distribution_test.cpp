#include "layout/candidate_distribution.hpp"

#include <gtest/gtest.h>

#include "core/common/error.hpp"
#include "core/planners/cholesky_plan.hpp"
#include "layout/cartesian_distribution.hpp"

namespace hetscal::layout {
namespace {

core::Platform platform_of(const std::vector<double>& speeds) {
  core::Platform p;
  for (double s : speeds) p.processors.push_back({s, 1.0e12});
  p.network = {1.0e-5, 1.0e8, core::NetworkKind::SharedBus, {}};
  return p;
}

// Every candidate choose_cholesky_plan priced, as a Distribution, owns each tile as the time
// model's TileOwnership says (N = 1000 with a partial last tile).
TEST(CandidateDistribution, OwnsEveryTileAsPriced) {
  const core::Platform platform = platform_of({3.0e9, 3.0e9, 2.0e9, 2.0e9, 1.0e9, 1.0e9, 1.0e9});
  core::CholeskyPlanOptions options;
  options.tile_sizes = {48, 96};
  const std::int64_t n = 1000;
  const core::CholeskyChoice choice = core::choose_cholesky_plan(platform, n, {1, 1, 64, {0}}, options);
  std::size_t checked = 0;
  for (const core::CholeskyCandidate& c : choice.priced) {
    const core::Candidate candidate = core::built_candidate(c);  // an unpriced grid is a sketch
    if (candidate.kind == core::CandidateKind::CallerLayout) {
      EXPECT_THROW(distribution_of(candidate, n, 7), InvalidArgument);
      continue;
    }
    const auto d = distribution_of(candidate, n, 7);
    const core::TileOwnership t = core::ownership_of(candidate, static_cast<std::size_t>(n));
    ASSERT_EQ(d->rows().count(), static_cast<std::int64_t>(t.tiles()));
    EXPECT_EQ(d->is_cartesian(), candidate.kind == core::CandidateKind::Cartesian);
    for (std::int64_t i = 0; i < d->rows().count(); ++i)
      for (std::int64_t j = 0; j < d->cols().count(); ++j)
        ASSERT_EQ(static_cast<std::size_t>(d->owner({i, j})),
                  t.at(t.row_class[static_cast<std::size_t>(i)], t.col_class[static_cast<std::size_t>(j)]))
            << candidate.label << " tile " << i << ", " << j;
    ++checked;
  }
  EXPECT_GT(checked, 50u);
}

// The recipe of cholesky_plan.hpp: an ordered Cartesian choice is CartesianDistribution with
// row_map = row_order, col_map = col_order (one period) — the same owners.
TEST(CandidateDistribution, HeaderRecipeForOrderedGrids) {
  core::CholeskyPlanOptions options;
  options.kinds = {core::CholeskyLayoutKind::HeterogeneousGrid};
  options.tile_sizes = {50};
  const core::CholeskyChoice choice =
      core::choose_cholesky_plan(platform_of({4.0e9, 2.0e9, 1.0e9, 1.0e9}), 2000, {1, 1, 64, {0}}, options);
  const core::Candidate& c = choice.candidate;
  ASSERT_FALSE(c.row_order.empty());
  std::vector<int> row_map(c.row_order.begin(), c.row_order.end()), col_map(c.col_order.begin(), c.col_order.end());
  const CartesianDistribution recipe(TileSplit(2000, 50), TileSplit(2000, 50), row_map, col_map,
                                     ProcessGrid(static_cast<int>(c.rows), static_cast<int>(c.cols),
                                                 std::vector<int>(c.owner.begin(), c.owner.end()), 4));
  const auto helper = distribution_of(c, 2000, 4);
  for (std::int64_t i = 0; i < 40; ++i)
    for (std::int64_t j = 0; j < 40; ++j) EXPECT_EQ(recipe.owner({i, j}), helper->owner({i, j}));
}

TEST(CandidateDistribution, RefusesBadInput) {
  core::Candidate c;
  c.kind = core::CandidateKind::Pattern;
  c.label = "p";
  c.tile = 10;
  c.rows = 1;
  c.cols = 2;
  c.owner = {0, 3};
  EXPECT_THROW(distribution_of(c, 100, 3), InvalidArgument);  // rank 3 of 3
  EXPECT_NO_THROW(distribution_of(c, 100, 4));
  EXPECT_THROW(distribution_of(c, 0, 4), InvalidArgument);
  c.owner = {0};
  EXPECT_THROW(distribution_of(c, 100, 4), InvalidArgument);  // 1 owner for 1x2
}

}  // namespace
}  // namespace hetscal::layout

// The LU layout the runtime plans (runtime/getrf_plan.hpp): square tiles over the whole M×N
// matrix, owners those of the priced grid (its tile orders) or pattern (its owner table), the
// matrix shared in proportion to speed, the panel rank handed to the kernel as priced, the
// caller's layout kept where only it is allowed, bad calls refused.
#include "runtime/getrf_plan.hpp"

#include <gtest/gtest.h>

#include <set>

#include "core/common/error.hpp"
#include "lu_layout_test_support.hpp"

namespace hetscal::runtime {
namespace {

using core::LuLayoutKind;

// An M×N LU on the caller's 1×P block-cyclic grid (blocks of 64).
core::Problem lu_on_caller_row(std::size_t m, std::size_t n, std::size_t ranks) {
  return on_caller_row(core::Routine::LU, m, n, ranks);
}

TEST(LuLayout, RectangularMatricesAreTiledAndOwnedAsPriced) {
  for (const std::vector<double>& speeds : {std::vector<double>{1, 3}, {1, 2, 3, 4}, {3, 1, 2, 2, 1, 3}}) {
    for (const auto& [m, n] : {std::pair<std::int64_t, std::int64_t>{900, 500}, {300, 1000}, {777, 777}}) {
      const LuLayout plan = choose_lu_layout(processes(speeds), lu_on_caller_row(m, n, speeds.size()), hetscal_layouts());
      ASSERT_FALSE(plan.keeps_caller_layout());
      ASSERT_TRUE(plan.a);
      const layout::Distribution& a = *plan.a;
      EXPECT_EQ(a.rows().extent(), m);
      EXPECT_EQ(a.cols().extent(), n);
      EXPECT_EQ(a.rows().block(), plan.tile);
      EXPECT_EQ(a.cols().block(), plan.tile);
      EXPECT_EQ(a.num_ranks(), static_cast<int>(speeds.size()));
      const std::set<std::size_t> used(plan.ranks.begin(), plan.ranks.end());
      for (std::int64_t i = 0; i < a.rows().count(); ++i)
        for (std::int64_t j = 0; j < a.cols().count(); ++j) {
          const auto owner = static_cast<std::size_t>(a.owner({i, j}));
          ASSERT_EQ(owner, priced_owner(plan.candidate, static_cast<std::size_t>(i), static_cast<std::size_t>(j)))
              << plan.description << " tile " << i << "," << j;
          ASSERT_TRUE(used.count(owner)) << owner;
        }
      EXPECT_NE(plan.description.find("tile " + std::to_string(plan.tile)), std::string::npos) << plan.description;
    }
  }
}

TEST(LuLayout, TheMatrixIsSharedInProportionToSpeed) {
  const LuLayout plan = choose_lu_layout(processes({1, 3}), lu_on_caller_row(1500, 1200, 2), hetscal_layouts());
  const double ratio = elements_ratio(*plan.a, 1, 0);
  EXPECT_GT(ratio, 2.5) << plan.description;
  EXPECT_LT(ratio, 3.5) << plan.description;
}

// The kernel gets the panel rank the model priced, and with Fastest every rank's speed.
TEST(LuLayout, ThePanelRankIsHandedToTheKernelAsPriced) {
  for (const std::vector<double>& speeds : {std::vector<double>{1, 1, 1, 1}, {1, 1, 1, 8}, {1, 2, 4, 8}}) {
    const core::Platform platform = processes(speeds, 1e-5, 1e9);
    const LuLayout plan = choose_lu_layout(platform, lu_on_caller_row(2000, 2000, 4), hetscal_layouts());
    if (plan.candidate.panel_rank == core::PanelRank::Fastest) {
      EXPECT_EQ(plan.options.panel_rank, kernels::LuPanelRank::Fastest) << plan.description;
      ASSERT_EQ(plan.options.rank_speeds.size(), speeds.size());
      for (std::size_t r = 0; r < speeds.size(); ++r)
        EXPECT_EQ(plan.options.rank_speeds[r], platform.processors[r].speed_flops);
    } else {
      EXPECT_EQ(plan.options.panel_rank, kernels::LuPanelRank::DiagonalOwner) << plan.description;
    }
  }
}

// Two ranks, one three times slower, a tall 8000×1000 matrix (whose panels weigh most) on the
// heterogeneous pattern (whose tile columns both ranks share): the model factorises the
// panels on the fast rank, and the kernel is told so.
TEST(LuLayout, TheFastRankFactorisesThePanelsWhereThatIsPredictedFaster) {
  const LuLayout plan = choose_lu_layout(processes({3, 1}, 1e-5, 1e9), lu_on_caller_row(8000, 1000, 2),
                                         {LuLayoutKind::HeteroPattern});
  ASSERT_EQ(plan.candidate.panel_rank, core::PanelRank::Fastest) << plan.description;
  EXPECT_EQ(plan.options.panel_rank, kernels::LuPanelRank::Fastest);
  EXPECT_EQ(plan.options.rank_speeds, (std::vector<double>{3e9, 1e9}));
  EXPECT_NE(plan.description.find("/fast"), std::string::npos) << plan.description;
}

TEST(LuLayout, OnlyTheCallersLayoutAllowedIsKept) {
  const LuLayout kept = choose_lu_layout(processes({1, 4}), lu_on_caller_row(1000, 800, 2), {LuLayoutKind::CallerLayout});
  EXPECT_TRUE(kept.keeps_caller_layout());
  EXPECT_EQ(kept.a, nullptr);
  EXPECT_EQ(kept.options.panel_rank, kernels::LuPanelRank::DiagonalOwner);
  EXPECT_NE(kept.description.find("caller layout"), std::string::npos) << kept.description;
}

TEST(LuLayout, RefusesOtherCalls) {
  const core::Platform platform = processes({1, 2});
  core::Problem cholesky = lu_on_caller_row(100, 100, 2);
  cholesky.routine = core::Routine::Cholesky;
  EXPECT_THROW(choose_lu_layout(platform, cholesky, hetscal_layouts()), InvalidArgument);
  EXPECT_THROW(choose_lu_layout(platform, lu_on_caller_row(100, 0, 2), hetscal_layouts()), InvalidArgument);
  EXPECT_THROW(choose_lu_layout(platform, lu_on_caller_row(100, 100, 2), {}), InvalidArgument);
  EXPECT_THROW(choose_lu_layout(platform, lu_on_caller_row(100, 100, 3), hetscal_layouts()), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::runtime

// The QR layout the runtime plans (runtime/geqrf_plan.hpp): the LU's families priced by the
// QR time model (the core planner's QR choice, not its LU one), tiled and owned as priced,
// the panel rank handed to the kernel, the obvious winners, bad calls refused naming them.
#include "runtime/geqrf_plan.hpp"

#include <gtest/gtest.h>

#include <string>

#include "core/common/error.hpp"
#include "kernels/qr.hpp"
#include "lu_layout_test_support.hpp"

namespace hetscal::runtime {
namespace {

using core::LuLayoutKind;

core::Problem qr_on_caller_row(std::size_t m, std::size_t n, std::size_t ranks) {
  return on_caller_row(core::Routine::QR, m, n, ranks);
}

TEST(QrLayout, IsTheQrPlannersChoiceTiledAndOwnedAsPriced) {
  for (const std::vector<double>& speeds : {std::vector<double>{1, 3}, {1, 2, 3, 4}}) {
    for (const auto& [m, n] : {std::pair<std::size_t, std::size_t>{900, 500}, {300, 1000}}) {
      const core::Platform platform = processes(speeds);
      const core::Problem problem = qr_on_caller_row(m, n, speeds.size());
      const LuLayout plan = choose_qr_layout(platform, problem, hetscal_layouts());
      core::LuPlanOptions options;
      options.kinds = hetscal_layouts();
      const core::LuChoice qr = core::choose_qr_plan(platform, m, n, problem.caller, options);
      EXPECT_EQ(plan.predicted_s, qr.predicted_s);
      EXPECT_EQ(plan.candidate.label, qr.candidate.label);
      ASSERT_TRUE(plan.a);
      const layout::Distribution& a = *plan.a;
      EXPECT_EQ(a.rows().extent(), static_cast<std::int64_t>(m));
      EXPECT_EQ(a.cols().extent(), static_cast<std::int64_t>(n));
      EXPECT_EQ(a.rows().block(), plan.tile);
      for (std::int64_t i = 0; i < a.rows().count(); ++i)
        for (std::int64_t j = 0; j < a.cols().count(); ++j)
          ASSERT_EQ(static_cast<std::size_t>(a.owner({i, j})),
                    priced_owner(plan.candidate, static_cast<std::size_t>(i),
                                 static_cast<std::size_t>(j)))
              << plan.description << " tile " << i << "," << j;
    }
  }
}

// The same call as an LU is priced by another model: the predicted times differ.
TEST(QrLayout, IsPricedAsAQrNotAnLu) {
  const core::Platform platform = processes({1, 2, 3, 4});
  const LuLayout qr =
      choose_qr_layout(platform, qr_on_caller_row(2000, 1500, 4), hetscal_layouts());
  const LuLayout lu = choose_lu_layout(platform, on_caller_row(core::Routine::LU, 2000, 1500, 4),
                                       hetscal_layouts());
  EXPECT_GT(qr.predicted_s, 1.5 * lu.predicted_s);  // QR's flops are twice the LU's
}

TEST(QrLayout, TheMatrixIsSharedInProportionToSpeed) {
  const LuLayout plan =
      choose_qr_layout(processes({1, 3}), qr_on_caller_row(1500, 1200, 2), hetscal_layouts());
  const double ratio = elements_ratio(*plan.a, 1, 0);
  EXPECT_GT(ratio, 2.5) << plan.description;
  EXPECT_LT(ratio, 3.5) << plan.description;
}

// Two ranks, one three times slower, a tall 8000×1000 matrix (whose panels weigh most) on the
// heterogeneous pattern: the model factorises the panels on the fast rank, and the kernel is
// told so.
TEST(QrLayout, TheFastRankFactorisesThePanelsWhereThatIsPredictedFaster) {
  const core::Platform platform = processes({3, 1}, 1e-5, 1e9);
  const LuLayout plan =
      choose_qr_layout(platform, qr_on_caller_row(8000, 1000, 2), {LuLayoutKind::HeteroPattern});
  ASSERT_EQ(plan.candidate.panel_rank, core::PanelRank::Fastest) << plan.description;
  EXPECT_EQ(plan.options.panel_rank, kernels::QrPanelRank::Fastest);
  EXPECT_EQ(plan.options.rank_speeds, (std::vector<double>{3e9, 1e9}));
}

TEST(QrLayout, ObviousWinners) {
  const LuLayout equal =
      choose_qr_layout(processes({1, 1, 1, 1}), qr_on_caller_row(3000, 3000, 4), all_lu_layouts());
  EXPECT_TRUE(equal.kind == LuLayoutKind::CallerLayout || equal.kind == LuLayoutKind::BlockCyclic)
      << equal.description;
  EXPECT_EQ(equal.ranks.size(), 4u);
  const LuLayout slow = choose_qr_layout(processes({1, 1, 1, 0.01}),
                                         qr_on_caller_row(3000, 3000, 4), all_lu_layouts());
  EXPECT_EQ(slow.ranks, (std::vector<std::size_t>{0, 1, 2})) << slow.description;
  const LuLayout kept = choose_qr_layout(processes({1, 4}), qr_on_caller_row(1000, 800, 2),
                                         {LuLayoutKind::CallerLayout});
  EXPECT_TRUE(kept.keeps_caller_layout());
  EXPECT_EQ(kept.a, nullptr);
}

TEST(QrLayout, RefusesOtherCallsNamingThem) {
  const core::Platform platform = processes({1, 2});
  const auto message_of = [&](const core::Problem& problem,
                              const std::vector<LuLayoutKind>& kinds) -> std::string {
    try {
      choose_qr_layout(platform, problem, kinds);
    } catch (const InvalidArgument& e) {
      return e.what();
    }
    return "no InvalidArgument";
  };
  EXPECT_NE(message_of(on_caller_row(core::Routine::LU, 100, 100, 2), hetscal_layouts())
                .find("QR problems, not LU"),
            std::string::npos);
  EXPECT_NE(message_of(qr_on_caller_row(100, 0, 2), hetscal_layouts()).find("N >= 1"),
            std::string::npos);
  EXPECT_NE(message_of(qr_on_caller_row(100, 100, 2), {}).find("at least one kind"),
            std::string::npos);
  EXPECT_NE(message_of(qr_on_caller_row(100, 100, 3), hetscal_layouts()).find("processor"),
            std::string::npos);
}

}  // namespace
}  // namespace hetscal::runtime

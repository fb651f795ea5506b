// The planner for QR (core/planners/lu_plan.hpp, choose_qr_plan): the LU's candidates priced by the
// QR time model; the obvious winner in clear cases, the choice the fastest of what it priced as a
// QR, memory limits, and bad input refused naming choose_qr_plan.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "core/common/error.hpp"
#include "core/planners/lu_plan.hpp"
#include "core/time_models/qr_steps.hpp"
#include "core/time_models/time_model_steps.hpp"
#include "plan_test_support.hpp"

namespace hetscal::core {
namespace {

TEST(QrPlan, EqualSpeedsKeepTheCallerLayoutOrBlockCyclic) {
  const LuChoice choice = choose_qr_plan(planner_platform(std::vector<double>(4, 1.0e9)), 4000,
                                         4000, caller_grid(2, 2));
  EXPECT_TRUE(choice.kind == LuLayoutKind::CallerLayout || choice.kind == LuLayoutKind::BlockCyclic)
      << choice.candidate.label;
  EXPECT_EQ(choice.processors.size(), 4u);
}

TEST(QrPlan, OneRankFourTimesSlowerLeavesTheCallersLayout) {
  const Platform platform = planner_platform({1.0e9, 1.0e9, 1.0e9, 0.25e9});
  const LuChoice choice = choose_qr_plan(platform, 6000, 6000, caller_grid(2, 2));
  EXPECT_NE(choice.kind, LuLayoutKind::CallerLayout);
  EXPECT_LT(choice.predicted_s,
            0.8 * fastest_of(choice, LuLayoutKind::CallerLayout).prediction.total_s());
}

TEST(QrPlan, HundredTimesSlowerRankIsLeftOut) {
  const LuChoice choice =
      choose_qr_plan(planner_platform({1.0e9, 1.0e9, 1.0e9, 1.0e7}), 4000, 4000, caller_grid(2, 2));
  EXPECT_EQ(choice.processors, (std::vector<std::size_t>{0, 1, 2}));
}

// Every candidate is priced as a QR: hetscal's kernel (simulate_qr with the candidate's
// panel rank) away from the caller's layout, PDGEQRF on it; the choice is the fastest.
TEST(QrPlan, EveryCandidateIsPricedAsAQr) {
  const Platform platform =
      planner_platform({4.0e9, 2.0e9, 1.0e9, 1.0e9, 3.0e9}, 1.0e9, NetworkKind::SharedBus);
  const std::size_t m = 2600, n = 1500;
  const CallerLayout caller = caller_grid(1, 5);
  const LuChoice choice = choose_qr_plan(platform, m, n, caller, exhaustive<LuPlanOptions>());
  Problem qr;
  qr.routine = Routine::QR;
  qr.m = m;
  qr.n = n;
  qr.caller = caller;
  for (const LuCandidate& c : choice.priced) {
    const Candidate& candidate = c.prediction.candidate;
    const TimeBreakdown steps =
        c.kind == LuLayoutKind::CallerLayout
            ? simulate_steps(platform, qr, caller_ownership(qr, MatrixShape{m, n}))
            : simulate_qr(platform, ownership_of(candidate, MatrixShape{m, n}),
                          candidate.panel_rank);
    EXPECT_EQ(c.prediction.time.compute, steps.compute) << candidate.label;
    EXPECT_EQ(c.prediction.time.panel, steps.panel) << candidate.label;
    EXPECT_EQ(c.prediction.time.communication, steps.communication) << candidate.label;
    EXPECT_GE(c.prediction.total_s(), choice.predicted_s) << candidate.label;
  }
  for (LuLayoutKind kind : LuPlanOptions{}.kinds)
    EXPECT_NO_THROW(fastest_of(choice, kind)) << lu_layout_name(kind);
  EXPECT_TRUE(std::any_of(choice.priced.begin(), choice.priced.end(), [](const LuCandidate& c) {
    return c.prediction.candidate.panel_rank == PanelRank::Fastest;
  }));
}

// Memory just below what the unconstrained choice needs on its tightest processor: that
// choice is still priced but no longer chosen, and nothing chosen exceeds the memory.
TEST(QrPlan, NothingThatExceedsMemoryIsChosen) {
  const double plenty = 1.0e12;
  Platform platform =
      planner_platform({1.0e9, 1.0e9, 1.0e9, 1.0e7}, 1.0e9, NetworkKind::Switched, plenty);
  const LuChoice unconstrained = choose_qr_plan(platform, 4000, 4000, caller_grid(2, 2));
  const double needed =
      unconstrained.priced[unconstrained.chosen].prediction.memory_fraction * plenty;
  for (auto& p : platform.processors) p.memory_bytes = 0.99 * needed;
  const LuChoice choice = choose_qr_plan(platform, 4000, 4000, caller_grid(2, 2));
  EXPECT_TRUE(choice.priced[choice.chosen].prediction.fits_memory());
  EXPECT_GT(choice.predicted_s, unconstrained.predicted_s);
  for (const auto& c : choice.priced)  // a pruned candidate keeps no prediction
    if (c.priced && c.prediction.fits_memory()) {
      EXPECT_GE(c.prediction.total_s(), choice.predicted_s) << c.prediction.candidate.label;
    }
  for (auto& p : platform.processors) p.memory_bytes = 1.0e6;
  EXPECT_THROW(choose_qr_plan(platform, 4000, 4000, caller_grid(2, 2)), Error);
}

TEST(QrPlan, RefusesBadInputNamingIt) {
  const Platform platform = planner_platform({1.0e9, 1.0e9});
  const CallerLayout caller = caller_grid(1, 2);
  EXPECT_NE(message_of([&] {
              choose_qr_plan(platform, 0, 10, caller);
            }).find("choose_qr_plan: an M x N = 0 x 10"),
            std::string::npos);
  LuPlanOptions options;
  options.tile_sizes = {64, 0};
  EXPECT_NE(message_of([&] {
              choose_qr_plan(platform, 100, 100, caller, options);
            }).find("choose_qr_plan: tile size 0"),
            std::string::npos);
  options = {};
  options.kinds.clear();
  EXPECT_NE(message_of([&] {
              choose_qr_plan(platform, 100, 100, caller, options);
            }).find("choose_qr_plan: no kind"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              choose_qr_plan(platform, 100, 100, CallerLayout{1, 1, 64, {5}});
            }).find("processor 5"),
            std::string::npos);
}

}  // namespace
}  // namespace hetscal::core

// The decision rule: which rule forwards, in which order, that the prices are only asked for
// when the cheap rules let the call through, and how the predicted times decide.
#include "runtime/decision.hpp"

#include <gtest/gtest.h>

#include "core/common/error.hpp"

namespace hetscal::runtime {
namespace {

// An n×n×k PDGEMM on 4 ranks of speeds 1, 2, 3, 4.
DecisionInput square_call(std::int64_t n, std::int64_t k) {
  DecisionInput in;
  in.min_n = 0;
  in.dims = {n, n, k};
  in.flops = 2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(k);
  in.ranks = 4;
  in.speeds = {1, 2, 3, 4};
  return in;
}

// Both routes' predicted times, every route fitting.
Prices prices(double forward_s, double heterogeneous_s) {
  Prices p;
  p.forward_s = forward_s;
  p.heterogeneous_s = heterogeneous_s;
  return p;
}

// The decision as the route takes it: the rules that need no plan, then (only if they let
// the call through) the prices of a plan predicted `gain` times faster than ScaLAPACK;
// counts how often the prices were asked for.
Decision decide(const DecisionInput& in, double gain = 2.0, int* priced = nullptr) {
  if (std::optional<Decision> early = decide_before_pricing(in)) return *early;
  if (priced) ++*priced;
  return decide_by_prices(in, prices(1.0, 1.0 / gain));
}

TEST(RuntimeDecision, FasterPlanIsTakenOver) {
  const Decision d = decide(square_call(4000, 4000), 2.5);
  EXPECT_EQ(d.route, Route::Heterogeneous) << d.reason;
  EXPECT_DOUBLE_EQ(d.forward_s, 1.0);
  EXPECT_DOUBLE_EQ(d.heterogeneous_s, 0.4);
  EXPECT_NE(d.reason.find("vs ScaLAPACK 1 s (gain x2.50)"), std::string::npos) << d.reason;
}

TEST(RuntimeDecision, ARouteThatDoesNotFitIsForwardedEvenWhenForced) {
  DecisionInput in = square_call(4000, 4000);
  Prices faster = prices(1.0, 0.4);
  faster.no_route = "the copy route does not fit in memory: it needs more";
  const Decision d = decide_by_prices(in, faster);
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_EQ(d.reason.rfind("the copy route does not fit in memory", 0), 0u) << d.reason;
  in.force = true;
  EXPECT_EQ(decide_by_prices(in, faster).route, Route::Forward);
  faster.no_route.clear();
  EXPECT_EQ(decide_by_prices(in, faster).route, Route::Heterogeneous);
}

TEST(RuntimeDecision, SlowerPlanIsForwarded) {
  const Decision d = decide(square_call(400, 400), 0.5);
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_NE(d.reason.find("not faster"), std::string::npos) << d.reason;
}

TEST(RuntimeDecision, SinglePanelUpdatesAreForwardedWithoutPricing) {
  int priced = 0;
  DecisionInput in = square_call(4000, 64);
  in.single_panel_update = true;
  const Decision d = decide(in, 3.0, &priced);
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_NE(d.reason.find("rank-NB update"), std::string::npos) << d.reason;
  EXPECT_EQ(priced, 0) << "no plan is made for a call the cheap rules forward";
}

TEST(RuntimeDecision, RulesInOrder) {
  DecisionInput in = square_call(4000, 4000);
  in.disabled = true;
  in.configuration_problem = "bad";
  in.routine_allowed = false;
  EXPECT_NE(decide(in).reason.find("HETSCAL_DISABLE"), std::string::npos);
  in.disabled = false;
  EXPECT_EQ(decide(in).reason, "bad");
  in.configuration_problem.clear();
  EXPECT_EQ(decide(in).reason, "PDGEMM is not in HETSCAL_ROUTINES");
  in.routine_allowed = true;
  in.min_n = 4001;
  EXPECT_NE(decide(in).reason.find("HETSCAL_MIN_N=4001"), std::string::npos);
  in.min_n = 4000;  // min(M, N, K) = 4000 is not below
  in.unsupported = "a replicated operand";
  EXPECT_EQ(decide(in).reason, "a replicated operand");
  in.unsupported.clear();
  in.ranks = 1;
  in.speeds_problem = "no speeds configured";  // not asked: one process needs no speeds
  EXPECT_NE(decide(in).reason.find("single process"), std::string::npos);
  in.ranks = 4;
  const double flops = in.flops;
  in.min_flops_per_rank = 1e6;
  in.flops = 4 * in.min_flops_per_rank - 1.0;
  EXPECT_NE(decide(in).reason.find("too small to repay a take-over"), std::string::npos) << decide(in).reason;
  in.flops = flops;
  EXPECT_EQ(decide(in).reason, "no speeds configured");
  in.speeds_problem.clear();
  in.ranks = 1;
  in.force = true;  // forced, one process computes too (the testers' 1x1 grids)
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
  in.force = false;
  in.ranks = 4;
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
}

TEST(RuntimeDecision, TheRulesWithoutSpeedsLeaveTheSpeedsUnread) {
  // The probe waits for the first call these rules let through (context_state.hpp's
  // agree_probed_speeds): they must decide the same with the speeds still unknown.
  DecisionInput in = square_call(40, 40);  // 128,000 flops: 32,000 per rank
  in.min_flops_per_rank = 1e6;
  in.speeds.clear();
  ASSERT_TRUE(decide_without_speeds(in).has_value());
  EXPECT_NE(decide_without_speeds(in)->reason.find("3.2e+04 flops per rank, below HETSCAL_MIN_FLOPS=1000000"),
            std::string::npos)
      << decide_without_speeds(in)->reason;
  in = square_call(4000, 4000);
  in.min_flops_per_rank = 1e6;
  in.speeds.clear();
  EXPECT_FALSE(decide_without_speeds(in).has_value()) << "a large call needs the speeds";
  in.force = true;
  in.dims = {2, 2, 2};
  in.flops = 16.0;
  EXPECT_FALSE(decide_without_speeds(in).has_value()) << "forced, the smallest calls are taken too";
}

TEST(RuntimeDecision, MinNLooksAtTheSmallestDimension) {
  DecisionInput in = square_call(4000, 511);
  in.min_n = 512;
  EXPECT_EQ(decide(in).route, Route::Forward);
  EXPECT_NE(decide(in).reason.find("min(M,N,K) of 4000x4000x511 is below HETSCAL_MIN_N"),
            std::string::npos) << decide(in).reason;
  in.dims = {4000, 511};  // a factorization's M, N
  EXPECT_NE(decide(in).reason.find("min(M,N) of 4000x511"), std::string::npos);
}

TEST(RuntimeDecision, UniformSpeedsForwardUnlessForced) {
  DecisionInput in = square_call(4000, 4000);
  in.speeds = {2, 2, 2, 2};
  EXPECT_NE(decide(in).reason.find("uniform speeds"), std::string::npos);
  in.force = true;
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
  // Forcing overrides the predicted times and the rank-NB rule, never the size rule.
  DecisionInput small = square_call(40, 4);
  small.single_panel_update = true;
  small.force = true;
  EXPECT_EQ(decide(small, 0.1).route, Route::Heterogeneous);
  small.min_n = 41;
  EXPECT_EQ(decide(small, 0.1).route, Route::Forward);
}

TEST(RuntimeDecision, NoPlanMeansForward) {
  const Decision d = forward_unplanned("no heterogeneous plan: 2x1 tiles");
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_EQ(d.reason, "no heterogeneous plan: 2x1 tiles");
  EXPECT_EQ(d.forward_s, 0.0) << "an unplanned call is not priced, so not measured";
}

TEST(RuntimeDecision, CallsTheCheapRulesLetThroughAreLeftToThePrices) {
  EXPECT_FALSE(decide_before_pricing(square_call(4000, 4000)).has_value());
  DecisionInput in = square_call(4000, 4000);
  in.speeds = {2, 2, 2, 2};
  EXPECT_TRUE(decide_before_pricing(in).has_value());
}


TEST(RuntimeDecision, LedgerPricesUniformSpeedsAndCorrectsThePrediction) {
  core::RouteLedger ledger;
  int priced = 0;
  DecisionInput in = square_call(4000, 4000);
  const double gain = 1.0 / 1.2;  // hetscal predicted 1.2 s
  in.speeds = {2, 2, 2, 2};
  in.ledger = &ledger;
  in.shape_class = core::shape_class("PDGEMM", in.dims);
  Decision d = decide(in, gain, &priced);
  EXPECT_EQ(priced, 1);  // priced, so that ScaLAPACK's time can be measured against it
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_NE(d.reason.find("equal speeds, hetscal not measured"), std::string::npos) << d.reason;
  ledger.record(in.shape_class, core::MeasuredRoute::Forward, 1.0, 1.0);
  ledger.record(in.shape_class, core::MeasuredRoute::Forward, 1.0, 1.0);
  d = decide(in, gain);
  EXPECT_EQ(d.route, Route::Heterogeneous);  // a trial: within 1.25x of ScaLAPACK
  EXPECT_NE(d.reason.find("trying hetscal"), std::string::npos) << d.reason;
  // Measured 1.3x faster than ScaLAPACK: homogeneous calls taken over, reason names it.
  ledger.record(in.shape_class, core::MeasuredRoute::Heterogeneous, 1.2 / 1.3, 1.2);
  ledger.record(in.shape_class, core::MeasuredRoute::Heterogeneous, 1.2 / 1.3, 1.2);
  d = decide(in, gain);
  EXPECT_EQ(d.route, Route::Heterogeneous);
  EXPECT_NE(d.reason.find("hetscal measured x0.77"), std::string::npos) << d.reason;
  ASSERT_TRUE(d.advice.has_value());
  EXPECT_NEAR(d.advice->heterogeneous_s, 1.2 / 1.3, 1e-12);
  EXPECT_DOUBLE_EQ(d.heterogeneous_s, 1.2);  // the model's own, kept for the measurement
}

}  // namespace
}  // namespace hetscal::runtime

// The decision rule: which rule forwards, in which order, that the prices are only asked for
// when the cheap rules let the call through, and how the predicted times decide.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "runtime/decision.hpp"

namespace hetscal::runtime {
namespace {

// An n×n×k PDGEMM on 4 ranks of speeds 1, 2, 3, 4 whose plan is predicted `gain` times
// faster than ScaLAPACK; counts how often the prices were asked for.
DecisionInput square_call(std::int64_t n, std::int64_t k, double gain = 2.0, int* priced = nullptr) {
  DecisionInput in;
  in.min_n = 0;
  in.dims = {n, n, k};
  in.ranks = 4;
  in.speeds = {1, 2, 3, 4};
  in.price = [=]() -> std::optional<Prices> {
    if (priced) ++*priced;
    return Prices{1.0, 1.0 / gain};
  };
  return in;
}

TEST(RuntimeDecision, FasterPlanIsTakenOver) {
  const Decision d = decide(square_call(4000, 4000, 2.5));
  EXPECT_EQ(d.route, Route::Heterogeneous) << d.reason;
  EXPECT_DOUBLE_EQ(d.forward_s, 1.0);
  EXPECT_DOUBLE_EQ(d.heterogeneous_s, 0.4);
  EXPECT_NE(d.reason.find("vs ScaLAPACK 1 s (gain x2.50)"), std::string::npos) << d.reason;
}

TEST(RuntimeDecision, SlowerPlanIsForwarded) {
  const Decision d = decide(square_call(40, 40, 0.5));
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_NE(d.reason.find("not faster"), std::string::npos) << d.reason;
}

TEST(RuntimeDecision, SinglePanelUpdatesAreForwardedWithoutPricing) {
  int priced = 0;
  DecisionInput in = square_call(4000, 64, 3.0, &priced);
  in.single_panel_update = true;
  const Decision d = decide(in);
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
  in.speeds_problem = "no speeds configured";
  EXPECT_EQ(decide(in).reason, "no speeds configured");
  in.speeds_problem.clear();
  in.ranks = 1;
  EXPECT_NE(decide(in).reason.find("single process"), std::string::npos);
  in.force = true;  // forced, one process computes too (the testers' 1x1 grids)
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
  in.force = false;
  in.ranks = 4;
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
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
  DecisionInput small = square_call(40, 4, 0.1);
  small.single_panel_update = true;
  small.force = true;
  EXPECT_EQ(decide(small).route, Route::Heterogeneous);
  small.min_n = 41;
  EXPECT_EQ(decide(small).route, Route::Forward);
}

TEST(RuntimeDecision, NoPlanMeansForward) {
  DecisionInput in = square_call(4000, 4000);
  in.price = [] { return std::optional<Prices>(); };
  EXPECT_NE(decide(in).reason.find("no heterogeneous plan fits 4000x4000x4000"), std::string::npos);
  in.price = []() -> std::optional<Prices> { throw InvalidArgument("2x1 tiles"); };
  EXPECT_NE(decide(in).reason.find("2x1 tiles"), std::string::npos);
}


TEST(RuntimeDecision, LedgerPricesUniformSpeedsAndCorrectsThePrediction) {
  core::RouteLedger ledger;
  int priced = 0;
  DecisionInput in = square_call(4000, 4000, 1.0 / 1.2, &priced);  // hetscal predicted 1.2 s
  in.speeds = {2, 2, 2, 2};
  in.ledger = &ledger;
  in.shape_class = core::shape_class("PDGEMM", in.dims);
  Decision d = decide(in);
  EXPECT_EQ(priced, 1);  // priced, so that ScaLAPACK's time can be measured against it
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_NE(d.reason.find("equal speeds, hetscal not measured"), std::string::npos) << d.reason;
  ledger.record(in.shape_class, core::MeasuredRoute::Forward, 1.0, 1.0);
  ledger.record(in.shape_class, core::MeasuredRoute::Forward, 1.0, 1.0);
  d = decide(in);
  EXPECT_EQ(d.route, Route::Heterogeneous);  // a trial: within 1.25x of ScaLAPACK
  EXPECT_NE(d.reason.find("trying hetscal"), std::string::npos) << d.reason;
  // Measured 1.3x faster than ScaLAPACK: homogeneous calls taken over, reason names it.
  ledger.record(in.shape_class, core::MeasuredRoute::Heterogeneous, 1.2 / 1.3, 1.2);
  ledger.record(in.shape_class, core::MeasuredRoute::Heterogeneous, 1.2 / 1.3, 1.2);
  d = decide(in);
  EXPECT_EQ(d.route, Route::Heterogeneous);
  EXPECT_NE(d.reason.find("hetscal measured x0.77"), std::string::npos) << d.reason;
  ASSERT_TRUE(d.advice.has_value());
  EXPECT_NEAR(d.advice->heterogeneous_s, 1.2 / 1.3, 1e-12);
  EXPECT_DOUBLE_EQ(d.heterogeneous_s, 1.2);  // the model's own, kept for the measurement
}

}  // namespace
}  // namespace hetscal::runtime

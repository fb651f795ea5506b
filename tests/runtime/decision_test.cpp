// The decision rule: which rule forwards, when the model takes a call over, and that the
// planned layout is only asked for when the cheap rules let the call through.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "shim/decision.hpp"
#include "kernels/gemm_layout.hpp"

namespace hetscal::shim {
namespace {

// An n×n×k call with block nb on a 2×2 caller grid holding ranks of speeds 1, 2, 3, 4, and
// the planned layout of those speeds.
DecisionInput square_call(std::int64_t n, std::int64_t k, std::int64_t nb, int* planned_calls = nullptr) {
  DecisionInput in;
  in.min_n = 0;
  in.m = in.n = n;
  in.k = k;
  in.caller_k_block = nb;
  in.ranks = 4;
  in.speeds = {1, 2, 3, 4};
  in.caller = {{n / 2, n - n / 2}, {n / 2, n - n / 2}, {1, 2, 3, 4}};
  in.planned = [=]() -> std::optional<GridLoad> {
    if (planned_calls) ++*planned_calls;
    return kernels::plan_gemm_layout({1, 2, 3, 4}, n, n, k).load;
  };
  return in;
}

TEST(ShimDecision, LargeHeterogeneousProductIsTakenOver) {
  const Decision d = decide(square_call(4000, 4000, 64));
  EXPECT_EQ(d.route, Route::Heterogeneous) << d.reason;
  EXPECT_LT(d.heterogeneous_s, d.forward_s);
  // The slowest rank (speed 1) holds a quarter of C on the caller's grid; the plan balances:
  // close to 2·n³ / (Σ speeds · rate), i.e. 2.5 times faster before redistribution.
  EXPECT_LT(d.heterogeneous_s, 0.5 * d.forward_s);
}

TEST(ShimDecision, RankNbUpdatesAreForwardedEvenWhenTheModelWouldGain) {
  for (std::int64_t nb : {32, 64, 128}) {
    int planned = 0;
    const Decision d = decide(square_call(4000, nb, nb, &planned));
    EXPECT_EQ(d.route, Route::Forward) << nb;
    EXPECT_NE(d.reason.find("rank-NB update"), std::string::npos) << d.reason;
    EXPECT_EQ(planned, 0) << "no plan is made for a call the cheap rules forward";
  }
}

TEST(ShimDecision, SmallProductsAreNotFasterOnThePlan) {
  const Decision d = decide(square_call(40, 40, 4));
  EXPECT_EQ(d.route, Route::Forward);
  EXPECT_NE(d.reason.find("not faster"), std::string::npos) << d.reason;
  EXPECT_GT(d.heterogeneous_s, d.forward_s);
}

TEST(ShimDecision, RulesInOrder) {
  DecisionInput in = square_call(4000, 4000, 64);
  in.disabled = true;
  in.configuration_problem = "bad";
  EXPECT_NE(decide(in).reason.find("HETSCAL_DISABLE"), std::string::npos);
  in.disabled = false;
  EXPECT_EQ(decide(in).reason, "bad");
  in.configuration_problem.clear();
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
  in.ranks = 4;
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
}

TEST(ShimDecision, MinNLooksAtTheSmallestDimension) {
  DecisionInput in = square_call(4000, 4000, 64);
  in.min_n = 512;
  in.k = 511;
  EXPECT_EQ(decide(in).route, Route::Forward);
  EXPECT_NE(decide(in).reason.find("below HETSCAL_MIN_N"), std::string::npos);
}

TEST(ShimDecision, UniformSpeedsForwardUnlessForced) {
  DecisionInput in = square_call(4000, 4000, 64);
  in.speeds = {2, 2, 2, 2};
  in.caller.speed = {2, 2, 2, 2};
  EXPECT_NE(decide(in).reason.find("uniform speeds"), std::string::npos);
  in.force = true;
  EXPECT_EQ(decide(in).route, Route::Heterogeneous);
  // Forcing skips the model (and the rank-NB rule), never the size rule.
  DecisionInput small = square_call(40, 4, 4);
  small.force = true;
  EXPECT_EQ(decide(small).route, Route::Heterogeneous);
  small.min_n = 41;
  EXPECT_EQ(decide(small).route, Route::Forward);
}

TEST(ShimDecision, NoPlanMeansForward) {
  DecisionInput in = square_call(4000, 4000, 64);
  in.planned = [] { return std::optional<GridLoad>(); };
  EXPECT_NE(decide(in).reason.find("no heterogeneous grid"), std::string::npos);
  in.planned = []() -> std::optional<GridLoad> { throw InvalidArgument("2x1 tiles"); };
  EXPECT_NE(decide(in).reason.find("2x1 tiles"), std::string::npos);
}

TEST(ShimDecision, ModelFiguresByHand) {
  ModelConstants c;
  c.fastest_flops = 1e9;
  c.bytes_per_second = 1e9;
  c.latency_s = 1e-5;
  // One cell row, two cells: 10×20 on speed 1 and 10×30 on speed 2 (the fastest), K = 5.
  const GridLoad load{{10}, {20, 30}, {1, 2}};
  const double cell0 = 2.0 * 10 * 20 * 5 / 0.5e9 + (10 + 20) * 5 * 8 / 1e9;
  const double cell1 = 2.0 * 10 * 30 * 5 / 1e9 + (10 + 30) * 5 * 8 / 1e9;
  EXPECT_DOUBLE_EQ(predicted_gemm_seconds(load, 5, 2.0, c), std::max(cell0, cell1));
  // 4 ranks: A 10×5, B 5×50, C 10×50 in and out; 3/4 of a quarter moves; 2 rounds of 3 messages.
  const double moved = (50.0 + 250.0 + 2 * 500.0) / 4 * 0.75 * 8;
  EXPECT_DOUBLE_EQ(predicted_redistribution_seconds(10, 50, 5, false, 4, c), moved / 1e9 + 6e-5);
  const double moved_beta0 = (50.0 + 250.0 + 500.0) / 4 * 0.75 * 8;
  EXPECT_DOUBLE_EQ(predicted_redistribution_seconds(10, 50, 5, true, 4, c), moved_beta0 / 1e9 + 6e-5);
}

}  // namespace
}  // namespace hetscal::shim

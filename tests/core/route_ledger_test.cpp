// Decisions from observation (core/adaptation/route_ledger.hpp): shape classes by hand, corrections
// as medians of measured/predicted ratios worked out by hand, and the choice they make in the
// scenarios of issue 12 (hetscal measured slower stops taking over; measured faster on equal
// speeds takes homogeneous calls; trials only after ScaLAPACK was measured, ended by one call
// measured slower; what one call alone pays added uncorrected).
#include "core/adaptation/route_ledger.hpp"

#include <gtest/gtest.h>

#include "core/common/error.hpp"

namespace {

using hetscal::InvalidArgument;
using hetscal::core::LedgerRule;
using hetscal::core::MeasuredRoute;
using hetscal::core::RouteLedger;
using hetscal::core::shape_class;

const char* const kClass = "PDGEMM 2^11x2^11x2^11";

// A ledger in which ScaLAPACK's route of kClass was measured twice at `ratio` its prediction.
RouteLedger with_scalapack_measured(double ratio) {
  RouteLedger ledger;
  ledger.record(kClass, MeasuredRoute::Forward, ratio, 1.0);
  ledger.record(kClass, MeasuredRoute::Forward, ratio, 1.0);
  return ledger;
}

TEST(RouteLedger, ShapeClassIsTheFloorOfLog2OfEachDimension) {
  EXPECT_EQ(shape_class("PDGEMM", {3000, 2048, 4095}), kClass);
  EXPECT_EQ(shape_class("PDGETRF", {4096, 1}), "PDGETRF 2^12x2^0");
  EXPECT_EQ(shape_class("PDPOTRF", {600}), "PDPOTRF 2^9");
  EXPECT_THROW(shape_class("PDGEMM", {0, 1, 1}), InvalidArgument);
}

TEST(RouteLedger, CorrectionIsTheMedianOfTheLastWindowOnceObservedEnough) {
  RouteLedger ledger;  // 2 observations, window 3
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 4.0, 2.0);
  EXPECT_EQ(ledger.correction(kClass, MeasuredRoute::Heterogeneous), 0.0);  // one call: unknown
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 3.0, 2.0);
  EXPECT_DOUBLE_EQ(ledger.correction(kClass, MeasuredRoute::Heterogeneous), (2.0 + 1.5) / 2);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 100.0, 2.0);  // a spike: median 2
  EXPECT_DOUBLE_EQ(ledger.correction(kClass, MeasuredRoute::Heterogeneous), 2.0);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 1.0, 2.0);  // window 1.5, 50, 0.5
  EXPECT_DOUBLE_EQ(ledger.correction(kClass, MeasuredRoute::Heterogeneous), 1.5);
  EXPECT_EQ(ledger.correction(kClass, MeasuredRoute::Forward), 0.0);
  EXPECT_EQ(ledger.correction("PDGEMM 2^12x2^12x2^12", MeasuredRoute::Heterogeneous), 0.0);
}

TEST(RouteLedger, WithoutMeasurementsThePredictionDecides) {
  const RouteLedger ledger;
  const auto faster = ledger.advise(kClass, 2.0, 1.0, false);
  EXPECT_EQ(faster.route, MeasuredRoute::Heterogeneous);
  EXPECT_FALSE(faster.measured);
  EXPECT_EQ(ledger.advise(kClass, 1.0, 2.0, false).route, MeasuredRoute::Forward);
  // Equal speeds, nothing measured: ScaLAPACK's.
  const auto equal = ledger.advise(kClass, 1.0, 0.5, true);
  EXPECT_EQ(equal.route, MeasuredRoute::Forward);
  EXPECT_FALSE(equal.trial);
}

TEST(RouteLedger, MeasuredSlowerStopsTakingOver) {
  // Ratios of 3 are believed only from two calls under this rule (believed_ratio 4).
  RouteLedger ledger(LedgerRule{2, 3, 1.25, 1, 4.0});
  // Predicted 1 s against ScaLAPACK's 2 s, measured 3 s twice: corrected 3 s > 2 s.
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 3.0, 1.0);
  EXPECT_EQ(ledger.advise(kClass, 2.0, 1.0, false).route, MeasuredRoute::Heterogeneous);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 3.0, 1.0);
  const auto measuring = ledger.advise(kClass, 2.0, 1.0, false);
  EXPECT_EQ(measuring.route, MeasuredRoute::Forward);
  EXPECT_TRUE(measuring.measured);
  EXPECT_FALSE(measuring.overrides_model);  // ScaLAPACK not measured yet
  EXPECT_DOUBLE_EQ(measuring.heterogeneous_s, 3.0);
  EXPECT_DOUBLE_EQ(measuring.forward_s, 2.0);
  EXPECT_EQ(measuring.why, "hetscal measured x3.00 its prediction (2 calls)");
  // ScaLAPACK measured as its model says: the class stays with ScaLAPACK, an override now.
  ledger.record(kClass, MeasuredRoute::Forward, 2.0, 2.0);
  ledger.record(kClass, MeasuredRoute::Forward, 2.2, 2.0);
  const auto decided = ledger.advise(kClass, 2.0, 1.0, false);
  EXPECT_EQ(decided.route, MeasuredRoute::Forward);
  EXPECT_TRUE(decided.overrides_model);
  EXPECT_DOUBLE_EQ(decided.forward_s, 2.0 * 1.05);
  EXPECT_EQ(decided.why,
            "hetscal measured x3.00 its prediction (2 calls), ScaLAPACK measured x1.05 its prediction (2 calls)");
  // ScaLAPACK later measured twice as slow as its model: hetscal wins again (3 s < 4 s).
  ledger.record(kClass, MeasuredRoute::Forward, 4.0, 2.0);
  ledger.record(kClass, MeasuredRoute::Forward, 4.0, 2.0);
  const auto again = ledger.advise(kClass, 2.0, 1.0, false);
  EXPECT_EQ(again.route, MeasuredRoute::Heterogeneous);
  EXPECT_FALSE(again.overrides_model);  // the model takes it over too
}

TEST(RouteLedger, EqualSpeedsTryHetscalOnlyAfterScaLAPACKWasMeasured) {
  RouteLedger ledger = with_scalapack_measured(1.0);
  const auto trial = ledger.advise(kClass, 1.0, 1.2, true);  // within the margin 1.25
  EXPECT_EQ(trial.route, MeasuredRoute::Heterogeneous);
  EXPECT_TRUE(trial.trial);
  EXPECT_FALSE(trial.overrides_model);
  EXPECT_EQ(ledger.advise(kClass, 1.0, 1.3, true).route, MeasuredRoute::Forward);  // beyond it
  // Hetscal's kernels measured 1.3x faster than predicted: 1.2 * 0.77 < 1, homogeneous calls
  // are taken over, and no longer as a trial.
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 0.77 * 1.2, 1.2);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 0.77 * 1.2, 1.2);
  const auto faster = ledger.advise(kClass, 1.0, 1.2, true);
  EXPECT_EQ(faster.route, MeasuredRoute::Heterogeneous);
  EXPECT_FALSE(faster.trial);
  EXPECT_TRUE(faster.overrides_model);
  EXPECT_NEAR(faster.heterogeneous_s, 0.924, 1e-12);
}

TEST(RouteLedger, WhatATrialPaysOnceDoesNotBarIt) {
  RouteLedger ledger = with_scalapack_measured(1.0);
  // Predicted 1.2 s, within the margin, plus 0.5 s of first touch: tried all the same.
  const auto trial = ledger.advise(kClass, 1.0, 1.2, true, 0.5);
  EXPECT_TRUE(trial.trial);
  EXPECT_EQ(trial.route, MeasuredRoute::Heterogeneous);
  EXPECT_DOUBLE_EQ(trial.heterogeneous_s, 1.7);  // what this call is expected to take
  // Beyond the margin without it, no first touch makes a trial.
  EXPECT_FALSE(ledger.advise(kClass, 1.0, 1.3, true, 0.0).trial);
}

TEST(RouteLedger, EqualSpeedsOneTrialCallMeasuredSlowerEndsTheTrial) {
  RouteLedger ledger = with_scalapack_measured(1.1);  // trial_verdict 1
  ASSERT_TRUE(ledger.advise(kClass, 1.0, 1.0, true).trial);
  // One trial call measured x1.2: 1.2 s against ScaLAPACK's corrected 1.1 s.
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 1.2, 1.0);
  EXPECT_EQ(ledger.correction(kClass, MeasuredRoute::Heterogeneous), 0.0);  // not yet known
  const auto ended = ledger.advise(kClass, 1.0, 1.0, true);
  EXPECT_EQ(ended.route, MeasuredRoute::Forward);
  EXPECT_FALSE(ended.trial);
  EXPECT_DOUBLE_EQ(ended.heterogeneous_s, 1.2);
  EXPECT_EQ(ended.why,
            "hetscal measured x1.20 its prediction (1 call), ScaLAPACK measured x1.10 its prediction (2 calls)");
}

TEST(RouteLedger, EqualSpeedsOneTrialCallMeasuredFasterGoesOnUntilKnown) {
  RouteLedger ledger = with_scalapack_measured(1.0);
  // Predicted 1.3 s, beyond the trial margin, but measured at 0.7 s: the trial goes on.
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 0.7, 1.3);
  const auto going_on = ledger.advise(kClass, 1.0, 1.3, true);
  EXPECT_EQ(going_on.route, MeasuredRoute::Heterogeneous);
  EXPECT_TRUE(going_on.trial);
  // A window of two calls is known: the ordinary comparison takes over.
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 0.8, 1.3);
  const auto known = ledger.advise(kClass, 1.0, 1.3, true);
  EXPECT_EQ(known.route, MeasuredRoute::Heterogeneous);
  EXPECT_FALSE(known.trial);
  EXPECT_NEAR(known.heterogeneous_s, 0.75, 1e-12);
}

TEST(RouteLedger, WhatOneCallAlonePaysIsAddedUncorrected) {
  RouteLedger ledger = with_scalapack_measured(1.0);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 0.9, 1.0);
  // 0.9 measured without the first touch; this call pays 0.2 s of it: 1.1 s > 1 s, forwarded.
  const auto first = ledger.advise(kClass, 1.0, 1.0, true, 0.2);
  EXPECT_EQ(first.route, MeasuredRoute::Forward);
  EXPECT_DOUBLE_EQ(first.heterogeneous_s, 1.1);
  // Once the memory is there (nothing paid once), the same class is taken over.
  EXPECT_EQ(ledger.advise(kClass, 1.0, 1.0, true).route, MeasuredRoute::Heterogeneous);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 0.9, 1.0);
  const auto corrected = ledger.advise(kClass, 2.0, 1.0, false, 0.5);
  EXPECT_DOUBLE_EQ(corrected.heterogeneous_s, 0.9 * 1.0 + 0.5);
  EXPECT_EQ(corrected.route, MeasuredRoute::Heterogeneous);
}

TEST(RouteLedger, EqualSpeedsMeasuredSlowerForward) {
  RouteLedger ledger = with_scalapack_measured(1.0);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 1.5, 1.1);
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 1.5, 1.1);
  const auto advice = ledger.advise(kClass, 1.0, 1.1, true);
  EXPECT_EQ(advice.route, MeasuredRoute::Forward);
  EXPECT_FALSE(advice.trial);
  EXPECT_FALSE(advice.overrides_model);  // the model forwards equal speeds too
}

TEST(RouteLedger, ClassesAreAddedAndForgotten) {
  RouteLedger ledger;
  EXPECT_FALSE(ledger.knows(kClass));
  ledger.add_class(kClass);
  EXPECT_TRUE(ledger.knows(kClass));
  EXPECT_EQ(ledger.correction(kClass, MeasuredRoute::Forward), 0.0);  // room, no ratio
  ledger.record(kClass, MeasuredRoute::Forward, 1.0, 1.0);
  ledger.record(kClass, MeasuredRoute::Forward, 1.0, 1.0);
  ledger.forget_class(kClass);
  EXPECT_FALSE(ledger.knows(kClass));
  EXPECT_EQ(ledger.correction(kClass, MeasuredRoute::Forward), 0.0);
}

TEST(RouteLedger, OneCallFarAboveItsPredictionIsBelievedAndItsRouteNotTakenAgain) {
  RouteLedger ledger;  // believed_ratio 2
  // A skinny PDGEMM predicted 0.146 s that took 4.96 s (issue 29): x33.97 from one call.
  ledger.record(kClass, MeasuredRoute::Heterogeneous, 4.96, 0.146);
  EXPECT_NEAR(ledger.correction(kClass, MeasuredRoute::Heterogeneous), 4.96 / 0.146, 1e-12);
  const auto advice = ledger.advise(kClass, 0.4, 0.146, false);
  EXPECT_EQ(advice.route, MeasuredRoute::Forward);
  EXPECT_NEAR(advice.heterogeneous_s, 4.96, 1e-12);
  EXPECT_EQ(advice.why, "hetscal measured x33.97 its prediction (1 call)");
  // ScaLAPACK's calls, measured as predicted, do not bring hetscal back.
  for (int call = 0; call < 5; ++call) {
    ledger.record(kClass, MeasuredRoute::Forward, 0.4, 0.4);
    EXPECT_EQ(ledger.advise(kClass, 0.4, 0.146, false).route, MeasuredRoute::Forward);
  }
  // At most twice its prediction, one call is not believed: a page fault never decides.
  RouteLedger near;
  near.record(kClass, MeasuredRoute::Heterogeneous, 2.0, 1.0);
  EXPECT_EQ(near.correction(kClass, MeasuredRoute::Heterogeneous), 0.0);
  EXPECT_EQ(near.advise(kClass, 1.5, 1.0, false).route, MeasuredRoute::Heterogeneous);
  // The same rule holds for ScaLAPACK's route: measured 3x too slow once, hetscal takes over.
  RouteLedger forward;
  forward.record(kClass, MeasuredRoute::Forward, 3.0, 1.0);
  EXPECT_EQ(forward.advise(kClass, 1.0, 1.5, false).route, MeasuredRoute::Heterogeneous);
}

TEST(RouteLedger, RefusesBadTimesAndRules) {
  RouteLedger ledger;
  EXPECT_THROW(ledger.record(kClass, MeasuredRoute::Forward, 0.0, 1.0), InvalidArgument);
  EXPECT_THROW(ledger.record(kClass, MeasuredRoute::Forward, 1.0, -1.0), InvalidArgument);
  EXPECT_THROW(RouteLedger(LedgerRule{0, 3, 1.25}), InvalidArgument);
  EXPECT_THROW(RouteLedger(LedgerRule{3, 2, 1.25}), InvalidArgument);
  EXPECT_THROW(RouteLedger(LedgerRule{2, 3, 0.9}), InvalidArgument);
  EXPECT_THROW(RouteLedger(LedgerRule{2, 3, 1.25, 0}), InvalidArgument);
  EXPECT_THROW(RouteLedger(LedgerRule{2, 3, 1.25, 3}), InvalidArgument);  // beyond observations
  EXPECT_THROW(RouteLedger(LedgerRule{2, 3, 1.25, 1, 0.5}), InvalidArgument);
}

}  // namespace

// The smoothing rule of core/adaptation/speed_tracking.hpp: noise smoothed in, one spike ignored, a
// lasting change followed from its second observation, and the re-planning gain against a
// balance computed by hand.
#include "core/adaptation/speed_tracking.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/common/error.hpp"

namespace {

using hetscal::core::plan_nearly_uniform_as_uniform;
using hetscal::core::replanning_gain;
using hetscal::core::SpeedTracker;
using hetscal::core::Verdict;

TEST(SpeedTracking, NoiseIsSmoothedExponentially) {
  SpeedTracker tracker({10.0, 10.0});
  EXPECT_EQ(tracker.observe({11.0, 9.0}), (std::vector<Verdict>{Verdict::Noise, Verdict::Noise}));
  EXPECT_DOUBLE_EQ(tracker.estimates()[0], 10.0 + 0.3 * 1.0);
  EXPECT_DOUBLE_EQ(tracker.estimates()[1], 10.0 - 0.3 * 1.0);
}

TEST(SpeedTracking, OneSpikeNeverMovesTheEstimate) {
  SpeedTracker tracker({10.0});
  EXPECT_EQ(tracker.observe({3.0}), std::vector<Verdict>{Verdict::Suspect});
  EXPECT_EQ(tracker.estimates()[0], 10.0);
  EXPECT_EQ(tracker.observe({10.0}), std::vector<Verdict>{Verdict::Noise});
  EXPECT_EQ(tracker.estimates()[0], 10.0);
  // A spike up after a spike down confirms nothing.
  tracker.observe({3.0});
  EXPECT_EQ(tracker.observe({30.0}), std::vector<Verdict>{Verdict::Suspect});
  EXPECT_EQ(tracker.estimates()[0], 10.0);
}

TEST(SpeedTracking, LastingChangeIsFollowedFromItsSecondObservation) {
  SpeedTracker tracker({9.0, 9.0});
  tracker.observe({9.0, 3.1});
  EXPECT_EQ(tracker.observe({9.0, 2.9}), (std::vector<Verdict>{Verdict::Noise, Verdict::Confirmed}));
  EXPECT_DOUBLE_EQ(tracker.estimates()[1], std::sqrt(3.1 * 2.9));
  // Back to full speed: followed the same way.
  tracker.observe({9.0, 9.0});
  tracker.observe({9.0, 9.2});
  EXPECT_NEAR(tracker.estimates()[1], std::sqrt(9.0 * 9.2), 1e-12);
}

TEST(SpeedTracking, ChangeBegunPartWayIntoACallIsFollowedFromTheNextCall) {
  SpeedTracker tracker({9.0, 9.0});
  // Rank 1 turned 3x slower half-way into a call: that call observes 2/(1/9 + 3/9) = 4.5.
  EXPECT_EQ(tracker.observe({9.0, 4.5}), (std::vector<Verdict>{Verdict::Noise, Verdict::Suspect}));
  EXPECT_EQ(tracker.estimates()[1], 9.0);
  // The whole next call at 3: further out on the same side confirms it, at the new value.
  EXPECT_EQ(tracker.observe({9.0, 3.0}), (std::vector<Verdict>{Verdict::Noise, Verdict::Confirmed}));
  EXPECT_DOUBLE_EQ(tracker.estimates()[1], 3.0);
  // Back towards the estimate but still out (a spike then a smaller one) confirms nothing.
  SpeedTracker spiky({9.0});
  spiky.observe({3.0});
  EXPECT_EQ(spiky.observe({5.0}), std::vector<Verdict>{Verdict::Suspect});
  EXPECT_EQ(spiky.estimates()[0], 9.0);
}

TEST(SpeedTracking, MissingObservationsLeaveTheEstimate) {
  SpeedTracker tracker({4.0, 8.0});
  EXPECT_EQ(tracker.observe({0.0, NAN}), (std::vector<Verdict>{Verdict::Unobserved, Verdict::Unobserved}));
  EXPECT_EQ(tracker.estimates(), (std::vector<double>{4.0, 8.0}));
}

TEST(SpeedTracking, BadInputIsRefused) {
  EXPECT_THROW(SpeedTracker({}), hetscal::InvalidArgument);
  EXPECT_THROW(SpeedTracker({1.0, -1.0}), hetscal::InvalidArgument);
  EXPECT_THROW(SpeedTracker({1.0}, {0.0, 0.3, 0.1}), hetscal::InvalidArgument);
  SpeedTracker tracker({1.0, 2.0});
  EXPECT_THROW(tracker.observe({1.0}), hetscal::InvalidArgument);
  EXPECT_THROW(replanning_gain({1.0, 2.0}, {1.0}), hetscal::InvalidArgument);
}

TEST(SpeedTracking, NearlyUniformEstimatesArePlannedAsUniform) {
  std::vector<double> close{10.0, 11.0}, apart{10.0, 12.0};
  plan_nearly_uniform_as_uniform(close, 0.15);
  plan_nearly_uniform_as_uniform(apart, 0.15);
  EXPECT_EQ(close, (std::vector<double>{10.5, 10.5}));
  EXPECT_EQ(apart, (std::vector<double>{10.0, 12.0}));
}

TEST(SpeedTracking, ReplanningGainIsTheSlowestFinishOverTheBalancedOne) {
  // Planned for equal speeds, rank 1 now 3x slower: rank 1 holds 1/2 of the work at 1/4 of
  // the machine's speed, so it takes twice the balanced time.
  EXPECT_DOUBLE_EQ(replanning_gain({1.0, 1.0}, {3.0, 1.0}), 2.0);
  // The plan still fits, whatever the scale.
  EXPECT_DOUBLE_EQ(replanning_gain({1.0, 1.0 / 3.0}, {6e9, 2e9}), 1.0);
  // Planned for 1 : 1/3 on a machine now uniform: rank 0's 3/4 at 1/2 of the speed.
  EXPECT_DOUBLE_EQ(replanning_gain({1.0, 1.0 / 3.0}, {5.0, 5.0}), 1.5);
}

}  // namespace

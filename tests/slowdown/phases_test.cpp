// HETSCAL_SLOWDOWN's grammar: static and windowed entries, the factor in force at a given
// call or second, and one clear message for each kind of mistake.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "core/common/error.hpp"
#include "tools/slowdown/slowdown.hpp"

namespace {

using hetscal::slowdown::factor_at;
using hetscal::slowdown::factor_for_rank;
using hetscal::slowdown::phases_for_rank;
using hetscal::slowdown::WindowClock;

TEST(SlowdownPhases, StaticEntryHoldsForTheWholeRun) {
  const auto phases = phases_for_rank("0:2,3:1.5", 3);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(phases[0].clock, WindowClock::Always);
  EXPECT_EQ(factor_at(phases, 0, 0), 1.5);
  EXPECT_EQ(factor_at(phases, 1e9, 1e9), 1.5);
  EXPECT_TRUE(phases_for_rank("0:2,3:1.5", 1).empty());
  EXPECT_EQ(factor_for_rank("0:2,3:1.5", 0), 2.0);
  EXPECT_EQ(factor_for_rank("0:2,3:1.5", 1), 1.0);
}

TEST(SlowdownPhases, CallWindowStartsAtAAndEndsBeforeB) {
  const auto phases = phases_for_rank("1:3@calls=200..400", 1);
  ASSERT_EQ(phases.size(), 1u);
  EXPECT_EQ(factor_at(phases, 199, 0), 1.0);
  EXPECT_EQ(factor_at(phases, 200, 0), 3.0);
  EXPECT_EQ(factor_at(phases, 399, 0), 3.0);
  EXPECT_EQ(factor_at(phases, 400, 0), 1.0);
  // A call window ignores the clock.
  EXPECT_EQ(factor_at(phases, 10, 300), 1.0);
}

TEST(SlowdownPhases, OpenEndedTimeWindowAndSeveralPhasesOfOneRank) {
  const auto timed = phases_for_rank("1:3@t=5..", 1);
  EXPECT_EQ(factor_at(timed, 1e6, 4.999), 1.0);
  EXPECT_EQ(factor_at(timed, 0, 5.0), 3.0);
  EXPECT_EQ(factor_at(timed, 0, 1e7), 3.0);
  const auto phased = phases_for_rank("1:3@calls=100..200,0:2,1:2@calls=300..", 1);
  ASSERT_EQ(phased.size(), 2u);
  EXPECT_EQ(factor_at(phased, 50, 0), 1.0);
  EXPECT_EQ(factor_at(phased, 150, 0), 3.0);
  EXPECT_EQ(factor_at(phased, 250, 0), 1.0);
  EXPECT_EQ(factor_at(phased, 1000, 0), 2.0);
}

// The message of the InvalidArgument `spec` raises (any rank reads every entry).
std::string refusal(const std::string& spec) {
  try {
    phases_for_rank(spec, 0);
  } catch (const hetscal::InvalidArgument& e) {
    return e.what();
  }
  return "accepted";
}

TEST(SlowdownPhases, BadSettingsGiveOneMessageNamingTheEntry) {
  EXPECT_EQ(refusal("1"), "HETSCAL_SLOWDOWN: entry '1' is not rank:factor");
  EXPECT_EQ(refusal("x:3"), "HETSCAL_SLOWDOWN: bad rank in 'x:3'");
  EXPECT_EQ(refusal("1:0.5@calls=1..2"), "HETSCAL_SLOWDOWN: factor in '1:0.5@calls=1..2' is below 1 (only slowing is possible)");
  EXPECT_EQ(refusal("1:fast"), "HETSCAL_SLOWDOWN: factor 'fast' is not a number in '1:fast'");
  EXPECT_EQ(refusal("1:3@steps=1..2"), "HETSCAL_SLOWDOWN: window 'steps=1..2' is not calls=A..B or t=A..B in '1:3@steps=1..2'");
  EXPECT_EQ(refusal("1:3@calls=5"), "HETSCAL_SLOWDOWN: window 'calls=5' has no '..' in '1:3@calls=5'");
  EXPECT_EQ(refusal("1:3@calls=..5"), "HETSCAL_SLOWDOWN: window start '' is not a number in '1:3@calls=..5'");
  EXPECT_EQ(refusal("1:3@t=5..2"), "HETSCAL_SLOWDOWN: window 't=5..2' is empty or negative (want 0 <= A < B) in '1:3@t=5..2'");
  EXPECT_EQ(refusal("1:3@calls=1.5..3"), "HETSCAL_SLOWDOWN: call numbers in 'calls=1.5..3' are not whole in '1:3@calls=1.5..3'");
  EXPECT_EQ(refusal("1:3@calls=0..10,1:2@calls=5.."), "HETSCAL_SLOWDOWN: entry '1:2@calls=5..' overlaps an earlier entry of rank 1");
  EXPECT_EQ(refusal("1:3,1:2@t=5.."), "HETSCAL_SLOWDOWN: entry '1:2@t=5..' overlaps an earlier entry of rank 1");
  EXPECT_EQ(refusal("1:3@calls=0..10,1:2@t=5.."), "HETSCAL_SLOWDOWN: entry '1:2@t=5..' overlaps an earlier entry of rank 1");
  EXPECT_THROW(factor_for_rank("0:3@calls=1..", 0), hetscal::InvalidArgument);
}

}  // namespace

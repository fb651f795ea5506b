#include "core/common/speeds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

TEST(Speeds, CycleTimesAreInverseSpeeds) {
  const auto s = Speeds::from_cycle_times({1.0, 4.0, 7.8});
  EXPECT_DOUBLE_EQ(s.speed(1), 0.25);
  EXPECT_DOUBLE_EQ(s.cycle_time(2), 7.8);
  EXPECT_DOUBLE_EQ(s.total_speed(), 1.0 + 0.25 + 1.0 / 7.8);
}

TEST(Speeds, NormalisedMakesFastestOne) {
  const auto s = Speeds::from_speeds({2.0, 8.0, 4.0}).normalised();
  EXPECT_DOUBLE_EQ(s.speed(1), 1.0);
  EXPECT_DOUBLE_EQ(s.speed(0), 0.25);
}

TEST(Speeds, RefusesBadValues) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (double bad : {0.0, -1.0, nan, inf}) {
    EXPECT_THROW(Speeds::from_speeds({1.0, bad}), InvalidArgument) << bad;
    EXPECT_THROW(Speeds::from_cycle_times({bad}), InvalidArgument) << bad;
  }
  EXPECT_THROW(Speeds::from_speeds({}), InvalidArgument);
}

TEST(Speeds, MessageNamesTheBadValue) {
  try {
    Speeds::from_speeds({1.0, 2.0, -3.0});
    FAIL() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("value 3 of 3"), std::string::npos) << e.what();
  }
}

TEST(Speeds, RequireCount) {
  const auto s = Speeds::from_speeds({1.0, 2.0});
  EXPECT_NO_THROW(s.require_count(2));
  EXPECT_THROW(s.require_count(3), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::core

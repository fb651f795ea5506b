// The local kernel's rate by tile width (core/time_models/platform.hpp): measured efficiencies
// interpolated in log2 of the tile, worked out by hand; the smallest efficient tile; the
// half-tile model when nothing was measured; a table the platform refuses.
#include <gtest/gtest.h>

#include "core/common/error.hpp"
#include "core/time_models/platform.hpp"

namespace {

using hetscal::InvalidArgument;
using hetscal::core::KernelRate;
using hetscal::core::Platform;

// The shape of OpenBLAS's DGEMM on 256x256 outputs: a rank-1 update far below the peak.
KernelRate measured_rate() {
  KernelRate rate;
  rate.measured = {{1, 0.05}, {4, 0.25}, {16, 0.6}, {64, 0.9}, {256, 1.0}};
  return rate;
}

TEST(KernelRate, MeasuredEfficiencyIsInterpolatedInLog2OfTheTile) {
  const KernelRate rate = measured_rate();
  EXPECT_DOUBLE_EQ(rate.efficiency(1), 0.05);
  EXPECT_DOUBLE_EQ(rate.efficiency(16), 0.6);
  EXPECT_DOUBLE_EQ(rate.efficiency(2), 0.15);     // halfway from 1 to 4 in log2
  EXPECT_DOUBLE_EQ(rate.efficiency(32), 0.75);    // halfway from 16 to 64
  EXPECT_DOUBLE_EQ(rate.efficiency(0.5), 0.05);   // below the table: its first entry
  EXPECT_DOUBLE_EQ(rate.efficiency(1024), 1.0);   // beyond: its last
  EXPECT_DOUBLE_EQ(rate.update_efficiency(16, false), 0.6);  // per_tile_calls 1
}

TEST(KernelRate, SmallestEfficientTileIsTheFirstMeasuredAtTheFraction) {
  const KernelRate rate = measured_rate();
  EXPECT_DOUBLE_EQ(rate.smallest_efficient_tile(0.5), 16);
  EXPECT_DOUBLE_EQ(rate.smallest_efficient_tile(0.05), 1);
  EXPECT_DOUBLE_EQ(rate.smallest_efficient_tile(0.95), 256);
  KernelRate slow;
  slow.measured = {{1, 0.1}, {8, 0.3}};
  EXPECT_DOUBLE_EQ(slow.smallest_efficient_tile(0.5), 8);  // none reaches it: the widest
}

TEST(KernelRate, WithoutMeasurementsTheHalfTileModel) {
  KernelRate rate;
  EXPECT_DOUBLE_EQ(rate.efficiency(1), 1.0);  // half_tile 0: the peak for every tile
  EXPECT_DOUBLE_EQ(rate.smallest_efficient_tile(0.5), 0.0);
  rate.half_tile = 16;
  EXPECT_DOUBLE_EQ(rate.efficiency(16), 0.5);
  EXPECT_DOUBLE_EQ(rate.smallest_efficient_tile(0.5), 16);
  EXPECT_DOUBLE_EQ(rate.smallest_efficient_tile(0.75), 48);
}

TEST(KernelRate, PlatformRefusesATableOutOfOrderOrOutOfRange) {
  Platform platform;
  platform.processors = {{1e9, 1e9}};
  platform.network = {1e-6, 1e9, {}, {}};
  platform.kernel = measured_rate();
  EXPECT_NO_THROW(require_valid(platform));
  platform.kernel.measured = {{4, 0.5}, {2, 0.6}};
  EXPECT_THROW(require_valid(platform), InvalidArgument);
  platform.kernel.measured = {{1, 0.0}};
  EXPECT_THROW(require_valid(platform), InvalidArgument);
  platform.kernel.measured = {{1, 1.5}};
  EXPECT_THROW(require_valid(platform), InvalidArgument);
  platform.kernel.measured = {{0.5, 0.5}};
  EXPECT_THROW(require_valid(platform), InvalidArgument);
}

}  // namespace

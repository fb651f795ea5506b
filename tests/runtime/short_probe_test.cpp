// The short probe's size (runtime/adaptation.hpp): 3 DGEMMs of order n cost 6n³ flops, at
// most 2 % of the rank's share of the call, n capped at 160, no probe below 32.
#include <gtest/gtest.h>

#include "runtime/adaptation.hpp"

namespace hetscal::runtime {
namespace {

TEST(ShortProbe, CostsAtMostTwoPercentOfTheRanksShare) {
  // 6·101³ = 6.18e6 <= 0.02·3.1e8 = 6.2e6 < 6·102³.
  EXPECT_EQ(short_probe_order(3.1e8), 101);
  // PDGEMM 3000 on 2 ranks: 2.7e10 flops each, far more than the largest probe needs.
  EXPECT_EQ(short_probe_order(2.7e10), kMaxProbeOrder);
  // PDGEMM 256 on 2 ranks: 1.68e7 flops each; 6·38³ = 3.29e5 <= 3.36e5.
  EXPECT_EQ(short_probe_order(2.0 * 256 * 256 * 256 / 2), 38);
}

TEST(ShortProbe, NoneWhenTooSmallToTime) {
  // 6·32³ / 0.02 = 9.83e6: just below, no probe.
  EXPECT_EQ(short_probe_order(9.8e6), 0);
  EXPECT_EQ(short_probe_order(9.9e6), kMinProbeOrder);
  EXPECT_EQ(short_probe_order(0.0), 0);
}

}  // namespace
}  // namespace hetscal::runtime

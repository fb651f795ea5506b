// The short probe's size (runtime/adaptation.hpp): 3 DGEMMs of order n cost 6n³ flops, at
// most 1 % of the rank's share of the call, n capped at kMaxProbeOrder, no probe below 32.
#include <gtest/gtest.h>

#include "runtime/adaptation.hpp"

namespace hetscal::runtime {
namespace {

TEST(ShortProbe, CostsAtMostOnePercentOfTheRanksShare) {
  // 6·80³ = 3.072e6 <= 0.01·3.1e8 = 3.1e6 < 6·81³ = 3.19e6.
  EXPECT_EQ(short_probe_order(3.1e8), 80);
  // PDGETRF 4000 on 2 ranks: 2.13e10 flops each; 6·328³ = 2.117e8 <= 2.133e8 < 6·329³.
  EXPECT_EQ(short_probe_order(2.0 / 3.0 * 4000.0 * 4000.0 * 4000.0 / 2), 328);
  // PDGEMM 4000 on 2 ranks: 6.4e10 flops each, more than the largest probe needs.
  EXPECT_EQ(short_probe_order(6.4e10), kMaxProbeOrder);
}

TEST(ShortProbe, NoneWhenTooSmallToTime) {
  // 6·32³ / 0.01 = 1.966e7: just below, no probe.
  EXPECT_EQ(short_probe_order(1.96e7), 0);
  EXPECT_EQ(short_probe_order(1.97e7), kMinProbeOrder);
  EXPECT_EQ(short_probe_order(0.0), 0);
}

}  // namespace
}  // namespace hetscal::runtime

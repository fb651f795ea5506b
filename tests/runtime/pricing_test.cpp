// runtime/pricing: both routes priced by the core time model on measured machine figures.
// Oracles: flop counts written out by hand on a platform whose network costs nothing.
#include "runtime/pricing.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <limits>

#include "runtime/gemm_plan.hpp"
#include "runtime/machine.hpp"

namespace hetscal::runtime {
namespace {

// Two processes, flop rates 1e9 and 3e9, 1e12 bytes each, on the given network.
MachineFigures two_rank_machine(double latency_s, double bandwidth_bytes_per_s) {
  MachineFigures machine;
  machine.flops = {1e9, 3e9};
  machine.latency_s = latency_s;
  machine.bandwidth_bytes_per_s = bandwidth_bytes_per_s;
  machine.memory_bytes = 1e12;
  return machine;
}

core::Platform two_processes(double latency_s, double bandwidth_bytes_per_s) {
  return two_rank_machine(latency_s, bandwidth_bytes_per_s).platform();
}

// A network so fast that only computation counts.
core::Platform two_processes() { return two_processes(1e-15, 1e18); }

// A slow one: 10 µs, 1 MB/s.
core::Platform two_slowly_connected_processes() { return two_processes(1e-5, 1e6); }

// The caller's 1×2 block-cyclic grid with square blocks of 100.
core::Problem gemm_on_caller_grid(std::size_t m, std::size_t n, std::size_t k) {
  core::Problem problem;
  problem.routine = core::Routine::Gemm;
  problem.m = m;
  problem.n = n;
  problem.k = k;
  problem.caller.grid_rows = 1;
  problem.caller.grid_cols = 2;
  problem.caller.block = 100;
  problem.caller.processor_at = {0, 1};
  return problem;
}

TEST(Pricing, ScaLapackWaitsForTheSlowerProcessAndThePlanDoesNot) {
  // M = 400, N = 800, K = 200: block-cyclic gives each process 4 of the 8 column blocks, so
  // the slower one does half of 2·M·N·K flops at 1e9 flop/s.
  const core::Problem problem = gemm_on_caller_grid(400, 800, 200);
  const double flops = 2.0 * 400 * 800 * 200;
  const GemmLayout plan = plan_gemm_layout({1.0, 3.0}, 400, 800, 200);
  const Prices prices = price_routes(two_processes(), problem, plan.candidate);
  EXPECT_NEAR(prices.forward_s, flops / 2 / 1e9, 1e-3 * flops / 2 / 1e9);
  // The plan shares columns 1:3, so both finish at flops / 4e9 (within one tile's worth).
  EXPECT_NEAR(prices.heterogeneous_s, flops / 4e9, 0.15 * flops / 4e9);
  EXPECT_LT(prices.heterogeneous_s, 0.6 * prices.forward_s);
}

TEST(Pricing, MovingTheOperandsIsCharged) {
  // A slow network: the plan pays for moving A, B and C in and C out; ScaLAPACK moves nothing
  // but its panels, so the gain shrinks.
  const core::Problem problem = gemm_on_caller_grid(400, 800, 200);
  const GemmLayout plan = plan_gemm_layout({1.0, 3.0}, 400, 800, 200);
  const Prices slow = price_routes(two_slowly_connected_processes(), problem, plan.candidate);
  const Prices fast = price_routes(two_processes(), problem, plan.candidate);
  EXPECT_GT(slow.heterogeneous_s - fast.heterogeneous_s, 0.0);
  EXPECT_GT(slow.forward_s / slow.heterogeneous_s, 0.0);
  EXPECT_LT(slow.forward_s / slow.heterogeneous_s, fast.forward_s / fast.heterogeneous_s);
}

TEST(Pricing, TheMovesArePricedApart) {
  // What the copy's moves cost is kept apart, so that the in-place route can be priced
  // without them (route_choice.hpp): the rest is the compute alone.
  const core::Problem problem = gemm_on_caller_grid(400, 800, 200);
  const GemmLayout plan = plan_gemm_layout({1.0, 3.0}, 400, 800, 200);
  const core::Platform platform = two_slowly_connected_processes();
  const Prices prices = price_routes(platform, problem, plan.candidate);
  EXPECT_GT(prices.moves_s, 0.0);
  EXPECT_NEAR(prices.heterogeneous_s - prices.moves_s, predicted_compute_seconds(platform, problem, plan.candidate),
              1e-12 * prices.heterogeneous_s);
}

TEST(Pricing, ComputeAloneLeavesTheMovesOut) {
  const core::Problem problem = gemm_on_caller_grid(400, 800, 200);
  const GemmLayout plan = plan_gemm_layout({1.0, 3.0}, 400, 800, 200);
  const core::Platform platform = two_slowly_connected_processes();
  const double compute = predicted_compute_seconds(platform, problem, plan.candidate);
  EXPECT_LT(compute, price_routes(platform, problem, plan.candidate).heterogeneous_s);
}

TEST(Machine, PlatformForAScalarTypeWeighsItsFlopsAndItsBytes) {
  // LAWN 41: a complex multiply-add is 8 real flops against 2, so a complex rate is a
  // quarter of the measured (real) one; an element of T is sizeof(T) / 8 doubles' bytes.
  const MachineFigures machine = two_rank_machine(1e-5, 1e6);
  const core::Platform z = machine.platform_for<std::complex<double>>();
  EXPECT_DOUBLE_EQ(z.processors[0].speed_flops, 0.25e9);
  EXPECT_DOUBLE_EQ(z.processors[1].speed_flops, 0.75e9);
  EXPECT_DOUBLE_EQ(z.processors[1].memory_bytes, 0.5e12);
  EXPECT_DOUBLE_EQ(z.network.bandwidth_bytes_per_s, 0.5e6);
  EXPECT_DOUBLE_EQ(z.network.latency_s, 1e-5);
  const core::Platform c = machine.platform_for<std::complex<float>>();
  EXPECT_DOUBLE_EQ(c.processors[0].speed_flops, 0.25e9);
  EXPECT_DOUBLE_EQ(c.network.bandwidth_bytes_per_s, 1e6);
  const core::Platform s = machine.platform_for<float>();
  EXPECT_DOUBLE_EQ(s.processors[1].speed_flops, 3e9);
  EXPECT_DOUBLE_EQ(s.processors[0].memory_bytes, 2e12);
  EXPECT_DOUBLE_EQ(s.network.bandwidth_bytes_per_s, 2e6);
  const core::Platform d = machine.platform_for<double>();
  EXPECT_DOUBLE_EQ(d.processors[1].speed_flops, machine.platform().processors[1].speed_flops);
}

TEST(Pricing, ComplexGemmIsPricedAtFourTimesTheRealFlops) {
  // ScaLAPACK's slower process does half of 8·M·N·K real flops.
  const MachineFigures machine = two_rank_machine(1e-15, 1e18);  // only computation counts
  const core::Problem problem = gemm_on_caller_grid(400, 800, 200);
  const GemmLayout plan = plan_gemm_layout({1.0, 3.0}, 400, 800, 200);
  const Prices z =
      price_routes(machine.platform_for<std::complex<double>>(), problem, plan.candidate);
  const double flops = 8.0 * 400 * 800 * 200;
  EXPECT_NEAR(z.forward_s, flops / 2 / 1e9, 1e-3 * flops / 2 / 1e9);
  EXPECT_NEAR(z.heterogeneous_s, flops / 4e9, 0.15 * flops / 4e9);
}

TEST(Machine, RatePerUnitSpeedIsTheLowerMedianOfProbeOverSpeed) {
  // probe / speed = 50, 17, 20: a rank slowed by another user (17) whose given speed does not
  // say so does not set the unit, and neither does an unusually fast one (50).
  EXPECT_DOUBLE_EQ(rate_per_unit_speed({50, 17, 40}, {1, 1, 2}), 20);
  EXPECT_DOUBLE_EQ(rate_per_unit_speed({10, 30}, {1, 3}), 10);
  EXPECT_DOUBLE_EQ(rate_per_unit_speed({8}, {2}), 4);
}

TEST(Machine, ModelledRatesStayFiniteAndPositiveAtAnySpeedRatio) {
  const std::vector<double> rates = modelled_rates({50, 17, 40}, {1, 1, 2});
  ASSERT_EQ(rates.size(), 3u);
  EXPECT_DOUBLE_EQ(rates[0], 20);
  EXPECT_DOUBLE_EQ(rates[2], 40);
  // Issue 30: 1e-300 against 1e300 made the slow rank's rate 0, and every plan failed. It is
  // modelled at the smallest planned fraction of the fastest, and does not set the unit.
  const std::vector<double> extreme = modelled_rates({5e10, 5e10, 5e10}, {1e-300, 1e-300, 1e300});
  EXPECT_DOUBLE_EQ(extreme[2], 5e10);
  EXPECT_DOUBLE_EQ(extreme[0], 5e10 * core::kSmallestPlannedSpeedRatio);
}

TEST(Machine, FirstTouchIsPricedAtTheSlowestRanksProbe) {
  // The slowest rank's probe, as every rank's allocation stage waits for it.
  EXPECT_DOUBLE_EQ(agreed_first_touch_rate(0.4e9), 0.4e9);
  // No rank could probe (each counted as +infinity), or nothing usable: the assumed rate.
  EXPECT_DOUBLE_EQ(agreed_first_touch_rate(std::numeric_limits<double>::infinity()), kAssumedFreshMemoryBytesPerS);
  EXPECT_DOUBLE_EQ(agreed_first_touch_rate(0.0), kAssumedFreshMemoryBytesPerS);
  EXPECT_DOUBLE_EQ(agreed_first_touch_rate(std::numeric_limits<double>::quiet_NaN()), kAssumedFreshMemoryBytesPerS);
}

TEST(Machine, AnAllocationLargeEnoughToTimeRefreshesTheFirstTouchRate) {
  // 64 MiB in 0.25 s on the slowest rank: 268 MB/s, whatever the probe said.
  const double bytes = 64.0 * (1 << 20);
  ASSERT_TRUE(observed_first_touch_rate(bytes, 0.25).has_value());
  EXPECT_DOUBLE_EQ(*observed_first_touch_rate(bytes, 0.25), bytes / 0.25);
  // Too small to time (the stage's fixed part would weigh more than the pages), not timed,
  // or not a size: the rate stays as it was.
  EXPECT_FALSE(observed_first_touch_rate(kMinLearntFirstTouchBytes / 2, 0.001).has_value());
  EXPECT_TRUE(observed_first_touch_rate(kMinLearntFirstTouchBytes, 0.001).has_value());
  EXPECT_FALSE(observed_first_touch_rate(bytes, 0.0).has_value());
  EXPECT_FALSE(observed_first_touch_rate(std::numeric_limits<double>::quiet_NaN(), 0.25).has_value());
  EXPECT_FALSE(observed_first_touch_rate(std::numeric_limits<double>::infinity(), 0.25).has_value());
}

TEST(Machine, HostsAreNumberedInTheOrderOfTheirFirstRanks) {
  // Ranks 0-1 and 4 on the host led by rank 0, ranks 2-3 on the one led by rank 2, rank 5 on
  // its own: a round-robin mapping of ranks over hosts.
  EXPECT_EQ(node_indexes({0, 0, 2, 2, 0, 5}), (std::vector<std::size_t>{0, 0, 1, 1, 0, 2}));
  // Any rank of the host may lead it: the numbering only depends on which ranks share.
  EXPECT_EQ(node_indexes({3, 1, 3, 1}), (std::vector<std::size_t>{0, 1, 0, 1}));
  EXPECT_EQ(node_indexes({}), std::vector<std::size_t>{});
}

TEST(Machine, TheNetworkIsMeasuredToAnotherHostAndPricedPerHostLink) {
  EXPECT_EQ(ping_pong_partner({0, 0, 0, 1, 1, 1}), 3);
  EXPECT_EQ(ping_pong_partner({0, 1}), 1);
  EXPECT_EQ(ping_pong_partner({0, 0, 0}), 1);  // one host: its first two ranks

  MachineFigures figures;
  figures.flops = {1e9, 1e9, 1e9, 1e9};
  figures.latency_s = 1e-6;
  figures.bandwidth_bytes_per_s = 1e9;
  figures.node_of = {0, 0, 0, 0};
  EXPECT_EQ(figures.hosts(), 1u);
  EXPECT_TRUE(figures.platform().network.node_of.empty());  // one host: every rank its own link
  figures.node_of = {0, 0, 1, 1};
  EXPECT_EQ(figures.hosts(), 2u);
  EXPECT_EQ(figures.platform().network.node_of, figures.node_of);
  EXPECT_NE(figures.text().find("2 hosts"), std::string::npos);
}

}  // namespace
}  // namespace hetscal::runtime

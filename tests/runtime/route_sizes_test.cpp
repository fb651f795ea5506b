// forwarded_by_sizes (runtime/route.hpp): the calls it sends to ScaLAPACK before any agreement
// are exactly those decide_without_speeds forwards for their sizes (HETSCAL_DISABLE, below
// HETSCAL_MIN_N, a single process, below HETSCAL_MIN_FLOPS; HETSCAL_FORCE keeps the last two),
// on random calls and settings: a call it let through by mistake would skip nothing, but one
// it forwarded by mistake would never reach hetscal.
#include "runtime/route.hpp"

#include <gtest/gtest.h>

#include <random>

#include "kernels/local_blas.hpp"

namespace hetscal::runtime {
namespace {

double flops_of(const CallSizes& sizes) {
  const auto& d = sizes.dims;
  switch (sizes.routine.routine) {
    case core::Routine::Gemm: return kernels::gemm_flops(d[0], d[1], d[2]);
    case core::Routine::LU: return kernels::getrf_flops(d[0], d[1]);
    case core::Routine::QR: return kernels::geqrf_flops(d[0], d[1]);
    case core::Routine::Cholesky: return kernels::potrf_flops(d[0]);
  }
  return 0.0;
}

/// Agreed settings of every kind the size rules read, varied with the trial.
AgreedSettings settings_of_trial(int trial, std::mt19937_64& rng) {
  AgreedSettings settings;
  settings.disabled = trial % 50 == 0;
  settings.force = trial % 7 == 0;
  settings.min_n = trial % 3 == 0 ? 0 : std::uniform_int_distribution<std::int64_t>(0, 200)(rng);
  settings.min_flops_per_rank = trial % 2 == 0 ? 0 : 1000000;
  return settings;
}

TEST(RouteSizes, ForwardsWhatTheRulesWithoutSpeedsForwardForTheSizes) {
  std::mt19937_64 rng(29);
  std::uniform_int_distribution<std::int64_t> size(0, 3000);
  std::uniform_int_distribution<int> ranks(1, 9), routine(0, 3);
  std::size_t forwarded = 0, routed = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const AgreedSettings settings = settings_of_trial(trial, rng);
    const auto kind = static_cast<core::Routine>(routine(rng));
    CallSizes sizes{{kind, ScalarType::Double}, {size(rng), size(rng), size(rng)}, 0};
    sizes.count = kind == core::Routine::Gemm ? 3 : kind == core::Routine::Cholesky ? 1 : 2;
    const int processes = ranks(rng);

    DecisionInput in;
    in.disabled = settings.disabled;
    in.force = settings.force;
    in.min_n = settings.min_n;
    in.min_flops_per_rank = static_cast<double>(settings.min_flops_per_rank);
    in.dims.assign(sizes.dims.begin(), sizes.dims.begin() + static_cast<long>(sizes.count));
    in.flops = flops_of(sizes);
    in.ranks = processes;
    const bool by_sizes = forwarded_by_sizes(settings, processes, sizes);
    EXPECT_EQ(by_sizes, decide_without_speeds(in).has_value()) << "trial " << trial;
    (by_sizes ? forwarded : routed) += 1;
  }
  EXPECT_GT(forwarded, 500u);
  EXPECT_GT(routed, 500u);
}

// Settings the ranks disagree on (AgreedSettings::problem) may differ from rank to rank: a
// rank forwarding on its own HETSCAL_MIN_N would leave the others in the route's agreement.
TEST(RouteSizes, DisagreeingSettingsAreLeftToTheRoute) {
  AgreedSettings settings;
  settings.min_n = 7;
  const CallSizes tiny{{core::Routine::Gemm, ScalarType::Double}, {2, 2, 2}, 3};
  EXPECT_TRUE(forwarded_by_sizes(settings, 4, tiny));
  settings.problem = "MPI_COMM_WORLD rank 2 read other HETSCAL_* settings";
  EXPECT_FALSE(forwarded_by_sizes(settings, 4, tiny));
}

// Sizes it does not know how to read (a count unlike the routine's) are left to the route.
TEST(RouteSizes, ACountUnlikeTheRoutinesIsLeftToTheRoute) {
  AgreedSettings settings;
  settings.disabled = true;
  EXPECT_TRUE(forwarded_by_sizes(settings, 4, {{core::Routine::LU, ScalarType::Double}, {10, 10, 0}, 2}));
  EXPECT_FALSE(forwarded_by_sizes(settings, 4, {{core::Routine::LU, ScalarType::Double}, {10, 10, 0}, 3}));
  EXPECT_FALSE(forwarded_by_sizes(settings, 4, {{core::Routine::Gemm, ScalarType::Double}, {10, 10, 10}, 2}));
}

}  // namespace
}  // namespace hetscal::runtime

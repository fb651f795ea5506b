// runtime::agree_on_observations under MPI: every rank feeds its own observations (different
// on every rank, noisy, with spikes and a lasting change), and every rank must come out with
// bitwise the same estimates, verdicts and re-planning decisions, which converge to the
// speeds the observations were drawn around.
#include "runtime/adaptation.hpp"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/common/error.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::runtime {
namespace {

// Whether `values` has the same bits on every rank (rank 0's broadcast, compared).
bool identical_everywhere(std::vector<double> values) {
  std::vector<double> root = values;
  MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return mpi::test::on_all_ranks(std::memcmp(root.data(), values.data(), values.size() * sizeof(double)) == 0);
}

// The rank's true rate during step `step`: rank r runs at 1e9·(r + 1), the last rank turns 3
// times slower from step 10 on.
double true_rate(int rank, int ranks, int step) {
  const double base = 1e9 * (rank + 1);
  return rank == ranks - 1 && step >= 10 ? base / 3.0 : base;
}

TEST(SpeedAdaptation, RanksFeedingDifferentObservationsDecideAlike) {
  const int ranks = mpi::test::world_size(), me = mpi::test::world_rank();
  if (ranks < 2) GTEST_SKIP() << "needs two ranks";
  std::vector<double> planned(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) planned[static_cast<std::size_t>(r)] = true_rate(r, ranks, 0);
  core::SpeedTracker tracker(planned);
  std::mt19937 noise(1234u + static_cast<unsigned>(me));  // every rank draws its own noise
  std::uniform_real_distribution<double> jitter(0.95, 1.05);
  AdaptationStep result = AdaptationStep::for_ranks(planned.size());
  int replans = 0, first_replan = -1;
  for (int step = 0; step < 20; ++step) {
    double mine = true_rate(me, ranks, step) * jitter(noise);
    if (step == 4 && me == 0) mine *= 4.0;  // one spike: must move nothing
    const double my_seconds = 0.5 * (me + 1) + step;  // each rank's own time of its last call
    agree_on_observations(MPI_COMM_WORLD, tracker, mine, my_seconds, planned, result);
    for (int r = 0; r < ranks; ++r)
      ASSERT_EQ(result.call_seconds[static_cast<std::size_t>(r)], 0.5 * (r + 1) + step) << "rank " << r;
    std::vector<double> decision = result.estimates;
    decision.push_back(result.gain);
    decision.push_back(result.replan ? 1.0 : 0.0);
    for (core::Verdict v : result.verdicts) decision.push_back(static_cast<double>(v));
    ASSERT_TRUE(identical_everywhere(decision)) << "step " << step;
    if (step == 4) {
      EXPECT_EQ(result.verdicts[0], core::Verdict::Suspect);
    }
    if (result.replan) {
      ++replans;
      if (first_replan < 0) first_replan = step;
      planned = result.speeds;
    }
  }
  // The change during step 10 is seen at 10 (suspect) and followed at 11; never before.
  EXPECT_EQ(replans, 1);
  EXPECT_EQ(first_replan, 11);
  for (int r = 0; r < ranks; ++r) {
    const double want = true_rate(r, ranks, 19);
    EXPECT_NEAR(tracker.estimates()[static_cast<std::size_t>(r)], want, 0.05 * want) << "rank " << r;
  }
}

TEST(SpeedAdaptation, RefusesListsOfTheWrongCount) {
  const auto ranks = static_cast<std::size_t>(mpi::test::world_size());
  core::SpeedTracker tracker(std::vector<double>(ranks, 1.0));
  AdaptationStep step = AdaptationStep::for_ranks(ranks);
  EXPECT_THROW(agree_on_observations(MPI_COMM_WORLD, tracker, 1.0, 0.0, std::vector<double>(ranks + 1, 1.0), step),
               InvalidArgument);
  AdaptationStep no_room;
  EXPECT_THROW(agree_on_observations(MPI_COMM_WORLD, tracker, 1.0, 0.0, std::vector<double>(ranks, 1.0), no_room),
               InvalidArgument);
}

}  // namespace
}  // namespace hetscal::runtime

// mpi/pricing_split: the planners' pricing split over the ranks of a communicator. Every rank
// prices its slice, one MINLOC reduction picks the winner, and every rank must end with the
// same plan as one pricer that priced the whole list, whatever its slice: on the world's
// ranks, in reverse order and on half of them. A rank that fails before or while pricing
// makes every rank fail, without leaving one waiting in the reduction.
#include "mpi/pricing_split.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/planners/cholesky_plan.hpp"
#include "core/planners/lu_plan.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::mpi::test {
namespace {

/// Nine processors of four speeds (×1e9 flop/s), a switched network.
core::Platform mixed_platform() {
  core::Platform platform;
  for (double speed : {4.0, 2.0, 2.0, 1.0, 4.0, 0.5, 1.0, 2.0, 1.0}) platform.processors.push_back({speed * 1e9, 1e12});
  platform.network = {5.0e-6, 1.0e9, core::NetworkKind::Switched, {}};
  platform.kernel.half_tile = 16.0;
  return platform;
}

/// The caller's ScaLAPACK layout: a 3×3 grid, blocks of 64, ranks row-major.
core::CallerLayout caller_3x3() {
  core::CallerLayout caller{3, 3, 64, {}};
  for (std::size_t r = 0; r < 9; ++r) caller.processor_at.push_back(r);
  return caller;
}

/// What a plan is: the chosen candidate's index, label, tile and predicted time.
struct Plan {
  std::size_t index = 0;
  std::string label;
  std::size_t tile = 0;
  double predicted_s = 0.0;
};

template <typename Choice>
Plan plan_of(const Choice& choice) {
  return {choice.chosen, choice.candidate.label, choice.tile, choice.predicted_s};
}

/// Every routine's plan, the pricing split over `comm` (slice = this rank's) or not (null).
std::vector<Plan> plans(const core::Platform& platform, std::int64_t n, MPI_Comm comm) {
  const core::PricingSlice slice = comm == MPI_COMM_NULL ? core::PricingSlice{} : pricing_slice_over(comm);
  core::LuPlanOptions lu;
  lu.search.slice = slice;
  core::CholeskyPlanOptions cholesky;
  cholesky.search.slice = slice;
  return {plan_of(core::choose_lu_plan(platform, n, n, caller_3x3(), lu)),
          plan_of(core::choose_qr_plan(platform, n, n / 2, caller_3x3(), lu)),
          plan_of(core::choose_cholesky_plan(platform, n, caller_3x3(), cholesky))};
}

void expect_the_whole_list_plan(MPI_Comm comm, const std::string& what) {
  const core::Platform platform = mixed_platform();
  for (std::int64_t n : {700, 3000}) {
    const std::vector<Plan> alone = plans(platform, n, MPI_COMM_NULL);
    const std::vector<Plan> split = plans(platform, n, comm);
    bool same = alone.size() == split.size();
    for (std::size_t r = 0; same && r < alone.size(); ++r)
      same = alone[r].index == split[r].index && alone[r].label == split[r].label && alone[r].tile == split[r].tile &&
             alone[r].predicted_s == split[r].predicted_s;
    EXPECT_TRUE(on_all_ranks(same, comm)) << what << ", N = " << n << ": rank " << world_rank() << " chose "
                                          << split[0].label << ", " << split[1].label << ", " << split[2].label;
  }
}

TEST(PricingSplit, EveryRankEndsWithThePlanOfTheWholeList) {
  expect_the_whole_list_plan(MPI_COMM_WORLD, "world");
}

TEST(PricingSplit, ReversedRanksPriceOtherSlicesAndAgreeAlike) {
  MPI_Comm reversed = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD, 0, world_size() - world_rank(), &reversed), MPI_SUCCESS);
  expect_the_whole_list_plan(reversed, "reversed");
  MPI_Comm_free(&reversed);
}

TEST(PricingSplit, HalfOfTheRanksAgreeAmongThemselves) {
  MPI_Comm half = MPI_COMM_NULL;
  ASSERT_EQ(MPI_Comm_split(MPI_COMM_WORLD, world_rank() % 2, world_rank(), &half), MPI_SUCCESS);
  expect_the_whole_list_plan(half, "half");
  MPI_Comm_free(&half);
}

TEST(PricingSplit, SlicesAreTheRanks) {
  const core::PricingSlice slice = pricing_slice_over(MPI_COMM_WORLD);
  EXPECT_EQ(slice.index, static_cast<std::size_t>(world_rank()));
  EXPECT_EQ(slice.count, static_cast<std::size_t>(world_size()));
  EXPECT_EQ(static_cast<bool>(slice.agree), world_size() > 1);
}

/// What planned_over threw on this rank: "" (nothing), "bad_alloc", "InvalidArgument" or "Error".
std::string thrown_by(const std::function<void(const core::PricingSlice&)>& plan) {
  try {
    planned_over(MPI_COMM_WORLD, [&](const core::PricingSlice& slice) {
      plan(slice);
      return 0;
    });
  } catch (const std::bad_alloc&) {
    return "bad_alloc";
  } catch (const InvalidArgument&) {
    return "InvalidArgument";
  } catch (const Error&) {
    return "Error";
  }
  return "";
}

TEST(PricingSplit, ARankFailingBeforeItsSliceFailsEveryRank) {
  const core::Platform platform = mixed_platform();
  for (int failing = 0; failing < world_size(); ++failing) {
    const std::string seen = thrown_by([&](const core::PricingSlice& slice) {
      if (world_rank() == failing) throw std::bad_alloc();  // before the planner: no agreement yet
      core::LuPlanOptions options;
      options.search.slice = slice;
      core::choose_lu_plan(platform, 1000, 1000, caller_3x3(), options);
    });
    EXPECT_TRUE(on_all_ranks(seen == (world_rank() == failing ? "bad_alloc" : "Error")))
        << "rank " << world_rank() << " of " << world_size() << ", rank " << failing << " failing: " << seen;
  }
}

/// The pick every rank agrees on when rank `which` contributes `pick` and the others +inf.
core::CandidatePick agreed_with(int which, core::CandidatePick pick, int also = -1,
                                core::CandidatePick also_pick = {}) {
  const core::PricingSlice slice = pricing_slice_over(MPI_COMM_WORLD);
  core::CandidatePick mine;
  if (world_rank() == which) mine = pick;
  if (world_rank() == also) mine = also_pick;
  return slice.agree ? slice.agree(mine) : mine;
}

TEST(PricingSplit, TheFastestPickWinsTheEarlierOnTies) {
  const int last = world_size() - 1;
  const core::CandidatePick agreed = agreed_with(last, {2.0, 7}, 0, {2.0, 9});
  EXPECT_TRUE(on_all_ranks(agreed.total_s == 2.0 && agreed.index == (world_size() == 1 ? 9u : 7u)))
      << agreed.total_s << " " << agreed.index;
}

TEST(PricingSplit, ARefusalReachesEveryRankAndAnotherFailureOutranksIt) {
  const int last = world_size() - 1;
  const core::CandidatePick refused = agreed_with(last, {core::kRefusedPick, 5});
  EXPECT_TRUE(on_all_ranks(refused.total_s == core::kRefusedPick && refused.index == 5u));
  if (world_size() < 2) return;
  const core::CandidatePick failed =
      agreed_with(last, {core::kRefusedPick, 5}, 0, {-std::numeric_limits<double>::infinity(), 8});
  EXPECT_TRUE(on_all_ranks(failed.total_s == -std::numeric_limits<double>::infinity() && failed.index == 8u));
}

}  // namespace
}  // namespace hetscal::mpi::test

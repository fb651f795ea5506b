// mpi/agreement: every rank learns whether every rank's local part succeeded, and INFO values
// combine with ScaLAPACK's rules. The expected values are written out by hand.
#include "mpi/agreement.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "mpi_test_support.hpp"

namespace hetscal::mpi::test {
namespace {

// What run_agreed threw on this rank: the failing rank, or -1 when it returned.
struct Seen {
  int failed_rank = -1;
  std::string message;
};

Seen run(const std::function<void()>& local_part) {
  Seen seen;
  try {
    run_agreed(MPI_COMM_WORLD, "move-in", local_part);
  } catch (const StageFailed& e) {
    seen.failed_rank = e.failed_rank();
    seen.message = e.what();
  }
  return seen;
}

TEST(Agreement, ReturnsEverywhereWhenEveryRankSucceeds) {
  EXPECT_TRUE(on_all_ranks(run([] {}).failed_rank == -1));
}

TEST(Agreement, OneRankFailingStopsEveryRankWithItsMessage) {
  for (int failing = 0; failing < world_size(); ++failing) {
    const Seen seen = run([&] {
      if (world_rank() == failing) throw std::runtime_error("out of memory here");
    });
    EXPECT_TRUE(on_all_ranks(seen.failed_rank == failing));
    EXPECT_TRUE(on_all_ranks(seen.message == "move-in failed on rank " + std::to_string(failing) +
                                                 ": out of memory here"))
        << seen.message;
  }
}

TEST(Agreement, TheLowestFailingRankIsNamed) {
  if (world_size() < 3) GTEST_SKIP() << "needs 3 ranks to have two failing above rank 0";
  const Seen seen = run([] {
    if (world_rank() >= 1) throw std::runtime_error("rank " + std::to_string(world_rank()));
  });
  EXPECT_TRUE(on_all_ranks(seen.failed_rank == 1 && seen.message == "move-in failed on rank 1: rank 1"));
}

// A split pricing's failure (fault sweep, 2x2): the rank that ran out of memory threw
// bad_alloc, and every other rank, told so by the pricing's agreement, threw an echo. Rank 0's
// echo used to be named ("plan failed on rank 0: ... another pricer could not price ..."),
// hiding the rank and the cause.
TEST(Agreement, AFirstHandFailureIsNamedBeforeTheEchoesOfIt) {
  for (int failing = 0; failing < world_size(); ++failing) {
    const Seen seen = run([&] {
      if (world_rank() == failing) throw std::runtime_error("std::bad_alloc");
      throw PeerFailed("another pricer could not price candidate 3");
    });
    EXPECT_TRUE(on_all_ranks(seen.failed_rank == failing &&
                             seen.message == "move-in failed on rank " + std::to_string(failing) + ": std::bad_alloc"))
        << seen.message;
  }
  // Echoes alone (no rank failed first-hand): the lowest is named.
  const Seen echoes = run([] { throw PeerRefused("another pricer refused"); });
  EXPECT_TRUE(on_all_ranks(echoes.failed_rank == 0 && echoes.message == "move-in failed on rank 0: another pricer refused"));
}

TEST(Agreement, ANestedFailureOfTheSameStageIsNotNamedTwice) {
  const int last = world_size() - 1;
  const Seen seen = run([&] {
    run_agreed(MPI_COMM_WORLD, "move-in", [&] {
      if (world_rank() == last) throw std::runtime_error("no memory");
    });
  });
  EXPECT_TRUE(on_all_ranks(seen.message == "move-in failed on rank " + std::to_string(last) + ": no memory"))
      << seen.message;
}

TEST(Agreement, LongMessagesAreCut) {
  const Seen seen = run([] {
    if (world_rank() == 0) throw std::runtime_error(std::string(100000, 'x'));
  });
  EXPECT_TRUE(on_all_ranks(seen.failed_rank == 0 && seen.message.size() < 1100));
}

TEST(Agreement, EarliestArgumentErrorFollowsPchk1mat) {
  // Scalar argument 3 ranks as 300; field 2 of the descriptor at position 7 as 702 (INFO
  // -702); the earliest wins whichever rank found it.
  EXPECT_EQ(argument_info_of_key(argument_info_key(-3)), -3);
  EXPECT_EQ(argument_info_of_key(argument_info_key(-702)), -702);
  EXPECT_EQ(argument_info_of_key(argument_info_key(0)), 0);
  EXPECT_LT(argument_info_key(-3), argument_info_key(-702));   // argument 3 before argument 7
  EXPECT_LT(argument_info_key(-702), argument_info_key(-8));   // argument 7 before argument 8
  EXPECT_LT(argument_info_key(-8), argument_info_key(0));
  const int last = world_size() - 1;
  const int local = world_rank() == last ? -702 : (world_rank() == 0 && last > 0 ? -8 : 0);
  EXPECT_EQ(earliest_argument_info(MPI_COMM_WORLD, local), -702);
  EXPECT_EQ(earliest_argument_info(MPI_COMM_WORLD, 0), 0);
}

TEST(Agreement, SmallestPositiveInfoIsTheFirstFailingMinor) {
  const int local = world_rank() == 0 ? 0 : 100 - world_rank();  // rank r > 0: 100 − r
  const int expected = world_size() == 1 ? 0 : 100 - (world_size() - 1);
  EXPECT_EQ(smallest_positive_info(MPI_COMM_WORLD, local), expected);
}

}  // namespace
}  // namespace hetscal::mpi::test

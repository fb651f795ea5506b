// mpi::agree_on_speeds: every rank ends with the same speeds, or every rank throws the same
// error.
#include "mpi/agree_on_speeds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "core/common/error.hpp"
#include "mpi_test_support.hpp"

namespace hetscal::mpi::test {
namespace {

// The message every rank got, compared with rank 0's.
bool same_message_everywhere(const std::string& message) {
  std::vector<char> reference(message.begin(), message.end());
  int length = static_cast<int>(reference.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  reference.resize(static_cast<std::size_t>(length));
  MPI_Bcast(reference.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return on_all_ranks(std::string(reference.begin(), reference.end()) == message &&
                      !message.empty());
}

std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return {};
}

TEST(AgreeOnSpeeds, GathersMeasuredSpeeds) {
  const int size = world_size(), rank = world_rank();
  const core::Speeds speeds = agree_on_speeds(MPI_COMM_WORLD, 1.0 + rank);
  bool ok = speeds.size() == static_cast<std::size_t>(size);
  for (int r = 0; ok && r < size; ++r) ok = speeds.speed(static_cast<std::size_t>(r)) == 1.0 + r;
  EXPECT_TRUE(on_all_ranks(ok));
}

TEST(AgreeOnSpeeds, BadMeasurementRefusedEverywhere) {
  const int size = world_size(), rank = world_rank();
  const double mine = rank == size - 1 ? std::numeric_limits<double>::quiet_NaN() : 2.0;
  EXPECT_TRUE(same_message_everywhere(error_of([&] { agree_on_speeds(MPI_COMM_WORLD, mine); })));
}

TEST(AgreeOnSpeeds, IdenticalConfigurationAccepted) {
  const int size = world_size();
  std::vector<double> configured(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r) configured[static_cast<std::size_t>(r)] = 1.0 + 0.5 * r;
  const core::Speeds speeds = agree_on_speeds(MPI_COMM_WORLD, configured);
  EXPECT_TRUE(on_all_ranks(speeds.speeds() == configured));
}

TEST(AgreeOnSpeeds, DifferingConfigurationRefusedEverywhere) {
  const int size = world_size(), rank = world_rank();
  if (size < 2) GTEST_SKIP() << "needs two ranks to differ";
  std::vector<double> configured(static_cast<std::size_t>(size), 1.0);
  if (rank == size - 1) configured[0] = 3.0;
  const std::string message = error_of([&] { agree_on_speeds(MPI_COMM_WORLD, configured); });
  EXPECT_TRUE(same_message_everywhere(message));
  EXPECT_NE(message.find("rank " + std::to_string(size - 1)), std::string::npos) << message;
}

TEST(AgreeOnSpeeds, WrongCountAndBadValuesRefusedEverywhere) {
  const int size = world_size();
  EXPECT_TRUE(same_message_everywhere(error_of([&] {
    agree_on_speeds(MPI_COMM_WORLD, std::vector<double>(static_cast<std::size_t>(size) + 1, 1.0));
  })));
  std::vector<double> negative(static_cast<std::size_t>(size), 1.0);
  negative.back() = -1.0;
  EXPECT_TRUE(
      same_message_everywhere(error_of([&] { agree_on_speeds(MPI_COMM_WORLD, negative); })));
}

}  // namespace
}  // namespace hetscal::mpi::test

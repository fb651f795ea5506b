// GoogleTest under MPI: every rank runs every test (the tests are collective); only rank 0
// prints the usual report, other ranks print their failures. The exit code is non-zero on
// every rank when any rank failed, so mpirun fails.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

class FailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit FailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "[rank %d] %s:%d: failure\n%s\n", rank_,
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new FailurePrinter(rank));
  }
  const int local_failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  const auto& unit = *::testing::UnitTest::GetInstance();
  int counts[2] = {unit.successful_test_count(), unit.failed_test_count()};
  int worst[2] = {0, 0};
  // A test counts as passed only when it passed on every rank.
  MPI_Allreduce(counts, worst, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int failed_any = 0;
  MPI_Allreduce(&counts[1], &failed_any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf("%d ranks: %d passed, %d failed\n", size, worst[0], failed_any);
  }
  int any_failed = 0;
  MPI_Allreduce(&local_failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any_failed;
}

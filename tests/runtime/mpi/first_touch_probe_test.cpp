// The first-touch rate a context prices with before any call has measured one: probed at the
// machine's calibration (mpi::fresh_pages_rate) and agreed, so that every rank prices the
// first call's new memory alike. Only what load cannot change is checked: a rate, and the
// same one everywhere (the figures themselves are injected in pricing_test.cpp).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <vector>

#include "mpi/fresh_pages.hpp"
#include "mpi_test_support.hpp"
#include "runtime/machine.hpp"

namespace hetscal::runtime {
namespace {

TEST(FirstTouchProbe, MapsPopulatesAndTimesFreshPages) {
  const double rate = mpi::fresh_pages_rate();
  EXPECT_TRUE(mpi::test::on_all_ranks(std::isfinite(rate) && rate > 0.0)) << rate;
}

TEST(FirstTouchProbe, EveryRankPricesTheFirstCallsMemoryAtOneProbedRate) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const MachineFigures machine = measure_machine(MPI_COMM_WORLD, std::vector<double>(static_cast<std::size_t>(size), 1.0));
  const double rate = machine.fresh_memory_bytes_per_s;
  ASSERT_TRUE(mpi::test::on_all_ranks(std::isfinite(rate) && rate > 0.0)) << rate;
  double least = 0.0, most = 0.0;
  MPI_Allreduce(&rate, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&rate, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(least, most);
  EXPECT_NE(machine.text().find(" GB/s"), std::string::npos) << machine.text();
}

}  // namespace
}  // namespace hetscal::runtime

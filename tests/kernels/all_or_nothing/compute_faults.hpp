#pragma once
// The fault every all-or-nothing kernel test injects: ranks 1 and P-1 fail their workspace
// allocation (stage "compute") in every kernel of this process.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "kernel_test_support.hpp"
#include "mpi/agreement.hpp"

namespace hetscal::kernels::test {

/// The lowest of the failing ranks 1 and P-1: what StageFailed must name everywhere.
constexpr int kFirstFailingRank = 1;

/// Sets HETSCAL_TEST_FAULT. Must run before the first kernel (fault_point reads the variable
/// once per process, and every test of the executable sets the same value): every test calls
/// it first.
inline void inject_faults() {
  const std::string faults = "compute@" + std::to_string(kFirstFailingRank) + ",compute@" +
                             std::to_string(world_size() - 1);
  ASSERT_EQ(setenv("HETSCAL_TEST_FAULT", faults.c_str(), 1), 0);
}

/// Runs `call` (a kernel) and expects it to throw StageFailed on every rank, naming rank 1
/// and the injected fault.
template <typename Call>
void expect_failed_everywhere(Call call) {
  int failed_rank = -1;
  std::string message;
  try {
    call();
  } catch (const mpi::StageFailed& e) {
    failed_rank = e.failed_rank();
    message = e.what();
  }
  EXPECT_TRUE(on_all_ranks(failed_rank == kFirstFailingRank))
      << "rank " << world_rank() << " saw " << failed_rank;
  EXPECT_NE(message.find("compute failed on rank 1"), std::string::npos) << message;
  EXPECT_NE(message.find("injected fault"), std::string::npos) << message;
}

}  // namespace hetscal::kernels::test

// The planned copies' workspace (runtime/workspace.hpp): buffers grow to the largest request,
// are reused while large enough, and are given back whole by release().
#include <gtest/gtest.h>

#include <cstddef>

#include "runtime/workspace.hpp"

namespace hetscal::runtime {
namespace {

TEST(Workspace, GrowsToTheLargestRequestAndReusesIt) {
  Workspace workspace;
  EXPECT_EQ(workspace.growth<double>(0, 100), 100 * sizeof(double));
  double* first = workspace.buffer<double>(0, 100);
  ASSERT_NE(first, nullptr);
  first[99] = 1.0;
  EXPECT_EQ(workspace.growth<double>(0, 50), 0u);
  EXPECT_EQ(workspace.buffer<double>(0, 50), first);  // large enough: the same memory
  workspace.buffer<float>(1, 10);
  EXPECT_EQ(workspace.bytes(), 100 * sizeof(double) + 10 * sizeof(float));
}

TEST(Workspace, ReleaseGivesEverythingBackAndReportsIt) {
  Workspace workspace;
  workspace.buffer<double>(0, 1000);
  workspace.buffer<double>(2, 10);
  workspace.send_buffer().reserve(4096);
  const std::size_t held = workspace.bytes();
  EXPECT_GE(held, 1010 * sizeof(double) + 4096);
  EXPECT_EQ(workspace.release(), held);
  EXPECT_EQ(workspace.bytes(), 0u);
  EXPECT_EQ(workspace.release(), 0u);  // nothing left
  // The next call allocates afresh, and is priced so.
  EXPECT_EQ(workspace.growth<double>(0, 1000), 1000 * sizeof(double));
  double* again = workspace.buffer<double>(0, 1000);
  ASSERT_NE(again, nullptr);
  again[999] = 2.0;
  EXPECT_EQ(workspace.bytes(), 1000 * sizeof(double));
}

}  // namespace
}  // namespace hetscal::runtime

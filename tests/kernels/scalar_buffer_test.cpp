// kernels::ScalarBuffer: without hooks a std::vector as any other (zero-filled, freed by the
// standard allocator); the hooks that move it to shared memory exist in SimGrid builds only.
#include "kernels/scalar_buffer.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <cstddef>

#include "core/common/error.hpp"

namespace hetscal::kernels {
namespace {

TEST(ScalarBuffer, WithoutHooksIsAZeroFilledVector) {
  ScalarBuffer<std::complex<double>> buffer(1000);
  for (const auto& x : buffer) EXPECT_EQ(x, std::complex<double>(0.0, 0.0));
  buffer.resize(300000, {1.0, 2.0});
  EXPECT_EQ(buffer.back(), std::complex<double>(1.0, 2.0));
  ScalarBuffer<std::complex<double>> moved = std::move(buffer);
  EXPECT_EQ(moved.size(), std::size_t{300000});
}

#ifndef HETSCAL_SIMGRID
void* no_allocation(std::size_t) { throw std::bad_alloc(); }
void no_release(void*, std::size_t) {}

TEST(ScalarBuffer, HooksAreRefusedOutsideSimGridBuilds) {
  EXPECT_THROW(set_scalar_buffer_hooks({no_allocation, no_release}), InvalidArgument);
  ScalarBuffer<double> buffer(4);  // still the standard allocator's
  EXPECT_EQ(buffer[3], 0.0);
}
#endif

}  // namespace
}  // namespace hetscal::kernels

#pragma once
/// @file api_planner_support.hpp
/// What the tests of the factorisation contexts' planning (api_cholesky_planner_test,
/// api_lu_planner_test) share: the machine and caller layout they plan for, and the
/// tile-by-tile comparison of two distributions.
#include <gtest/gtest.h>

#include <vector>

#include "core/time_models/time_model.hpp"
#include "layout/distribution.hpp"
#include "runtime/machine.hpp"

namespace hetscal::api_test {

/// 1e9 flop/s per unit of speed, 10 µs latency, 1 GB/s (potrf_plan_test's machine).
inline runtime::MachineFigures machine_of(const std::vector<double>& speeds) {
  runtime::MachineFigures machine;
  for (double s : speeds) machine.flops.push_back(1e9 * s);
  machine.latency_s = 1e-5;
  machine.bandwidth_bytes_per_s = 1e9;
  machine.memory_bytes = 1e12;
  return machine;
}

/// A block-cyclic matrix on a 1×P grid of ranks 0..P-1 (blocks of 32).
inline core::CallerLayout one_row_grid(std::size_t ranks) {
  core::CallerLayout caller;
  caller.grid_cols = ranks;
  caller.block = 32;
  for (std::size_t r = 0; r < ranks; ++r) caller.processor_at.push_back(r);
  return caller;
}

/// The same tiles and the same owner for every tile.
inline void expect_same_owners(const layout::Distribution& expected, const layout::Distribution& got) {
  ASSERT_EQ(got.rows().block(), expected.rows().block());
  ASSERT_EQ(got.rows().count(), expected.rows().count());
  ASSERT_EQ(got.cols().count(), expected.cols().count());
  for (std::int64_t j = 0; j < expected.cols().count(); ++j)
    for (std::int64_t i = 0; i < expected.rows().count(); ++i)
      ASSERT_EQ(got.owner({i, j}), expected.owner({i, j})) << "tile " << i << "," << j;
}

}  // namespace hetscal::api_test

#pragma once
// What the LU and QR kernel tests share: the shapes they factorise, the factors gathered on
// every rank, the speeds that make Fastest differ from DiagonalOwner, the panel rank the
// kernels must choose (worked out here from the owners alone), and the 2DBC pattern laid
// over a test matrix (tiled storage with a Cartesian grid's owners).
#include <gtest/gtest.h>
#include <malloc.h>
#include <mpi.h>

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/patterns/pattern_2dbc.hpp"
#include "kernel_test_support.hpp"
#include "kernels/lu.hpp"

namespace hetscal::kernels::test {

/// Bytes this process holds from the heap (glibc: in-use arena chunks and mmapped blocks).
inline std::int64_t heap_bytes() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<std::int64_t>(info.uordblks + info.hblkhd);
}

/// A kernel's workspace bound (lu_workspace_bytes, qr_workspace_bytes: `bound` bytes on this
/// rank) against what its prepared form takes from the heap: `prepare()` returns the prepared
/// kernel (its workspace and communicator allocated, nothing run), held while measured. The
/// bound must hold it, within what MPI_Comm_dup and page rounding take, and be tight: at most
/// half as much again (a bound for the whole M and N was several times as much).
template <typename Prepare>
void expect_tight_workspace_bound(std::int64_t bound, Prepare&& prepare) {
  prepare();  // MPI's first-use allocations
  const std::int64_t before = heap_bytes();
  std::int64_t taken = 0;
  {
    const auto prepared = prepare();
    taken = heap_bytes() - before;
  }
  constexpr std::int64_t kCommunicator = 256 * 1024;
  EXPECT_LE(taken, bound + kCommunicator) << "the bound " << bound << " B is below what was taken";
  EXPECT_LE(bound, taken + taken / 2 + kCommunicator) << "the bound " << bound << " B is loose: " << taken << " B taken";
}

/// M×N elements in square tiles of `block` after a first one of `first`.
struct Shape {
  std::int64_t m, n, block, first;
};

/// Square, tall and wide; a partial last tile; a first tile shorter and longer than the
/// others; one tile; A smaller than a tile; M or N = 0.
inline constexpr Shape kFactorizationShapes[] = {{37, 37, 5, 5}, {41, 23, 4, 3}, {19, 44, 4, 6},
                                                 {29, 29, 6, 2}, {7, 7, 9, 9},   {6, 11, 3, 7},
                                                 {0, 9, 3, 3},   {9, 0, 3, 3}};

inline std::string describe(Family family, Shape s, LuPanelRank rank) {
  return std::string(name(family)) + " " + std::to_string(s.m) + "x" + std::to_string(s.n) +
         " block " + std::to_string(s.block) + " first " + std::to_string(s.first) +
         (rank == LuPanelRank::Fastest ? " fastest" : " diagonal");
}

/// The M×N matrix a holds, gathered on every rank in double precision.
template <typename T>
std::vector<std::complex<double>> gathered(TestMatrix<T>& a, std::int64_t m, std::int64_t n) {
  std::vector<std::complex<double>> mine(static_cast<std::size_t>(m * n)), all(mine.size());
  a.for_each_owned([&](std::int64_t i, std::int64_t j, T& x) {
    mine[static_cast<std::size_t>(i + j * m)] = widened(x);
  });
  MPI_Allreduce(mine.data(), all.data(), static_cast<int>(all.size()), MPI_C_DOUBLE_COMPLEX,
                MPI_SUM, MPI_COMM_WORLD);
  return all;
}

/// Speeds for `rank`: 1, 2, ..., P for Fastest (which then picks the highest rank owning a
/// panel tile), none for DiagonalOwner.
inline std::vector<double> speeds_for(LuPanelRank rank) {
  std::vector<double> speeds;
  if (rank == LuPanelRank::Fastest)
    for (int r = 0; r < world_size(); ++r) speeds.push_back(1.0 + r);
  return speeds;
}

/// The rank that must factorise step k's panel: the owner of (k, k), or the fastest owner of
/// a tile (i >= k, k), the lowest rank among equals.
inline int expected_panel_rank(const layout::Distribution& d, std::int64_t k, LuPanelRank rank,
                               const std::vector<double>& speeds) {
  const auto speed = [&](int r) {
    return speeds.empty() ? 1.0 : speeds[static_cast<std::size_t>(r)];
  };
  int panel = d.owner({k, k});
  for (std::int64_t i = k; i < d.rows().count() && rank == LuPanelRank::Fastest; ++i) {
    const int owner = d.owner({i, k});
    if (speed(owner) > speed(panel) || (speed(owner) == speed(panel) && owner < panel))
      panel = owner;
  }
  return panel;
}

/// Each rank's flops of a call (`measured`) against the count worked out for it, to rounding
/// relative to `total`.
inline void expect_flops_per_rank(const std::vector<double>& measured,
                                  const std::vector<double>& expected, double total) {
  ASSERT_EQ(measured.size(), expected.size());
  for (std::size_t r = 0; r < measured.size(); ++r)
    EXPECT_NEAR(measured[r], expected[r], 1e-12 * total) << "rank " << r;
}

/// Lays the 2DBC pattern over a's tiles (the same owners as its Cartesian grid, through the
/// tiled path) and refills it from `seed`.
template <typename T>
void lay_block_cyclic_pattern(TestMatrix<T>& a, unsigned seed) {
  const core::Pattern pattern = core::best_block_cyclic(world_size());
  a.distribution = std::make_unique<layout::PatternDistribution>(
      layout::lay_over(pattern, a.distribution->rows(), a.distribution->cols()));
  a.storage = layout::make_local_layout(*a.distribution, world_rank());
  a.data.assign(static_cast<std::size_t>(a.storage->local_elements()), T(0));
  a.fill(seed);
}

}  // namespace hetscal::kernels::test

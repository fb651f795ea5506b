// kernels::permute_rows and interchange_permutation: the distributed row interchanges of
// PxGETRS on every distribution family (grids with bases and padding, tiles, patterns), with
// square and oblong tiles and a first tile of its own size, against the definition (element
// (i, j) afterwards is element (source[i], j) before; padding untouched); interchanges
// against swaps made one by one on a plain vector; malformed input refused on every rank.
#include "kernels/row_permutation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <numeric>
#include <vector>

#include "core/common/error.hpp"
#include "kernel_test_support.hpp"

namespace hetscal::kernels::test {
namespace {

/// A permutation of 0..n-1, the same on every rank: a deterministic shuffle.
std::vector<std::int64_t> shuffled(std::int64_t n, unsigned seed) {
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  std::iota(p.begin(), p.end(), std::int64_t{0});
  for (std::int64_t k = n - 1; k > 0; --k) {
    const auto other = static_cast<std::int64_t>((formula(k, 0, seed) + 1.0) / 2.0 * static_cast<double>(k + 1));
    std::swap(p[static_cast<std::size_t>(k)], p[static_cast<std::size_t>(std::min(other, k))]);
  }
  return p;
}

template <typename T>
void expect_permuted(Family family, Tiles row_tiles, Tiles col_tiles,
                     const std::vector<std::int64_t>& source) {
  const auto rows = static_cast<std::int64_t>(source.size());
  TestMatrix<T> x(family, rows, 9, row_tiles, col_tiles);
  x.fill(5);
  permute_rows<T>(x.out(), source, MPI_COMM_WORLD);
  bool right = x.damaged_padding() == 0;
  x.for_each_owned([&](std::int64_t i, std::int64_t j, T& value) {
    right = right && value == test_value<T>(source[static_cast<std::size_t>(i)], j, 5);
  });
  EXPECT_TRUE(on_all_ranks(right)) << name(family);
}

TEST(RowPermutation, EveryFamilyAndTiling) {
  const std::vector<std::int64_t> some = shuffled(23, 3);
  std::vector<std::int64_t> one_swap(23);
  std::iota(one_swap.begin(), one_swap.end(), std::int64_t{0});
  std::swap(one_swap[1], one_swap[20]);
  for (const Family family : kEveryFamily) {
    expect_permuted<double>(family, {4}, {4}, some);
    expect_permuted<double>(family, {4, 3}, {4, 3}, one_swap);
    if (family == Family::BlockCyclic || family == Family::Pattern)
      expect_permuted<std::complex<float>>(family, {5, 2}, {3}, some);
  }
}

TEST(RowPermutation, InterchangesAsSwapsOneByOne) {
  const std::vector<std::int64_t> pivots{3, 1, 4, 3, 4};
  for (const SwapOrder order : {SwapOrder::Forward, SwapOrder::Backward}) {
    std::vector<std::int64_t> rows(7);
    std::iota(rows.begin(), rows.end(), std::int64_t{0});
    for (std::size_t step = 0; step < pivots.size(); ++step) {
      const std::size_t i = order == SwapOrder::Forward ? step : pivots.size() - 1 - step;
      std::swap(rows[i], rows[static_cast<std::size_t>(pivots[i])]);
    }
    EXPECT_EQ(interchange_permutation(7, pivots, order), rows);
  }
  // Backward undoes forward: applying both leaves every row in place.
  const std::vector<std::int64_t> forward = interchange_permutation(7, pivots, SwapOrder::Forward),
                                  backward =
                                      interchange_permutation(7, pivots, SwapOrder::Backward);
  for (std::size_t r = 0; r < forward.size(); ++r)
    EXPECT_EQ(forward[static_cast<std::size_t>(backward[r])], static_cast<std::int64_t>(r));
}

TEST(RowPermutation, MalformedInputIsRefusedEverywhere) {
  EXPECT_THROW(interchange_permutation(3, {0, 5}, SwapOrder::Forward), InvalidArgument);
  EXPECT_THROW(interchange_permutation(2, {0, 1, 1}, SwapOrder::Backward), InvalidArgument);
  TestMatrix<double> x(Family::BlockCyclic, 6, 4, {2}, {2});
  x.fill(1);
  for (const std::vector<std::int64_t>& source :
       {std::vector<std::int64_t>{0, 1, 2, 3, 4}, std::vector<std::int64_t>{0, 1, 2, 3, 4, 4},
        std::vector<std::int64_t>{0, 1, 2, 3, 4, 6}}) {
    EXPECT_TRUE(thrown_everywhere<InvalidArgument>(
        [&] { permute_rows<double>(x.out(), source, MPI_COMM_WORLD); }));
  }
  bool untouched = true;
  x.for_each_owned([&](std::int64_t i, std::int64_t j, double& value) {
    untouched = untouched && value == test_value<double>(i, j, 1);
  });
  EXPECT_TRUE(on_all_ranks(untouched));
}

}  // namespace
}  // namespace hetscal::kernels::test

// kernels::cholesky on every distribution family (block-cyclic grids in one local array or as
// tiles, heterogeneous grids, a grid leaving one rank out, hand-made, G-2DBC, GCR&M and
// heterogeneous patterns), both triangles, the four scalar types, tile splits with a partial
// last tile and a first tile unlike the others. Oracles independent of the kernel:
// - the residual ‖A − L·Lᴴ‖_F / (‖A‖_F·N·ε) of the gathered factor against A's formula;
// - INFO against the analytic order of a planted non-positive minor and against LAPACK's
//   POTRF on the whole gathered matrix;
// - the other triangle (NaN) and the local array's padding left bit-identical;
// - the flop count against LAWN 41's POTRF count, worked out here by hand.
#include "kernels/cholesky.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "in_place_test_matrix.hpp"
#include "kernel_test_support.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"

namespace hetscal::kernels::test {
namespace {

using Complex = std::complex<double>;

constexpr unsigned kSeed = 7;

/// Square tiles: N elements, tiles of `block` after a first one of `first`.
struct Shape {
  std::int64_t n, block, first;
};

bool in_triangle(Uplo uplo, std::int64_t i, std::int64_t j) {
  return uplo == Uplo::Lower ? i >= j : i <= j;
}

/// Element (i, j) of the Hermitian positive definite test matrix of order n (diagonally
/// dominant). Its diagonal carries an imaginary part that POTRF must ignore; a planted
/// diagonal value -1 at `broken` (0-based, -1: none) makes the leading minor of order
/// broken + 1 the first that is not positive definite.
template <typename T>
T matrix_value(std::int64_t i, std::int64_t j, std::int64_t n, std::int64_t broken) {
  if (i == j) {
    const double diagonal = i == broken ? -1.0 : 2.0 * static_cast<double>(n) + 1.0;
    if constexpr (is_complex_v<T>) {
      return T(static_cast<real_of_t<T>>(diagonal), real_of_t<T>(0.5));
    } else {
      return static_cast<T>(diagonal);
    }
  }
  if (i > j) return test_value<T>(i, j, kSeed);
  if constexpr (is_complex_v<T>) {
    return std::conj(test_value<T>(j, i, kSeed));
  } else {
    return test_value<T>(j, i, kSeed);
  }
}

/// The same value as the oracle sees it: the diagonal's imaginary part is not part of A.
template <typename T>
Complex oracle_value(std::int64_t i, std::int64_t j, std::int64_t n, std::int64_t broken) {
  const Complex x = widened(matrix_value<T>(i, j, n, broken));
  return i == j ? Complex(x.real(), 0.0) : x;
}

template <typename T>
bool is_quiet_nan_bits(const T& x) {
  const T nan = quiet_nan<T>();
  return std::memcmp(&x, &nan, sizeof(T)) == 0;
}

/// Flops of POTRF of order n by LAWN 41: n(n+1)(n+2)/6 multiplications, (n-1)n(n+1)/6
/// additions; a complex multiplication is 6 real flops, an addition 2.
template <typename T>
double lawn41_potrf_flops(std::int64_t n) {
  const double d = static_cast<double>(n);
  const double multiplications = d * (d + 1) * (d + 2) / 6.0,
               additions = (d - 1) * d * (d + 1) / 6.0;
  return is_complex_v<T> ? 6.0 * multiplications + 2.0 * additions : multiplications + additions;
}

/// ‖A − L·Lᴴ‖_F / (‖A‖_F·N·ε) over the lower triangle, L read from the gathered `uplo` factor g
/// (Upper: L = Uᴴ). Also false-flags a factor whose diagonal is not real and positive.
/// The O(N³) sums are shared out by column over the ranks and added up, so that P ranks on
/// a few cores do not each repeat all of them; every rank gets the same value.
template <typename T>
double scaled_residual(const std::vector<Complex>& g, Uplo uplo, std::int64_t n, std::int64_t broken) {
  // L row by row (row i holds L(i, 0..i)), so that the products below read contiguously.
  std::vector<Complex> rows(static_cast<std::size_t>(n * n));
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t k = 0; k <= i; ++k)
      rows[static_cast<std::size_t>(i * n + k)] =
          uplo == Uplo::Lower ? g[static_cast<std::size_t>(i + k * n)]
                              : std::conj(g[static_cast<std::size_t>(k + i * n)]);
  const auto l = [&](std::int64_t i) { return rows.data() + i * n; };
  double sums[2] = {0.0, 0.0};  // residual², ‖A‖²
  for (std::int64_t j = 0; j < n; ++j) {
    if (l(j)[j].imag() != 0.0 || !(l(j)[j].real() > 0.0)) return HUGE_VAL;  // on every rank
    if (j % world_size() != world_rank()) continue;
    for (std::int64_t i = j; i < n; ++i) {
      Complex product = 0.0;
      for (std::int64_t k = 0; k <= j; ++k) product += l(i)[k] * std::conj(l(j)[k]);
      const Complex original = oracle_value<T>(i, j, n, broken);
      sums[0] += std::norm(original - product);
      sums[1] += std::norm(original);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  return n == 0 ? 0.0 : std::sqrt(sums[0] / sums[1]) / (static_cast<double>(n) * eps);
}

/// One factorisation: A written in its `uplo` triangle, NaN in the other.
template <typename T>
struct Factorisation {
  Factorisation(Family family, Uplo u, Shape s, std::int64_t broken_at = -1)
      : uplo(u),
        shape(s),
        broken(broken_at),
        a(family, s.n, s.n, {s.block, s.first}, {s.block, s.first}) {
    a.for_each_owned([&](std::int64_t i, std::int64_t j, T& x) {
      x = in_triangle(uplo, i, j) ? matrix_value<T>(i, j, shape.n, broken) : quiet_nan<T>();
    });
  }

  /// Runs the kernel; returns the global flop count of the call.
  double run() {
    const double before = local_flops();
    info = cholesky<T>(uplo, a.out(), MPI_COMM_WORLD);
    return sum_over_ranks(local_flops() - before);
  }

  /// The factor's `uplo` triangle, gathered on every rank (zero elsewhere).
  std::vector<Complex> gathered_triangle() {
    std::vector<Complex> mine(static_cast<std::size_t>(shape.n * shape.n)), all(mine.size());
    a.for_each_owned([&](std::int64_t i, std::int64_t j, T& x) {
      if (in_triangle(uplo, i, j)) mine[static_cast<std::size_t>(i + j * shape.n)] = widened(x);
    });
    MPI_Allreduce(mine.data(), all.data(), static_cast<int>(all.size()), MPI_C_DOUBLE_COMPLEX,
                  MPI_SUM, MPI_COMM_WORLD);
    return all;
  }

  /// ‖A − L·Lᴴ‖_F / (‖A‖_F·N·ε) (scaled_residual below).
  double scaled_residual() { return test::scaled_residual<T>(gathered_triangle(), uplo, shape.n, broken); }

  /// Whether the other triangle still holds the NaN bits and the padding is intact, on every rank.
  bool untouched_everywhere() {
    bool same = a.damaged_padding() == 0;
    a.for_each_owned([&](std::int64_t i, std::int64_t j, T& x) {
      if (!in_triangle(uplo, i, j)) same = same && is_quiet_nan_bits(x);
    });
    return on_all_ranks(same);
  }

  /// INFO of LAPACK's POTRF on the whole original matrix (every rank computes it).
  std::int64_t lapack_info() const {
    const std::int64_t n = shape.n;
    std::vector<T> whole(static_cast<std::size_t>(std::max<std::int64_t>(n * n, 1)));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < n; ++i)
        whole[static_cast<std::size_t>(i + j * n)] = matrix_value<T>(i, j, n, broken);
    return potrf<T>(uplo, n, whole.data(), std::max<std::int64_t>(n, 1));
  }

  /// True when every rank returned the same INFO.
  bool info_agreed() const {
    std::int64_t low = 0, high = 0;
    MPI_Allreduce(&info, &low, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&info, &high, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    return low == high;
  }

  Uplo uplo;
  Shape shape;
  std::int64_t broken;
  TestMatrix<T> a;
  std::int64_t info = -1;
};

std::string describe(Family family, Uplo uplo, Shape s) {
  return std::string(name(family)) + (uplo == Uplo::Lower ? " L" : " U") +
         " N=" + std::to_string(s.n) + " block " + std::to_string(s.block) + " first " +
         std::to_string(s.first);
}

/// Factorises, then checks the residual, INFO = 0, the untouched parts and the flop count.
template <typename T>
void check_factorisation(Family family, Uplo uplo, Shape shape) {
  SCOPED_TRACE(describe(family, uplo, shape));
  Factorisation<T> f(family, uplo, shape);
  const double flops = f.run();
  EXPECT_EQ(f.info, 0);
  EXPECT_TRUE(f.info_agreed());
  EXPECT_LT(f.scaled_residual(), 16.0);
  EXPECT_TRUE(f.untouched_everywhere());
  EXPECT_EQ(flops, lawn41_potrf_flops<T>(shape.n));
}

// Partial last tile, first tile shorter and longer than the others, N below one tile, N = 0,
// and enough tiles for every rank to own several in each tile row and column.
const Shape kShapes[] = {{17, 4, 4}, {19, 4, 2}, {13, 3, 5}, {3, 5, 5}, {0, 3, 3}, {44, 3, 2}};

TEST(Cholesky, DoubleOnEveryFamilyShapeAndTriangle) {
  for (const Family family : kEveryFamily)
    for (const Uplo uplo : {Uplo::Lower, Uplo::Upper})
      for (const Shape& shape : kShapes) check_factorisation<double>(family, uplo, shape);
}

// Enough tile columns on every rank of the grids with one or two process columns for a local
// array's trailing update to take them in several groups of kGroupColumns (256) columns, the
// last narrower (cholesky_update.hpp): the groups' common rows, their staircases and the lines
// gathered side by side. Only the families TestMatrix keeps in a Cartesian local array take
// that update; the others update tile by tile, as in the tests above.
TEST(Cholesky, LocalArrayUpdateInSeveralGroups) {
  for (const Family family : {Family::BlockCyclic, Family::OtherGrid, Family::OneRow,
                              Family::Heterogeneous, Family::PartialGrid}) {
    for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      check_factorisation<double>(family, uplo, {600, 8, 5});
      check_factorisation<std::complex<double>>(family, uplo, {400, 4, 3});
    }
  }
}

TEST(Cholesky, OtherScalarTypesOnEveryFamily) {
  for (const Family family : kEveryFamily) {
    for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      check_factorisation<float>(family, uplo, {19, 4, 2});
      check_factorisation<std::complex<float>>(family, uplo, {13, 3, 5});
      check_factorisation<std::complex<double>>(family, uplo, {17, 4, 4});
    }
  }
}

/// A planted non-positive minor of order `order` (1-based): INFO equals it, equals LAPACK's on
/// the whole matrix, on every rank; the other triangle stays untouched.
template <typename T>
void check_not_positive_definite(Family family, Uplo uplo, Shape shape, std::int64_t order) {
  SCOPED_TRACE(describe(family, uplo, shape) + " broken at order " + std::to_string(order));
  Factorisation<T> f(family, uplo, shape, order - 1);
  f.run();
  EXPECT_EQ(f.info, order);
  EXPECT_EQ(f.info, f.lapack_info());
  EXPECT_TRUE(f.info_agreed());
  EXPECT_TRUE(f.untouched_everywhere());
}

TEST(Cholesky, InfoIsTheOrderOfTheFirstNonPositiveMinor) {
  const Shape shape{19, 4, 2};  // tiles start at 0, 2, 6, 10, 14, 18
  for (const Family family :
       {Family::BlockCyclic, Family::Heterogeneous, Family::PartialGrid, Family::Gcrm}) {
    for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
      // First element, first of a tile, inside a tile, last element.
      for (const std::int64_t order : {1, 7, 9, 19})
        check_not_positive_definite<double>(family, uplo, shape, order);
      check_not_positive_definite<std::complex<double>>(family, uplo, shape, 12);
    }
  }
}

/// A factorisation on an in-place take-over's storage (in_place_test_matrix.hpp: kept tiles of
/// A's triangle in a padded caller array, received ones in an overflow): runs of tiles break
/// at both buffers. Checks the residual (or INFO), and that nothing of the caller's array but
/// the kept tiles of the triangle changed, bit for bit (the other triangle, the padding, the
/// tiles given away).
template <typename T>
void check_in_place(Uplo uplo, Shape shape, std::int64_t broken_order = 0) {
  SCOPED_TRACE(std::string("in place") + (uplo == Uplo::Lower ? " L" : " U") + " N=" + std::to_string(shape.n) +
               " broken at order " + std::to_string(broken_order));
  InPlaceTestMatrix<T> a(shape.n, shape.n, shape.block, shape.first,
                         uplo == Uplo::Lower ? layout::StoredTiles::LowerTriangle : layout::StoredTiles::UpperTriangle);
  const std::int64_t broken = broken_order - 1;
  a.fill([&](std::int64_t i, std::int64_t j) {
    return in_triangle(uplo, i, j) ? matrix_value<T>(i, j, shape.n, broken) : quiet_nan<T>();
  });
  const std::int64_t info = cholesky<T>(uplo, a.matrix(), MPI_COMM_WORLD);
  EXPECT_EQ(info, broken_order);
  EXPECT_TRUE(a.untouched_but_kept());
  if (broken_order != 0) return;
  const std::vector<Complex> all = a.gathered([&](std::int64_t i, std::int64_t j) { return in_triangle(uplo, i, j); });
  EXPECT_LT(scaled_residual<T>(all, uplo, shape.n, broken), 16.0);
}

// Enough tiles for the update's stacked panel to take several bands (kStackBands), and runs
// of tiles long in one buffer and broken at the other; a first tile unlike the others.
TEST(Cholesky, InPlaceStorageKeptAndOverflow) {
  for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    check_in_place<double>(uplo, {300, 8, 5});
    check_in_place<std::complex<float>>(uplo, {120, 6, 6});
    check_in_place<double>(uplo, {19, 4, 2});
    check_in_place<double>(uplo, {300, 8, 5}, 131);  // inside a tile: ScaLAPACK's partial factor
  }
}

TEST(Cholesky, RefusesBadArgumentsOnEveryRank) {
  const auto refused_everywhere = [](const DistributedMatrix<double>& a) {
    return thrown_everywhere<InvalidArgument>(
        [&] { cholesky<double>(Uplo::Lower, a, MPI_COMM_WORLD); });
  };
  TestMatrix<double> unequal(Family::BlockCyclic, 12, 12, {3}, {4});
  EXPECT_TRUE(refused_everywhere(unequal.out()));
  TestMatrix<double> rectangle(Family::BlockCyclic, 12, 9, {3}, {3});
  EXPECT_TRUE(refused_everywhere(rectangle.out()));
  // Refusals found on one rank only: rank 0 alone lacks its storage, or holds another rank's.
  TestMatrix<double> a(Family::Pattern, 12, 12, {3}, {3});
  const DistributedMatrix<double> missing{
      a.distribution.get(), world_rank() == 0 ? nullptr : a.storage.get(), a.data.data()};
  EXPECT_TRUE(refused_everywhere(missing));
  if (world_size() > 1) {
    const std::unique_ptr<layout::LocalLayout> other =
        layout::make_local_layout(*a.distribution, 1);
    std::vector<double> other_data(static_cast<std::size_t>(other->local_elements()) + 1);
    const DistributedMatrix<double> misplaced =
        world_rank() == 0
            ? DistributedMatrix<double>{a.distribution.get(), other.get(), other_data.data()}
            : a.out();
    EXPECT_TRUE(refused_everywhere(misplaced));
  }
}

}  // namespace
}  // namespace hetscal::kernels::test

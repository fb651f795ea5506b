// kernels::lu on every distribution family (block-cyclic grids in one local array or as
// tiles, heterogeneous grids, a grid leaving one rank out, hand-made, G-2DBC, GCR&M and
// heterogeneous patterns), square, tall and wide, the four scalar types, tile splits with a
// partial last tile and a first tile unlike the others, both panel ranks. Oracles
// independent of the kernel:
// - the residual ‖P·A − L·U‖_F / (‖A‖_F·max(M,N)·ε) of the gathered factors against A's
//   formula, P applied from the returned pivots;
// - LAPACK's GETRF on the whole gathered matrix: the same pivots and INFO, factors to
//   rounding;
// - matrices made exactly singular (a zero column; two equal columns whose elimination is
//   exact), whose INFO is known by hand;
// - the local array's padding left bit-identical;
// - the flop count against LAWN 41's counts of the blocked algorithm, worked out here.
#include "kernels/lu.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "factorization_test_support.hpp"
#include "in_place_test_matrix.hpp"
#include "kernel_test_support.hpp"
#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"

namespace hetscal::kernels::test {
namespace {

using Complex = std::complex<double>;

constexpr unsigned kSeed = 11;

/// What a test matrix holds besides the random formula.
struct Singularity {
  std::int64_t zero_column = -1;  ///< a column of zeros
  std::int64_t twin_column = -1;  ///< column c equal to column c-1, with a pivot 2 on row 0
};

template <typename T>
T element(std::int64_t i, std::int64_t j, Singularity s) {
  if (j == s.zero_column) return T(0);
  if (s.twin_column > 0 && (j == s.twin_column || j == s.twin_column - 1)) {
    // Column c-1's pivot is 2, the largest entry, so its multipliers are exact halves and
    // column c is eliminated to exact zeros (the twin is reached with the same earlier
    // updates, as the two columns are equal).
    return i == 0 ? T(2) : test_value<T>(i, s.twin_column - 1, kSeed);
  }
  return test_value<T>(i, j, kSeed);
}

/// LAWN 41 GETRF count (m >= n; swapped otherwise), flops on T.
template <typename T>
double lawn_getrf(std::int64_t rows, std::int64_t cols) {
  const double m = static_cast<double>(std::max(rows, cols)),
               n = static_cast<double>(std::min(rows, cols));
  const double mults = m * n * n / 2 - n * n * n / 6 + m * n / 2 - n * n / 2 + 2 * n / 3;
  const double adds = m * n * n / 2 - n * n * n / 6 - m * n / 2 + n / 6;
  return is_complex_v<T> ? 6 * mults + 2 * adds : mults + adds;
}

/// The blocked algorithm's count: per step, GETRF of the panel, the TRSM of the U row block
/// (counted as non-unit: n·m(m+1)/2 mults, n·m(m-1)/2 adds) and the trailing GEMM.
template <typename T>
double blocked_flops(Shape s) {
  const double mult = is_complex_v<T> ? 6.0 : 1.0, add = is_complex_v<T> ? 2.0 : 1.0;
  double total = 0;
  std::int64_t offset = 0;
  for (std::int64_t k = 0; offset < std::min(s.m, s.n); ++k) {
    const std::int64_t kb = std::min(k == 0 ? s.first : s.block, s.n - offset);
    const std::int64_t mk = std::min(kb, s.m - offset);
    const double right = static_cast<double>(s.n - offset - kb),
                 below = static_cast<double>(s.m - offset - mk);
    total += lawn_getrf<T>(s.m - offset, kb);
    const double order = static_cast<double>(mk);
    total += right * order * (mult * (order + 1) + add * (order - 1)) / 2;
    total += (mult + add) * below * right * static_cast<double>(kb);
    offset += kb;
  }
  return total;
}

/// Each rank's share of the blocked count, from the owners alone: step k's GETRF on its panel
/// rank (the owner of (k, k), or the fastest owner of a tile (i >= k, k), the lowest rank
/// among equals), the TRSM of tile (k, j) and the GEMM of tile (i, j), i, j > k, on their
/// owners.
template <typename T>
std::vector<double> flops_per_rank(const layout::Distribution& d, const LuOptions& options) {
  const double mult = is_complex_v<T> ? 6.0 : 1.0, add = is_complex_v<T> ? 2.0 : 1.0;
  const layout::TileSplit &rows = d.rows(), &cols = d.cols();
  std::vector<double> flops(static_cast<std::size_t>(d.num_ranks()), 0.0);
  const auto add_to = [&](int rank, double f) { flops[static_cast<std::size_t>(rank)] += f; };
  for (std::int64_t k = 0; k < std::min(rows.count(), cols.count()); ++k) {
    const int panel = expected_panel_rank(d, k, options.panel_rank, options.rank_speeds);
    add_to(panel, lawn_getrf<T>(rows.extent() - rows.offset(k), cols.size(k)));
    const double order = static_cast<double>(rows.size(k)), kb = static_cast<double>(cols.size(k));
    for (std::int64_t j = k + 1; j < cols.count(); ++j) {
      const double width = static_cast<double>(cols.size(j));
      add_to(d.owner({k, j}), width * order * (mult * (order + 1) + add * (order - 1)) / 2);
      for (std::int64_t i = k + 1; i < rows.count(); ++i)
        add_to(d.owner({i, j}), (mult + add) * static_cast<double>(rows.size(i)) * width * kb);
    }
  }
  return flops;
}

/// LAPACK's GETRF on a whole matrix: its INFO, pivots (0-based) and factors.
template <typename T>
struct LapackLu {
  std::int64_t info = 0;
  std::vector<std::int64_t> pivots;
  std::vector<T> factors;
};

template <typename T>
LapackLu<T> lapack_lu(Shape shape, Singularity singularity) {
  const std::int64_t m = shape.m, n = shape.n;
  LapackLu<T> ref;
  ref.factors.resize(static_cast<std::size_t>(std::max<std::int64_t>(m * n, 1)));
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < m; ++i) ref.factors[static_cast<std::size_t>(i + j * m)] = element<T>(i, j, singularity);
  std::vector<int> ipiv(static_cast<std::size_t>(std::max<std::int64_t>(std::min(m, n), 1)));
  ref.info = getrf<T>(m, n, ref.factors.data(), std::max<std::int64_t>(m, 1), ipiv.data());
  for (std::int64_t p = 0; p < std::min(m, n); ++p) ref.pivots.push_back(ipiv[static_cast<std::size_t>(p)] - 1);
  return ref;
}

/// Largest difference of the gathered factors f from LAPACK's, relative to the largest entry.
template <typename T>
double factor_difference(const std::vector<Complex>& f, const LapackLu<T>& ref) {
  double difference = 0, largest = 0;
  for (std::size_t e = 0; e < f.size(); ++e) {
    difference = std::max(difference, std::abs(f[e] - widened(ref.factors[e])));
    largest = std::max(largest, std::abs(f[e]));
  }
  return largest == 0 ? 0 : difference / largest;
}

template <typename T>
struct Factorisation {
  Factorisation(Family family, Shape s, Singularity singular = {})
      : shape(s),
        singularity(singular),
        a(family, s.m, s.n, {s.block, s.first}, {s.block, s.first}) {
    a.for_each_owned(
        [&](std::int64_t i, std::int64_t j, T& x) { x = element<T>(i, j, singularity); });
    pivots.assign(static_cast<std::size_t>(std::min(s.m, s.n)), -1);
  }

  /// Runs the kernel; returns the flops of the call on every rank.
  std::vector<double> run(const LuOptions& options = {}) {
    const double before = local_flops();
    info = lu<T>(a.out(), pivots.data(), MPI_COMM_WORLD, options);
    double mine = local_flops() - before;
    std::vector<double> flops(static_cast<std::size_t>(world_size()));
    MPI_Allgather(&mine, 1, MPI_DOUBLE, flops.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    return flops;
  }

  /// The factors as stored over A, gathered on every rank.
  std::vector<Complex> gathered() { return test::gathered(a, shape.m, shape.n); }

  /// ‖P·A − L·U‖_F / (‖A‖_F·max(M,N)·ε).
  double scaled_residual() {
    const std::int64_t m = shape.m, n = shape.n, r = std::min(m, n);
    const std::vector<Complex> f = gathered();
    std::vector<Complex> pa(f.size());
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        pa[static_cast<std::size_t>(i + j * m)] = widened(element<T>(i, j, singularity));
    for (std::int64_t p = 0; p < r; ++p) {
      const std::int64_t q = pivots[static_cast<std::size_t>(p)];
      if (q < p || q >= m) return HUGE_VAL;
      for (std::int64_t j = 0; j < n; ++j)
        std::swap(pa[static_cast<std::size_t>(p + j * m)], pa[static_cast<std::size_t>(q + j * m)]);
    }
    double residual = 0, norm = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) {
        Complex product = 0;
        for (std::int64_t l = 0; l <= std::min({i, j, r - 1}); ++l) {
          const Complex lower = l == i ? 1.0 : f[static_cast<std::size_t>(i + l * m)];
          product += lower * f[static_cast<std::size_t>(l + j * m)];
        }
        residual += std::norm(pa[static_cast<std::size_t>(i + j * m)] - product);
        norm += std::norm(pa[static_cast<std::size_t>(i + j * m)]);
      }
    }
    const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
    return norm == 0 ? 0 : std::sqrt(residual / norm) / (static_cast<double>(std::max(m, n)) * eps);
  }

  /// LAPACK's GETRF on the whole matrix (lapack_lu).
  LapackLu<T> lapack() const { return lapack_lu<T>(shape, singularity); }

  /// Largest difference from LAPACK's factors, relative to the largest factor entry.
  double factor_difference(const LapackLu<T>& ref) { return test::factor_difference(gathered(), ref); }

  /// True when every rank returned the same INFO and pivots, and kept its padding.
  bool agreed_and_untouched() {
    std::vector<std::int64_t> mine = pivots, low(mine.size() + 1), high(mine.size() + 1);
    mine.push_back(info);
    MPI_Allreduce(mine.data(), low.data(), static_cast<int>(mine.size()), MPI_INT64_T, MPI_MIN,
                  MPI_COMM_WORLD);
    MPI_Allreduce(mine.data(), high.data(), static_cast<int>(mine.size()), MPI_INT64_T, MPI_MAX,
                  MPI_COMM_WORLD);
    return on_all_ranks(low == high && a.damaged_padding() == 0);
  }

  Shape shape;
  Singularity singularity;
  TestMatrix<T> a;
  std::vector<std::int64_t> pivots;
  std::int64_t info = -1;
};

/// Speeds 1, 2, ..., P: Fastest then picks the highest rank of each panel.
LuOptions options_for(LuPanelRank rank) {
  LuOptions options;
  options.panel_rank = rank;
  options.rank_speeds = speeds_for(rank);
  return options;
}

template <typename T>
void check_factorisation(Family family, Shape shape,
                         LuPanelRank rank = LuPanelRank::DiagonalOwner) {
  SCOPED_TRACE(describe(family, shape, rank));
  Factorisation<T> f(family, shape);
  const LuOptions options = options_for(rank);
  const std::vector<double> flops = f.run(options);
  const auto ref = f.lapack();
  EXPECT_EQ(f.info, ref.info);
  EXPECT_EQ(f.pivots, ref.pivots);
  EXPECT_TRUE(f.agreed_and_untouched());
  EXPECT_LT(f.scaled_residual(), 8.0);
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  EXPECT_LT(f.factor_difference(ref), 1e3 * eps);
  // The 2n/3 terms of GETRF's count are not exact in binary: equal to rounding.
  const double total = blocked_flops<T>(shape);
  EXPECT_NEAR(std::accumulate(flops.begin(), flops.end(), 0.0), total, 1e-12 * total);
  const std::vector<double> expected = flops_per_rank<T>(*f.a.distribution, options);
  expect_flops_per_rank(flops, expected, total);
}

TEST(Lu, DoubleOnEveryFamilyAndShape) {
  for (const Family family : kEveryFamily)
    for (const Shape& shape : kFactorizationShapes) check_factorisation<double>(family, shape);
}

TEST(Lu, FastestPanelRankOnEveryFamily) {
  for (const Family family : kEveryFamily) {
    check_factorisation<double>(family, {37, 37, 5, 5}, LuPanelRank::Fastest);
    check_factorisation<double>(family, {41, 23, 4, 3}, LuPanelRank::Fastest);
  }
}

// The 2DBC pattern as a pattern (tiles, not a local array): the same owners as the Cartesian
// grid, through the tiled path, against the same oracles.
TEST(Lu, BlockCyclicPatternAsTiles) {
  for (const Shape& shape : {Shape{37, 37, 5, 5}, Shape{41, 23, 4, 3}, Shape{19, 44, 4, 6}}) {
    SCOPED_TRACE("2DBC pattern " + std::to_string(shape.m) + "x" + std::to_string(shape.n));
    Factorisation<double> f(Family::BlockCyclic, shape);
    lay_block_cyclic_pattern(f.a, kSeed);
    f.run();
    const auto ref = f.lapack();
    EXPECT_EQ(f.pivots, ref.pivots);
    EXPECT_TRUE(f.agreed_and_untouched());
    EXPECT_LT(f.scaled_residual(), 8.0);
  }
}

TEST(Lu, OtherScalarTypes) {
  for (const Family family :
       {Family::BlockCyclic, Family::Heterogeneous, Family::G2dbc, Family::HeteroPattern}) {
    check_factorisation<float>(family, {23, 23, 4, 4});
    check_factorisation<std::complex<float>>(family, {19, 26, 3, 5});
    check_factorisation<std::complex<double>>(family, {31, 17, 4, 2}, LuPanelRank::Fastest);
  }
}

template <typename T>
void check_singular(Family family, Shape shape, Singularity singular, std::int64_t expected_info) {
  SCOPED_TRACE(describe(family, shape, LuPanelRank::DiagonalOwner) + " zero column " +
               std::to_string(singular.zero_column) + " twin " +
               std::to_string(singular.twin_column));
  Factorisation<T> f(family, shape, singular);
  f.run();
  EXPECT_EQ(f.info, expected_info);
  EXPECT_EQ(f.info, f.lapack().info);
  EXPECT_TRUE(f.agreed_and_untouched());
  EXPECT_LT(f.scaled_residual(), 8.0);  // the factorisation was completed
}

TEST(Lu, ExactlySingularMatricesGiveLapacksInfo) {
  const Shape shape{27, 27, 4, 3};  // tiles start at 0, 3, 7, 11, ...
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::G2dbc}) {
    for (const std::int64_t column : {0, 3, 12, 26})
      check_singular<double>(family, shape, {column, -1}, column + 1);
    check_singular<double>(family, shape, {-1, 1}, 2);
    check_singular<double>(family, shape, {20, 1}, 2);  // the first zero pivot counts
    check_singular<std::complex<double>>(family, {19, 30, 4, 4}, {9, -1}, 10);
  }
}

/// A factorisation on an in-place take-over's storage (in_place_test_matrix.hpp: kept tiles in
/// a padded caller array, received ones in an overflow): the interchanges, the panel and the
/// updates meet both buffers. Checks INFO and the pivots against LAPACK's, the factors to
/// rounding, and that nothing of the caller's array but the kept tiles changed, bit for bit
/// (the padding, the tiles given away).
template <typename T>
void check_in_place(Shape shape, LuPanelRank rank, Singularity singular = {}) {
  SCOPED_TRACE(describe(Family::BlockCyclic, shape, rank) + " in place, zero column " +
               std::to_string(singular.zero_column));
  InPlaceTestMatrix<T> a(shape.m, shape.n, shape.block, shape.first, layout::StoredTiles::All);
  a.fill([&](std::int64_t i, std::int64_t j) { return element<T>(i, j, singular); });
  std::vector<std::int64_t> pivots(static_cast<std::size_t>(std::min(shape.m, shape.n)), -1);
  const std::int64_t info = lu<T>(a.matrix(), pivots.data(), MPI_COMM_WORLD, options_for(rank));
  const LapackLu<T> ref = lapack_lu<T>(shape, singular);
  EXPECT_EQ(info, ref.info);
  EXPECT_EQ(pivots, ref.pivots);
  EXPECT_TRUE(a.untouched_but_kept());
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  EXPECT_LT(factor_difference(a.gathered(), ref), 1e3 * eps);
}

// Square, tall and wide; a first tile unlike the others; both panel ranks; a singular matrix
// (its factorisation completed, INFO the zero column's).
TEST(Lu, InPlaceStorageKeptAndOverflow) {
  for (const LuPanelRank rank : {LuPanelRank::DiagonalOwner, LuPanelRank::Fastest}) {
    check_in_place<double>({37, 37, 5, 5}, rank);
    check_in_place<double>({41, 23, 4, 3}, rank);
    check_in_place<double>({19, 44, 4, 6}, rank);
    check_in_place<std::complex<float>>({31, 26, 3, 3}, rank);
    check_in_place<double>({37, 37, 5, 5}, rank, {12, -1});
  }
}

// lu_workspace_bytes against the heap PreparedLu takes on this rank (N = 1,200, NB = 32: the
// former bound for the whole M and N was 5.5 MB on each of 4 ranks): block-cyclic in one array
// (on 1xP every swap and panel is local) and as tiles, a heterogeneous grid, a pattern, and an
// in-place take-over's storage.
TEST(Lu, WorkspaceBytesBoundWhatPreparedLuTakes) {
  const std::int64_t n = 1200, nb = 32;
  const auto check = [](const DistributedMatrix<double>& a, LuPanelRank rank) {
    const LuOptions options = options_for(rank);
    expect_tight_workspace_bound(lu_workspace_bytes(a, world_rank(), options), [&] {
      return std::make_unique<PreparedLu<double>>(a, MPI_COMM_WORLD, options);
    });
  };
  for (const LuPanelRank rank : {LuPanelRank::DiagonalOwner, LuPanelRank::Fastest}) {
    for (const Family family : {Family::BlockCyclic, Family::BlockCyclicTiles, Family::OneRow,
                                Family::Heterogeneous, Family::G2dbc}) {
      SCOPED_TRACE(describe(family, {n, n, nb, nb}, rank));
      TestMatrix<double> a(family, n, n, {nb}, {nb});
      check(a.out(), rank);
    }
    SCOPED_TRACE(describe(Family::BlockCyclic, {n, n, nb, nb}, rank) + " in place");
    InPlaceTestMatrix<double> a(n, n, nb, nb, layout::StoredTiles::All);
    check(a.matrix(), rank);
  }
}

TEST(Lu, RefusesBadArgumentsOnEveryRank) {
  const auto refused_everywhere = [](const DistributedMatrix<double>& a, const LuOptions& options) {
    std::vector<std::int64_t> pivots(16);
    return thrown_everywhere<InvalidArgument>(
        [&] { lu<double>(a, pivots.data(), MPI_COMM_WORLD, options); });
  };
  TestMatrix<double> unequal(Family::BlockCyclic, 12, 12, {3}, {4});
  EXPECT_TRUE(refused_everywhere(unequal.out(), {}));
  // Tile row 1 (4 rows, the last) is taller than tile column 1 (3 columns, not the last): the
  // U row block right of it would need a 4×4 L_11.
  TestMatrix<double> taller(Family::BlockCyclic, 8, 10, {4}, {3, 4});
  EXPECT_TRUE(refused_everywhere(taller.out(), {}));
  TestMatrix<double> a(Family::Pattern, 12, 12, {3}, {3});
  LuOptions too_few;
  too_few.panel_rank = LuPanelRank::Fastest;
  too_few.rank_speeds.assign(static_cast<std::size_t>(world_size() + 1), 1.0);
  EXPECT_TRUE(refused_everywhere(a.out(), too_few));
  const DistributedMatrix<double> missing{
      a.distribution.get(), world_rank() == 0 ? nullptr : a.storage.get(), a.data.data()};
  EXPECT_TRUE(refused_everywhere(missing, {}));
}

}  // namespace
}  // namespace hetscal::kernels::test

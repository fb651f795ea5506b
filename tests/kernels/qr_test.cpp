// kernels::qr on every distribution family (block-cyclic grids in one local array or as
// tiles, heterogeneous grids, a grid leaving one rank out, hand-made, 2DBC, G-2DBC, GCR&M and
// heterogeneous patterns), square, tall and wide, the four scalar types, tile splits with a
// partial last tile and a first tile unlike the others, both panel ranks. Oracles
// independent of the kernel:
// - LAPACK's GEQRF on the whole gathered matrix: τ, V and R to rounding;
// - Q formed by LAPACK's xORGQR / xUNGQR from the gathered result: ‖A − Q·R‖_F /
//   (‖A‖_F·max(M,N)·ε) and ‖I − QᴴQ‖_F / (max(M,N)·ε);
// - zero columns, whose τ is exactly 0 (xLARFG's definition);
// - matrices scaled by 1e-300 and 1e300: finite results, equal to LAPACK's;
// - τ the same on every rank, the local array's padding left bit-identical;
// - each rank's flop count against LAWN 41's counts of the blocked algorithm laid over the
//   owners, worked out here.
#include "kernels/qr.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
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

extern "C" {
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau,
             float* work, const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);
void cungqr_(const int* m, const int* n, const int* k, std::complex<float>* a, const int* lda,
             const std::complex<float>* tau, std::complex<float>* work, const int* lwork,
             int* info);
void zungqr_(const int* m, const int* n, const int* k, std::complex<double>* a, const int* lda,
             const std::complex<double>* tau, std::complex<double>* work, const int* lwork,
             int* info);
}

namespace hetscal::kernels::test {
namespace {

using Complex = std::complex<double>;

constexpr unsigned kSeed = 13;

/// What a test matrix holds besides the random formula.
struct Content {
  double scale = 1;               ///< every element multiplied by it
  std::int64_t zero_column = -1;  ///< a column of zeros
};

template <typename T>
T element(std::int64_t i, std::int64_t j, Content c) {
  if (j == c.zero_column) return T(0);
  return test_value<T>(i, j, kSeed) * static_cast<real_of_t<T>>(c.scale);
}

/// xORGQR / xUNGQR: the first n columns of Q from k reflectors over `a` (m×n, ld m).
template <typename T>
void form_q(int m, int n, int k, T* a, const T* tau) {
  std::vector<T> work(static_cast<std::size_t>(std::max(1, 64 * n)));
  const int lwork = static_cast<int>(work.size());
  int info = 0;
  if constexpr (std::is_same_v<T, float>)
    sorgqr_(&m, &n, &k, a, &m, tau, work.data(), &lwork, &info);
  if constexpr (std::is_same_v<T, double>)
    dorgqr_(&m, &n, &k, a, &m, tau, work.data(), &lwork, &info);
  if constexpr (std::is_same_v<T, std::complex<float>>)
    cungqr_(&m, &n, &k, a, &m, tau, work.data(), &lwork, &info);
  if constexpr (std::is_same_v<T, std::complex<double>>)
    zungqr_(&m, &n, &k, a, &m, tau, work.data(), &lwork, &info);
  ASSERT_EQ(info, 0);
}

template <typename T>
T narrowed(Complex x) {
  if constexpr (is_complex_v<T>) {
    return T(static_cast<real_of_t<T>>(x.real()), static_cast<real_of_t<T>>(x.imag()));
  } else {
    return static_cast<T>(x.real());
  }
}

/// LAWN 41's GEQRF count, flops on T.
template <typename T>
double lawn_geqrf(std::int64_t rows, std::int64_t cols) {
  const double m = static_cast<double>(rows), n = static_cast<double>(cols);
  double mults = 0, adds = 0;
  if (m >= n) {
    mults = n * (23.0 / 6 + m + n / 2) + n * n * (m - n / 3);
    adds = n * (5.0 / 6 + n * (0.5 + m - n / 3));
  } else {
    mults = m * (23.0 / 6 + 2 * n - m / 2) + m * m * (n - m / 3);
    adds = m * (5.0 / 6 + n - m / 2 + m * (n - m / 3));
  }
  return is_complex_v<T> ? 6 * mults + 2 * adds : mults + adds;
}

/// LARFT's count as local_blas.hpp documents it, column by column.
template <typename T>
double larft_count(std::int64_t m, std::int64_t k) {
  double mults = 0, adds = 0;
  for (std::int64_t i = 0; i < k; ++i) {
    mults += static_cast<double>(i * (m - i) + i * (i + 1) / 2);
    adds += static_cast<double>(i * (m - i) + i * (i - 1) / 2);
  }
  return is_complex_v<T> ? 6 * mults + 2 * adds : mults + adds;
}

/// Each rank's share of the blocked algorithm: step k's GEQRF and LARFT on its panel rank,
/// the two GEMMs (W = Vᴴ·A, A −= V·W) of trailing tile (i >= k, j > k) on its owner, the TRMM
/// W_j := Tᴴ·W_j on the owner of (k, j).
template <typename T>
std::vector<double> flops_per_rank(const layout::Distribution& d, const QrOptions& options) {
  const double mult = is_complex_v<T> ? 6.0 : 1.0, add = is_complex_v<T> ? 2.0 : 1.0;
  const layout::TileSplit &rows = d.rows(), &cols = d.cols();
  std::vector<double> flops(static_cast<std::size_t>(d.num_ranks()), 0.0);
  const auto add_to = [&](int rank, double f) { flops[static_cast<std::size_t>(rank)] += f; };
  for (std::int64_t k = 0; k < std::min(rows.count(), cols.count()); ++k) {
    const int panel = expected_panel_rank(d, k, options.panel_rank, options.rank_speeds);
    const std::int64_t panel_rows = rows.extent() - rows.offset(k);
    const std::int64_t r = std::min(panel_rows, cols.size(k));
    add_to(panel, lawn_geqrf<T>(panel_rows, cols.size(k)) + larft_count<T>(panel_rows, r));
    const double order = static_cast<double>(r);
    for (std::int64_t j = k + 1; j < cols.count(); ++j) {
      const double width = static_cast<double>(cols.size(j));
      add_to(d.owner({k, j}), width * order * (mult * (order + 1) + add * (order - 1)) / 2);
      for (std::int64_t i = k; i < rows.count(); ++i)
        add_to(d.owner({i, j}),
               2 * (mult + add) * static_cast<double>(rows.size(i)) * width * order);
    }
  }
  return flops;
}

template <typename T>
struct Factorisation {
  Factorisation(Family family, Shape s, Content c = {})
      : shape(s), content(c), a(family, s.m, s.n, {s.block, s.first}, {s.block, s.first}) {
    a.for_each_owned([&](std::int64_t i, std::int64_t j, T& x) { x = element<T>(i, j, content); });
    tau.assign(static_cast<std::size_t>(std::min(s.m, s.n)), T(-5));
  }

  std::int64_t reflectors() const { return std::min(shape.m, shape.n); }

  /// Runs the kernel; returns the flops of the call on every rank.
  std::vector<double> run(const QrOptions& options = {}) {
    const double before = local_flops();
    qr<T>(a.out(), tau.data(), MPI_COMM_WORLD, options);
    double mine = local_flops() - before;
    std::vector<double> flops(static_cast<std::size_t>(world_size()));
    MPI_Allgather(&mine, 1, MPI_DOUBLE, flops.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD);
    return flops;
  }

  /// The factors as stored over A, gathered on every rank.
  std::vector<Complex> gathered() { return test::gathered(a, shape.m, shape.n); }

  /// ‖A − Q·R‖_F / (‖A‖_F·max(M,N)·ε) and ‖I − QᴴQ‖_F / (max(M,N)·ε), Q's first min(M,N)
  /// columns formed by LAPACK from the gathered reflectors and τ (in T), A and R divided by
  /// the matrix's scale (so that huge values are not squared).
  std::pair<double, double> residuals() {
    const std::int64_t m = shape.m, n = shape.n, r = reflectors();
    const std::vector<Complex> f = gathered();
    if (r == 0) return {0.0, 0.0};
    std::vector<T> q(static_cast<std::size_t>(m * r));
    for (std::size_t e = 0; e < q.size(); ++e) q[e] = narrowed<T>(f[e]);
    form_q<T>(static_cast<int>(m), static_cast<int>(r), static_cast<int>(r), q.data(), tau.data());
    const auto q_at = [&](std::int64_t i, std::int64_t l) {
      return widened(q[static_cast<std::size_t>(i + l * m)]);
    };
    double residual = 0, norm = 0, orthogonality = 0;
    for (std::int64_t j = 0; j < n; ++j) {
      for (std::int64_t i = 0; i < m; ++i) {
        Complex product = 0;
        for (std::int64_t l = 0; l <= std::min(j, r - 1); ++l)
          product += q_at(i, l) * f[static_cast<std::size_t>(l + j * m)] / content.scale;
        const Complex original = widened(element<T>(i, j, content)) / content.scale;
        residual += std::norm(original - product);
        norm += std::norm(original);
      }
    }
    for (std::int64_t c = 0; c < r; ++c) {
      for (std::int64_t l = 0; l < r; ++l) {
        Complex dot = 0;
        for (std::int64_t i = 0; i < m; ++i) dot += std::conj(q_at(i, l)) * q_at(i, c);
        orthogonality += std::norm((l == c ? 1.0 : 0.0) - dot);
      }
    }
    const double scale = static_cast<double>(std::max(m, n)) *
                         static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
    return {norm == 0 ? 0 : std::sqrt(residual / norm) / scale, std::sqrt(orthogonality) / scale};
  }

  /// LAPACK's GEQRF on the whole matrix: its factors and τ.
  struct Reference {
    std::vector<T> factors, tau;
  };
  Reference lapack() const {
    const std::int64_t m = shape.m, n = shape.n;
    Reference ref;
    ref.factors.resize(static_cast<std::size_t>(std::max<std::int64_t>(m * n, 1)));
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t i = 0; i < m; ++i)
        ref.factors[static_cast<std::size_t>(i + j * m)] = element<T>(i, j, content);
    ref.tau.resize(static_cast<std::size_t>(reflectors()));
    std::vector<T> work(static_cast<std::size_t>(geqrf_work_size<T>(m, n)));
    geqrf<T>(m, n, ref.factors.data(), std::max<std::int64_t>(m, 1), ref.tau.data(), work.data(),
             static_cast<std::int64_t>(work.size()));
    return ref;
  }

  /// Largest difference from LAPACK's factors, relative to the largest factor entry, and
  /// from its τ (τ's entries are at most 2 in magnitude).
  std::pair<double, double> differences(const Reference& ref) { return differences(gathered(), tau, ref); }
  /// The same of factors `f` (gathered) and `tau`.
  static std::pair<double, double> differences(const std::vector<Complex>& f, const std::vector<T>& tau,
                                               const Reference& ref) {
    double difference = 0, largest = 0, tau_difference = 0;
    for (std::size_t e = 0; e < f.size(); ++e) {
      difference = std::max(difference, std::abs(f[e] - widened(ref.factors[e])));
      largest = std::max(largest, std::abs(f[e]));
    }
    for (std::size_t p = 0; p < tau.size(); ++p)
      tau_difference = std::max(tau_difference, std::abs(widened(tau[p]) - widened(ref.tau[p])));
    return {largest == 0 ? 0 : difference / largest, tau_difference};
  }

  /// True when every rank returned the same τ and kept its padding.
  bool agreed_and_untouched() {
    std::vector<double> mine;
    for (const T& t : tau) mine.insert(mine.end(), {widened(t).real(), widened(t).imag()});
    std::vector<double> low(mine.size()), high(mine.size());
    MPI_Allreduce(mine.data(), low.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MIN,
                  MPI_COMM_WORLD);
    MPI_Allreduce(mine.data(), high.data(), static_cast<int>(mine.size()), MPI_DOUBLE, MPI_MAX,
                  MPI_COMM_WORLD);
    return on_all_ranks(low == high && a.damaged_padding() == 0);
  }

  Shape shape;
  Content content;
  TestMatrix<T> a;
  std::vector<T> tau;
};

QrOptions options_for(QrPanelRank rank) {
  QrOptions options;
  options.panel_rank = rank;
  options.rank_speeds = speeds_for(rank);
  return options;
}

/// Every oracle but the flop count on a factorisation that has run.
template <typename T>
void check_against_oracles(Factorisation<T>& f) {
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  const auto [residual, orthogonality] = f.residuals();
  EXPECT_LT(residual, 10.0);
  EXPECT_LT(orthogonality, 10.0);
  const auto [factors, tau] = f.differences(f.lapack());
  EXPECT_LT(factors, 1e3 * eps);
  EXPECT_LT(tau, 1e3 * eps);
  EXPECT_TRUE(f.agreed_and_untouched());
}

template <typename T>
void check_factorisation(Family family, Shape shape,
                         QrPanelRank rank = QrPanelRank::DiagonalOwner) {
  SCOPED_TRACE(describe(family, shape, rank));
  Factorisation<T> f(family, shape);
  const QrOptions options = options_for(rank);
  const std::vector<double> flops = f.run(options);
  check_against_oracles(f);
  const std::vector<double> expected = flops_per_rank<T>(*f.a.distribution, options);
  const double total = std::accumulate(expected.begin(), expected.end(), 0.0);
  expect_flops_per_rank(flops, expected, total);
}

TEST(Qr, DoubleOnEveryFamilyAndShape) {
  for (const Family family : kEveryFamily)
    for (const Shape& shape : kFactorizationShapes) check_factorisation<double>(family, shape);
}

TEST(Qr, FastestPanelRankOnEveryFamily) {
  for (const Family family : kEveryFamily) {
    check_factorisation<double>(family, {37, 37, 5, 5}, QrPanelRank::Fastest);
    check_factorisation<double>(family, {19, 44, 4, 6}, QrPanelRank::Fastest);
  }
}

// The 2DBC pattern as a pattern (tiles, not a local array): the same owners as the Cartesian
// grid, through the tiled path.
TEST(Qr, BlockCyclicPatternAsTiles) {
  for (const Shape& shape : {Shape{37, 37, 5, 5}, Shape{41, 23, 4, 3}, Shape{19, 44, 4, 6}}) {
    SCOPED_TRACE("2DBC pattern " + std::to_string(shape.m) + "x" + std::to_string(shape.n));
    Factorisation<double> f(Family::BlockCyclic, shape);
    lay_block_cyclic_pattern(f.a, kSeed);
    f.run();
    check_against_oracles(f);
  }
}

// Tiles large enough that the panel and W messages exceed MPI's eager limits, so that a
// send completes only once its receive is posted: an order of waits that could deadlock
// hangs here (the ctest TIMEOUT).
TEST(Qr, MessagesLargerThanEagerLimits) {
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::Pattern,
                              Family::G2dbc, Family::HeteroPattern}) {
    check_factorisation<double>(family, {150, 130, 24, 24});
    check_factorisation<double>(family, {110, 150, 24, 24}, QrPanelRank::Fastest);
  }
}

TEST(Qr, OtherScalarTypes) {
  for (const Family family :
       {Family::BlockCyclic, Family::Heterogeneous, Family::G2dbc, Family::HeteroPattern}) {
    check_factorisation<float>(family, {23, 23, 4, 4});
    check_factorisation<std::complex<float>>(family, {19, 26, 3, 5});
    check_factorisation<std::complex<double>>(family, {31, 17, 4, 2}, QrPanelRank::Fastest);
  }
}

template <typename T>
void check_content(Family family, Shape shape, Content content) {
  SCOPED_TRACE(describe(family, shape, QrPanelRank::DiagonalOwner) + " scale " +
               std::to_string(content.scale) + " zero column " +
               std::to_string(content.zero_column));
  Factorisation<T> f(family, shape, content);
  f.run();
  bool finite = true;
  f.a.for_each_owned([&](std::int64_t, std::int64_t, T& x) {
    finite = finite && std::isfinite(std::abs(widened(x)));
  });
  EXPECT_TRUE(on_all_ranks(finite));
  if (content.zero_column >= 0 && content.zero_column < f.reflectors()) {
    EXPECT_EQ(f.tau[static_cast<std::size_t>(content.zero_column)], T(0));
  }
  check_against_oracles(f);
}

TEST(Qr, ZeroColumnsGiveZeroTau) {
  const Shape shape{27, 27, 4, 3};  // tiles start at 0, 3, 7, 11, ...
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::G2dbc}) {
    for (const std::int64_t column : {0, 3, 12, 26})
      check_content<double>(family, shape, {1, column});
    check_content<std::complex<double>>(family, {19, 30, 4, 4}, {1, 9});
  }
}

TEST(Qr, TinyAndHugeScalesAsLapack) {
  for (const Family family : {Family::BlockCyclic, Family::Heterogeneous, Family::HeteroPattern}) {
    for (const double scale : {1e-300, 1e300}) {
      check_content<double>(family, {29, 23, 4, 4}, {scale, -1});
      check_content<std::complex<double>>(family, {17, 22, 3, 3}, {scale, -1});
    }
  }
}

/// A factorisation on an in-place take-over's storage (in_place_test_matrix.hpp: kept tiles in
/// a padded caller array, received ones in an overflow), through PreparedQr as the in-place
/// PxGEQRF runs it. Checks V, R and τ against LAPACK's GEQRF on the whole matrix to rounding,
/// τ the same on every rank, and that nothing of the caller's array but the kept tiles
/// changed, bit for bit (the padding, the tiles given away).
template <typename T>
void check_in_place(Shape shape, QrPanelRank rank, Content content = {}) {
  SCOPED_TRACE(describe(Family::BlockCyclic, shape, rank) + " in place, zero column " +
               std::to_string(content.zero_column));
  InPlaceTestMatrix<T> a(shape.m, shape.n, shape.block, shape.first, layout::StoredTiles::All);
  a.fill([&](std::int64_t i, std::int64_t j) { return element<T>(i, j, content); });
  std::vector<T> tau(static_cast<std::size_t>(std::min(shape.m, shape.n)), T(-5));
  PreparedQr<T>(a.matrix(), MPI_COMM_WORLD, options_for(rank)).run(tau.data());
  // The oracles of a factorisation on a test matrix (LAPACK's factors and τ), on this one's.
  Factorisation<T> reference(Family::BlockCyclic, shape, content);
  const auto [factors, tau_difference] = Factorisation<T>::differences(a.gathered(), tau, reference.lapack());
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  EXPECT_LT(factors, 1e3 * eps);
  EXPECT_LT(tau_difference, 1e3 * eps);
  if (content.zero_column >= 0 && content.zero_column < std::min(shape.m, shape.n)) {
    EXPECT_EQ(tau[static_cast<std::size_t>(content.zero_column)], T(0));
  }
  reference.tau = tau;
  EXPECT_TRUE(reference.agreed_and_untouched());  // τ alike on every rank
  EXPECT_TRUE(a.untouched_but_kept());
}

// qr_workspace_bytes against the heap PreparedQr takes on this rank (N = 1,200, NB = 32):
// block-cyclic in one array and as tiles, a heterogeneous grid, a pattern, and an in-place
// take-over's storage (its panels gathered in their slots).
TEST(Qr, WorkspaceBytesBoundWhatPreparedQrTakes) {
  const std::int64_t n = 1200, nb = 32;
  const auto check = [](const DistributedMatrix<double>& a, QrPanelRank rank) {
    const QrOptions options = options_for(rank);
    expect_tight_workspace_bound(qr_workspace_bytes(a, world_rank(), options), [&] {
      return std::make_unique<PreparedQr<double>>(a, MPI_COMM_WORLD, options);
    });
  };
  for (const QrPanelRank rank : {QrPanelRank::DiagonalOwner, QrPanelRank::Fastest}) {
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

// Square, tall and wide; a first tile unlike the others; both panel ranks; a zero column
// (τ exactly 0); tiles large enough for messages above the eager limits; tiles so wide that a
// step's update runs in several windows of columns (kernels::qr's update_window: 3 tiles of
// 260 columns).
TEST(Qr, InPlaceStorageKeptAndOverflow) {
  for (const QrPanelRank rank : {QrPanelRank::DiagonalOwner, QrPanelRank::Fastest}) {
    check_in_place<double>({37, 37, 5, 5}, rank);
    check_in_place<double>({41, 23, 4, 3}, rank);
    check_in_place<double>({19, 44, 4, 6}, rank);
    check_in_place<std::complex<float>>({31, 26, 3, 3}, rank);
    check_in_place<std::complex<double>>({23, 29, 4, 2}, rank);
    check_in_place<float>({29, 29, 4, 4}, rank);
    check_in_place<double>({37, 37, 5, 5}, rank, {1, 12});
    check_in_place<double>({150, 130, 24, 24}, rank);
    check_in_place<double>({520, 1820, 260, 260}, rank);
  }
}

TEST(Qr, RefusesBadArgumentsOnEveryRank) {
  const auto refused_everywhere = [](const DistributedMatrix<double>& a, const QrOptions& options) {
    std::vector<double> tau(16);
    return thrown_everywhere<InvalidArgument>(
        [&] { qr<double>(a, tau.data(), MPI_COMM_WORLD, options); });
  };
  TestMatrix<double> unequal(Family::BlockCyclic, 12, 12, {3}, {4});
  EXPECT_TRUE(refused_everywhere(unequal.out(), {}));
  TestMatrix<double> taller(Family::BlockCyclic, 8, 10, {4}, {3, 4});
  EXPECT_TRUE(refused_everywhere(taller.out(), {}));
  TestMatrix<double> a(Family::Pattern, 12, 12, {3}, {3});
  QrOptions too_few;
  too_few.panel_rank = QrPanelRank::Fastest;
  too_few.rank_speeds.assign(static_cast<std::size_t>(world_size() + 1), 1.0);
  EXPECT_TRUE(refused_everywhere(a.out(), too_few));
  const DistributedMatrix<double> missing{
      a.distribution.get(), world_rank() == 0 ? nullptr : a.storage.get(), a.data.data()};
  EXPECT_TRUE(refused_everywhere(missing, {}));
}

}  // namespace
}  // namespace hetscal::kernels::test

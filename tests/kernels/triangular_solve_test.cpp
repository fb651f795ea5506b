// Distributed triangular solve B := op(A)⁻¹·B against an independent oracle: the solution X
// every rank ends with is gathered, and the residual ‖op(A)·X − B₀‖_F, computed with a plain
// loop in complex double from A's and B₀'s formulas, must be within a small multiple of
// N·eps·‖A‖_F·‖X‖_F (the normwise backward error a substitution guarantees). The triangle
// of A that is not `uplo` holds NaN (and the diagonal too for Diag::Unit), so reading it
// shows; B's padding must survive. Both algorithms, Cartesian grids and patterns, 1-9 ranks.
#include "kernels/triangular_solve.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "kernel_test_support.hpp"

namespace hetscal::kernels::test {
namespace {

struct Setup {
  const char* name;
  Family a_family, b_family;
  Tiles tiles;  ///< A's rows and columns, B's rows
  Tiles b_cols;
};

const std::vector<Setup> kSetups = {
    {"block-cyclic", Family::BlockCyclic, Family::BlockCyclic, {3}, {2}},
    {"heterogeneous grid, B on another grid", Family::Heterogeneous, Family::OtherGrid, {2}, {3}},
    {"grid without rank 0, first tile 1", Family::PartialGrid, Family::Heterogeneous, {3, 1}, {2}},
    {"pattern", Family::Pattern, Family::Pattern, {2}, {2}},
    {"GCR&M A, G-2DBC B", Family::Gcrm, Family::G2dbc, {2}, {3}},
    {"heterogeneous pattern", Family::HeteroPattern, Family::HeteroPattern, {3}, {1}},
    {"pattern A, other pattern B", Family::OtherPattern, Family::Pattern, {3}, {4, 1}},
    {"block-cyclic A as tiles, pattern B",
     Family::BlockCyclicTiles,
     Family::OtherPattern,
     {4},
     {1}},
};

struct Shape {
  std::int64_t n, nrhs;
};
const std::vector<Shape> kShapes = {{1, 1}, {7, 3}, {13, 5}, {17, 1}, {5, 0}, {0, 4}};

constexpr unsigned kSeedA = 5, kSeedB = 6;

/// Element (i, j) of the triangular A: the formula in the `uplo` triangle with 2 added on
/// the diagonal (well conditioned), NaN elsewhere; the diagonal is NaN for Diag::Unit.
template <typename T>
T triangular_value(Uplo uplo, Diag diag, std::int64_t i, std::int64_t j) {
  if (i == j) return diag == Diag::Unit ? quiet_nan<T>() : test_value<T>(i, j, kSeedA) + T(2);
  const bool inside = uplo == Uplo::Lower ? i > j : i < j;
  return inside ? test_value<T>(i, j, kSeedA) : quiet_nan<T>();
}

/// op(A)(i, l) as the solve must see it: the `uplo` triangle through op, ones on a unit
/// diagonal, zero elsewhere.
template <typename T>
std::complex<double> op_a_at(Uplo uplo, Op op, Diag diag, std::int64_t i, std::int64_t l) {
  const std::int64_t r = op == Op::NoTrans ? i : l, c = op == Op::NoTrans ? l : i;
  if (r == c && diag == Diag::Unit) return 1.0;
  const bool inside = r == c || (uplo == Uplo::Lower ? r > c : r < c);
  if (!inside) return 0.0;
  const std::complex<double> x = widened(triangular_value<T>(uplo, diag, r, c));
  return op == Op::ConjTrans ? std::conj(x) : x;
}

const char* name_of(Op op) { return op == Op::NoTrans ? "N" : op == Op::Trans ? "T" : "C"; }

/// Runs one case; returns an empty string when it passes, else what went wrong.
template <typename T>
std::string run_case(const Setup& s, Shape shape, Uplo uplo, Op op, Diag diag,
                     SolveAlgorithm algorithm) {
  const std::int64_t n = shape.n, nrhs = shape.nrhs;
  TestMatrix<T> a(s.a_family, n, n, s.tiles, s.tiles);
  TestMatrix<T> b(s.b_family, n, nrhs, s.tiles, s.b_cols);
  a.for_each_owned(
      [&](std::int64_t i, std::int64_t j, T& x) { x = triangular_value<T>(uplo, diag, i, j); });
  b.fill(kSeedB);
  triangular_solve<T>(uplo, op, diag, a.in(), b.out(), MPI_COMM_WORLD, algorithm);

  // X gathered on every rank (each element owned once), then the residual in complex double.
  std::vector<std::complex<double>> x(static_cast<std::size_t>(n * nrhs));
  b.for_each_owned([&](std::int64_t i, std::int64_t j, T& v) {
    x[static_cast<std::size_t>(i + j * n)] = widened(v);
  });
  MPI_Allreduce(MPI_IN_PLACE, x.data(), static_cast<int>(x.size()), MPI_C_DOUBLE_COMPLEX, MPI_SUM,
                MPI_COMM_WORLD);
  double residual2 = 0.0, a2 = 0.0, x2 = 0.0;
  for (std::int64_t i = 0; i < n; ++i) {
    for (std::int64_t l = 0; l < n; ++l) a2 += std::norm(op_a_at<T>(uplo, op, diag, i, l));
    for (std::int64_t j = 0; j < nrhs; ++j) {
      std::complex<double> r = -widened(test_value<T>(i, j, kSeedB));
      for (std::int64_t l = 0; l < n; ++l)
        r += op_a_at<T>(uplo, op, diag, i, l) * x[static_cast<std::size_t>(l + j * n)];
      residual2 += std::norm(r);
      x2 += std::norm(x[static_cast<std::size_t>(i + j * n)]);
    }
  }
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  const double bound =
      10.0 * static_cast<double>(std::max<std::int64_t>(n, 1)) * eps * std::sqrt(a2 * x2);
  const double residual = std::sqrt(residual2);
  const double damaged = sum_over_ranks(static_cast<double>(b.damaged_padding()));
  if (residual <= bound && damaged == 0.0) return "";  // false for a NaN residual
  char text[320];
  std::snprintf(text, sizeof text,
                "%s, %s: N=%lld NRHS=%lld uplo=%s op=%s diag=%s: residual %.3g > %.3g or %g "
                "padding elements written\n",
                algorithm == SolveAlgorithm::FanIn ? "fan-in" : "gathered panels", s.name,
                static_cast<long long>(n), static_cast<long long>(nrhs),
                uplo == Uplo::Lower ? "L" : "U", name_of(op), diag == Diag::Unit ? "U" : "N",
                residual, bound, damaged);
  return text;
}

template <typename T>
void run_all(const std::vector<Op>& ops, const std::vector<Diag>& diags = {Diag::NonUnit}) {
  std::string failures;
  int cases = 0;
  for (const Setup& s : kSetups)
    for (const Shape& shape : kShapes)
      for (const Uplo uplo : {Uplo::Lower, Uplo::Upper})
        for (const Op op : ops)
          for (const Diag diag : diags)
            for (const SolveAlgorithm algorithm :
                 {SolveAlgorithm::FanIn, SolveAlgorithm::GatherPanels}) {
              failures += run_case<T>(s, shape, uplo, op, diag, algorithm);
              ++cases;
            }
  EXPECT_TRUE(on_all_ranks(failures.empty())) << cases << " cases, failures:\n" << failures;
}

TEST(TriangularSolve, Double) {
  run_all<double>({Op::NoTrans, Op::Trans}, {Diag::NonUnit, Diag::Unit});
}
TEST(TriangularSolve, Float) { run_all<float>({Op::NoTrans, Op::Trans, Op::ConjTrans}); }
TEST(TriangularSolve, ComplexDouble) {
  run_all<std::complex<double>>({Op::NoTrans, Op::Trans, Op::ConjTrans});
}
TEST(TriangularSolve, ComplexFloat) { run_all<std::complex<float>>({Op::NoTrans, Op::ConjTrans}); }

TEST(TriangularSolve, RefusesMismatchedTilesOnEveryRank) {
  TestMatrix<double> a(Family::BlockCyclic, 6, 6, {2}, {3});  // tiles not square
  TestMatrix<double> b(Family::BlockCyclic, 6, 2, {2}, {2});
  EXPECT_TRUE(thrown_everywhere<InvalidArgument>([&] {
    triangular_solve<double>(Uplo::Lower, Op::NoTrans, Diag::NonUnit, a.in(), b.out(),
                             MPI_COMM_WORLD);
  }));
  TestMatrix<double> square(Family::BlockCyclic, 6, 6, {2}, {2});
  TestMatrix<double> other_rows(Family::BlockCyclic, 6, 2, {3}, {2});  // B's tile rows not A's
  EXPECT_TRUE(thrown_everywhere<InvalidArgument>([&] {
    triangular_solve<double>(Uplo::Upper, Op::Trans, Diag::NonUnit, square.in(), other_rows.out(),
                             MPI_COMM_WORLD);
  }));
}

}  // namespace
}  // namespace hetscal::kernels::test

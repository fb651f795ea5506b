// Distributed GEMM against an independent reference: every rank rebuilds the operands from
// their formula and computes its own elements of C with a plain loop in complex double
// (no ScaLAPACK, no hetscal code), conjugating where op is ConjTrans. Normwise check
// ‖C − C_ref‖_F <= 4·K·eps·(|alpha|‖A‖_F‖B‖_F + |beta|‖C₀‖_F), in all four scalar types.
#include "kernels/gemm.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "kernel_test_support.hpp"

namespace hetscal::kernels::test {
namespace {

struct Shape {
  std::int64_t m, n, k;
};

/// Distributions and tile sizes of C, op(A) and op(B) (tiles of op(A) as M×K, of op(B) as
/// K×N; a transposed operand is stored with the tiles swapped).
struct Setup {
  const char* name;
  Family c_family, a_family, b_family;
  Tiles c_rows, c_cols, a_rows, a_cols, b_rows, b_cols;
};

const std::vector<Setup>& setups() {
  static const std::vector<Setup> all = {
      {"block-cyclic, aligned", Family::BlockCyclic, Family::BlockCyclic, Family::BlockCyclic,
       {3}, {2}, {3}, {4}, {4}, {2}},
      {"block-cyclic C, operands on other grids and tiles", Family::BlockCyclic, Family::OtherGrid,
       Family::OneRow, {2, 1}, {3}, {4, 3}, {1}, {2}, {5, 2}},
      {"heterogeneous Cartesian, aligned", Family::Heterogeneous, Family::Heterogeneous,
       Family::Heterogeneous, {2}, {3}, {2}, {2}, {2}, {3}},
      {"heterogeneous C, block-cyclic operands", Family::Heterogeneous, Family::BlockCyclic,
       Family::OtherGrid, {1}, {2}, {3}, {3}, {2}, {2}},
      {"grid without rank 0", Family::PartialGrid, Family::PartialGrid, Family::BlockCyclic,
       {2}, {2}, {2}, {3}, {3}, {2}},
      {"pattern C, other operands", Family::Pattern, Family::OtherPattern, Family::BlockCyclic,
       {2}, {3}, {2}, {2}, {3}, {3}},
      {"pattern C, pattern operands", Family::Pattern, Family::Pattern, Family::Pattern,
       {2}, {2}, {2}, {2}, {2}, {2}},
      {"block-cyclic stored as tiles", Family::BlockCyclicTiles, Family::BlockCyclic,
       Family::BlockCyclicTiles, {2}, {3}, {2}, {2}, {2}, {3}},
      {"block-cyclic C, pattern operands", Family::BlockCyclic, Family::Pattern,
       Family::OtherPattern, {3}, {3}, {3}, {2}, {2}, {3}},
  };
  return all;
}

const std::vector<Shape> kShapes = {{0, 5, 3}, {4, 0, 3}, {5, 4, 0},  {1, 1, 1},  {1, 6, 1},
                                    {7, 1, 5}, {13, 11, 9}, {17, 6, 23}, {9, 14, 2}};

struct Scalars {
  double alpha, beta;  // beta = 0: C holds NaN on entry
};
const std::vector<Scalars> kScalars = {{1.5, -0.5}, {1.0, 0.0}, {0.0, 2.0},
                                       {-2.0, 1.0}, {0.5, 0.0}, {0.0, 0.0}};

const char* op_name(Op op) {
  switch (op) {
    case Op::NoTrans: return "N";
    case Op::Trans: return "T";
    default: return "C";
  }
}

/// A scalar of the test in T: on complex data turned by a unit rotation (same modulus, so
/// that 0 stays 0 and the bound's |alpha|, |beta| stay the table's).
template <typename T>
T scalar_of(double value) {
  if constexpr (is_complex_v<T>) {
    using R = real_of_t<T>;
    return T(static_cast<R>(0.6 * value), static_cast<R>(0.8 * value));
  } else {
    return static_cast<T>(value);
  }
}

const char* stationary_name(Stationary algorithm) {
  switch (algorithm) {
    case Stationary::A: return "A-stationary";
    case Stationary::B: return "B-stationary";
    case Stationary::C: return "C-stationary";
    default: return "automatic";
  }
}

template <typename T>
double frobenius(std::int64_t rows, std::int64_t cols, unsigned seed) {
  double sum = 0.0;
  for (std::int64_t j = 0; j < cols; ++j)
    for (std::int64_t i = 0; i < rows; ++i) sum += std::norm(widened(test_value<T>(i, j, seed)));
  return std::sqrt(sum);
}

constexpr unsigned kSeedA = 11, kSeedB = 22, kSeedC = 33;

/// Runs one case; returns an empty string when it passes, else what went wrong.
template <typename T>
std::string run_case(const Setup& s, Shape shape, Op op_a, Op op_b, Scalars scalars,
                     Stationary algorithm) {
  const bool ta = op_a != Op::NoTrans, tb = op_b != Op::NoTrans;
  const std::int64_t m = shape.m, n = shape.n, k = shape.k;
  TestMatrix<T> a = ta ? TestMatrix<T>(s.a_family, k, m, s.a_cols, s.a_rows)
                       : TestMatrix<T>(s.a_family, m, k, s.a_rows, s.a_cols);
  TestMatrix<T> b = tb ? TestMatrix<T>(s.b_family, n, k, s.b_cols, s.b_rows)
                       : TestMatrix<T>(s.b_family, k, n, s.b_rows, s.b_cols);
  TestMatrix<T> c(s.c_family, m, n, s.c_rows, s.c_cols);
  a.fill(kSeedA);
  b.fill(kSeedB);
  if (scalars.beta == 0.0) c.fill_nan(); else c.fill(kSeedC);

  const T alpha = scalar_of<T>(scalars.alpha), beta = scalar_of<T>(scalars.beta);
  gemm<T>(op_a, op_b, alpha, a.in(), b.in(), beta, c.out(), MPI_COMM_WORLD, algorithm);

  // The operands as stored (rounded to T), read through op: transposed, and conjugated
  // for ConjTrans (which leaves real values alone).
  const auto through = [](Op op, std::complex<double> x) { return op == Op::ConjTrans ? std::conj(x) : x; };
  const auto op_a_at = [&](std::int64_t i, std::int64_t l) {
    return through(op_a, widened(ta ? test_value<T>(l, i, kSeedA) : test_value<T>(i, l, kSeedA)));
  };
  const auto op_b_at = [&](std::int64_t l, std::int64_t j) {
    return through(op_b, widened(tb ? test_value<T>(j, l, kSeedB) : test_value<T>(l, j, kSeedB)));
  };
  double error2 = 0.0;
  c.for_each_owned([&](std::int64_t i, std::int64_t j, T& x) {
    std::complex<double> product = 0.0;
    for (std::int64_t l = 0; l < k; ++l) product += op_a_at(i, l) * op_b_at(l, j);
    std::complex<double> reference = widened(alpha) * product;
    if (scalars.beta != 0.0) reference += widened(beta) * widened(test_value<T>(i, j, kSeedC));
    error2 += std::norm(widened(x) - reference);
  });
  const double error = std::sqrt(sum_over_ranks(error2));
  const double eps = static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
  const double bound = 4.0 * static_cast<double>(std::max<std::int64_t>(k, 1)) * eps *
                       (std::abs(scalars.alpha) * frobenius<T>(m, k, kSeedA) * frobenius<T>(k, n, kSeedB) +
                        std::abs(scalars.beta) * frobenius<T>(m, n, kSeedC));
  const double damaged = sum_over_ranks(static_cast<double>(c.damaged_padding()));
  if (error <= bound && damaged == 0.0) return "";
  char text[320];
  std::snprintf(text, sizeof text,
                "%s, %s: M=%lld N=%lld K=%lld op=%s%s alpha=%g beta=%g: error %.3g > bound %.3g "
                "or %g padding elements written\n",
                stationary_name(algorithm), s.name, static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
                op_name(op_a), op_name(op_b), scalars.alpha, scalars.beta, error, bound, damaged);
  return text;
}

const std::vector<Op> kRealOps = {Op::NoTrans, Op::Trans};
const std::vector<Op> kAllOps = {Op::NoTrans, Op::Trans, Op::ConjTrans};

/// Every setup × shape × (op_a, op_b) in ops², alpha/beta cycling through kScalars.
template <typename T>
void run_all(const std::vector<Shape>& shapes, Stationary algorithm, const std::vector<Op>& ops = kRealOps) {
  std::string failures;
  int cases = 0;
  for (std::size_t s = 0; s < setups().size(); ++s) {
    for (std::size_t h = 0; h < shapes.size(); ++h) {
      for (const Op op_a : ops) {
        for (const Op op_b : ops) {
          const Scalars scalars = kScalars[(s + h + static_cast<std::size_t>(cases)) % kScalars.size()];
          failures += run_case<T>(setups()[s], shapes[h], op_a, op_b, scalars, algorithm);
          ++cases;
        }
      }
    }
  }
  EXPECT_TRUE(on_all_ranks(failures.empty())) << cases << " cases, failures:\n" << failures;
}

const std::vector<Shape> kFloatShapes = {{13, 11, 9}, {1, 6, 1}, {6, 5, 12}};

TEST(DistributedGemm, CStationaryDouble) { run_all<double>(kShapes, Stationary::C); }
TEST(DistributedGemm, AStationaryDouble) { run_all<double>(kShapes, Stationary::A); }
TEST(DistributedGemm, BStationaryDouble) { run_all<double>(kShapes, Stationary::B); }
TEST(DistributedGemm, AutomaticDouble) { run_all<double>({{5, 3, 40}, {3, 30, 40}, {30, 2, 40}}, Stationary::Automatic); }
TEST(DistributedGemm, CStationaryFloat) { run_all<float>(kFloatShapes, Stationary::C); }
TEST(DistributedGemm, AStationaryFloat) { run_all<float>(kFloatShapes, Stationary::A); }
TEST(DistributedGemm, BStationaryFloat) { run_all<float>(kFloatShapes, Stationary::B); }

// Complex data with every op, ConjTrans included; on real data ConjTrans is Trans.
using ComplexFloat = std::complex<float>;
using ComplexDouble = std::complex<double>;
const std::vector<Shape> kComplexShapes = {{13, 11, 9}, {1, 6, 1}, {6, 5, 12}};
TEST(DistributedGemm, CStationaryComplexDouble) { run_all<ComplexDouble>(kComplexShapes, Stationary::C, kAllOps); }
TEST(DistributedGemm, AStationaryComplexDouble) { run_all<ComplexDouble>(kComplexShapes, Stationary::A, kAllOps); }
TEST(DistributedGemm, BStationaryComplexDouble) { run_all<ComplexDouble>(kComplexShapes, Stationary::B, kAllOps); }
TEST(DistributedGemm, CStationaryComplexFloat) { run_all<ComplexFloat>(kFloatShapes, Stationary::C, kAllOps); }
TEST(DistributedGemm, AutomaticComplexFloat) {
  run_all<ComplexFloat>({{5, 3, 40}, {3, 30, 40}, {30, 2, 40}}, Stationary::Automatic, kAllOps);
}
TEST(DistributedGemm, ConjTransIsTransOnRealData) {
  run_all<double>(kFloatShapes, Stationary::C, {Op::ConjTrans, Op::NoTrans});
  run_all<float>({{7, 1, 5}, {9, 14, 2}}, Stationary::A, {Op::ConjTrans, Op::Trans});
}

}  // namespace
}  // namespace hetscal::kernels::test

// The local BLAS wrapper in the four scalar types: results against plain loops in complex
// double (conjugating where op is ConjTrans), and exact flop counts by LAWN 41 (real: one
// flop per multiplication and per addition; complex: 6 per multiplication, 2 per addition),
// worked out by hand below rather than with the wrapper's own formulas.
#include "kernels/local_blas.hpp"

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "kernel_test_support.hpp"
#include "kernels/flop_counter.hpp"

namespace hetscal::kernels::test {
namespace {

using Complex = std::complex<double>;

/// A column-major rows×cols matrix with ld = rows + 2 (the two extra rows must survive).
template <typename T>
struct Local {
  std::int64_t rows, cols, ld;
  std::vector<T> data;
  Local(std::int64_t r, std::int64_t c, unsigned seed) : rows(r), cols(c), ld(r + 2) {
    data.assign(static_cast<std::size_t>(ld * c), T(-5));
    for (std::int64_t j = 0; j < c; ++j)
      for (std::int64_t i = 0; i < r; ++i) at(i, j) = test_value<T>(i, j, seed);
  }
  T& at(std::int64_t i, std::int64_t j) { return data[static_cast<std::size_t>(i + j * ld)]; }
  Complex wide(std::int64_t i, std::int64_t j) const {
    return widened(data[static_cast<std::size_t>(i + j * ld)]);
  }
  /// Element (i, j) of op(this), in complex double.
  Complex op_at(Op op, std::int64_t i, std::int64_t j) const {
    if (op == Op::NoTrans) return wide(i, j);
    return op == Op::ConjTrans ? std::conj(wide(j, i)) : wide(j, i);
  }
  bool padding_intact() const {
    for (std::int64_t j = 0; j < cols; ++j)
      for (std::int64_t i = rows; i < ld; ++i)
        if (data[static_cast<std::size_t>(i + j * ld)] != T(-5)) return false;
    return true;
  }
};

template <typename T>
T scalar(double re, double im) {
  if constexpr (is_complex_v<T>) {
    return T(static_cast<real_of_t<T>>(re), static_cast<real_of_t<T>>(im));
  } else {
    return static_cast<T>(re);
  }
}

template <typename T>
double tolerance(std::int64_t terms) {
  return 16.0 * static_cast<double>(terms) *
         static_cast<double>(std::numeric_limits<real_of_t<T>>::epsilon());
}

/// Flops of one call, as counted by the wrapper.
template <typename F>
double flops_of_call(F&& call) {
  const double before = local_flops();
  call();
  return local_flops() - before;
}

template <typename T>
void check_gemm() {
  const std::int64_t m = 3, n = 4, k = 5;
  const double multiply_add = is_complex_v<T> ? 8.0 : 2.0;
  const T alpha = scalar<T>(0.75, -0.5), beta = scalar<T>(-1.25, 0.25);
  for (const Op op_a : {Op::NoTrans, Op::Trans, Op::ConjTrans}) {
    for (const Op op_b : {Op::NoTrans, Op::Trans, Op::ConjTrans}) {
      const Local<T> a = op_a == Op::NoTrans ? Local<T>(m, k, 1) : Local<T>(k, m, 1);
      const Local<T> b = op_b == Op::NoTrans ? Local<T>(k, n, 2) : Local<T>(n, k, 2);
      Local<T> c(m, n, 3);
      const Local<T> c0 = c;
      const double flops = flops_of_call([&] {
        gemm<T>(op_a, op_b, m, n, k, alpha, a.data.data(), a.ld, b.data.data(), b.ld, beta,
                c.data.data(), c.ld);
      });
      EXPECT_EQ(flops, multiply_add * m * n * k);
      for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; i < m; ++i) {
          Complex sum = 0.0;
          for (std::int64_t l = 0; l < k; ++l) sum += a.op_at(op_a, i, l) * b.op_at(op_b, l, j);
          const Complex expected = widened(alpha) * sum + widened(beta) * c0.wide(i, j);
          EXPECT_LE(std::abs(c.wide(i, j) - expected), tolerance<T>(k))
              << "op_a " << static_cast<int>(op_a) << " op_b " << static_cast<int>(op_b);
        }
      }
      EXPECT_TRUE(c.padding_intact());
    }
  }
}

TEST(LocalBlas, GemmEveryOpEveryType) {
  check_gemm<float>();
  check_gemm<double>();
  check_gemm<std::complex<float>>();
  check_gemm<std::complex<double>>();
}

// op(A)·X = alpha·B checked by multiplying back (A triangular, its diagonal kept away from 0).
template <typename T>
void check_trsm(Side side, Uplo uplo, Op op_a) {
  const std::int64_t m = 4, n = 3, order = side == Side::Left ? m : n;
  Local<T> a(order, order, 4);
  for (std::int64_t i = 0; i < order; ++i) a.at(i, i) += scalar<T>(3.0, 1.0);
  Local<T> x(m, n, 5);
  const Local<T> b0 = x;
  const T alpha = scalar<T>(1.5, 0.5);
  const double flops = flops_of_call([&] {
    trsm<T>(side, uplo, op_a, Diag::NonUnit, m, n, alpha, a.data.data(), a.ld, x.data.data(), x.ld);
  });
  // Left, m = 4, n = 3: n·m(m+1)/2 = 30 multiplications, n·m(m-1)/2 = 18 additions;
  // Right, m = 4, n = 3: m·n(n+1)/2 = 24 and m·n(n-1)/2 = 12.
  const bool left = side == Side::Left;
  const double multiplications = left ? 30 : 24, additions = left ? 18 : 12;
  EXPECT_EQ(flops, is_complex_v<T> ? 6 * multiplications + 2 * additions : multiplications + additions);
  const auto triangle_at = [&](std::int64_t i, std::int64_t j) {  // element of op(A)
    const std::int64_t si = op_a == Op::NoTrans ? i : j, sj = op_a == Op::NoTrans ? j : i;
    const bool stored = uplo == Uplo::Lower ? si >= sj : si <= sj;
    return stored ? a.op_at(op_a, i, j) : Complex(0.0);
  };
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < m; ++i) {
      Complex back = 0.0;
      if (left) {
        for (std::int64_t l = 0; l < m; ++l) back += triangle_at(i, l) * x.wide(l, j);
      } else {
        for (std::int64_t l = 0; l < n; ++l) back += x.wide(i, l) * triangle_at(l, j);
      }
      EXPECT_LE(std::abs(back - widened(alpha) * b0.wide(i, j)), tolerance<T>(order) * 4.0);
    }
  }
  EXPECT_TRUE(x.padding_intact());
}

TEST(LocalBlas, TrsmEveryTypeWithConjugateTranspose) {
  check_trsm<double>(Side::Left, Uplo::Lower, Op::ConjTrans);
  check_trsm<float>(Side::Right, Uplo::Upper, Op::Trans);
  check_trsm<std::complex<double>>(Side::Left, Uplo::Lower, Op::ConjTrans);
  check_trsm<std::complex<double>>(Side::Right, Uplo::Lower, Op::Trans);
  check_trsm<std::complex<float>>(Side::Left, Uplo::Upper, Op::NoTrans);
  check_trsm<std::complex<float>>(Side::Right, Uplo::Upper, Op::ConjTrans);
}

// C = alpha·op(A)·op(A)' + beta·C on `uplo`, where ' is ᴴ (herk) or ᵀ (syrk); the other
// triangle is left alone.
template <typename T>
void check_rank_k(bool hermitian, Uplo uplo, Op op_a) {
  const std::int64_t n = 3, k = 5;
  const Local<T> a = op_a == Op::NoTrans ? Local<T>(n, k, 6) : Local<T>(k, n, 6);
  Local<T> c(n, n, 7);
  const Local<T> c0 = c;
  using R = real_of_t<T>;
  const R alpha = 0.75, beta = -0.5;  // exact in every type
  const double flops = flops_of_call([&] {
    if (hermitian) {
      herk<T>(uplo, op_a, n, k, alpha, a.data.data(), a.ld, beta, c.data.data(), c.ld);
    } else {
      syrk<T>(uplo, op_a, n, k, T(alpha), a.data.data(), a.ld, T(beta), c.data.data(), c.ld);
    }
  });
  // k·n(n+1)/2 = 30 multiplications and as many additions.
  EXPECT_EQ(flops, is_complex_v<T> ? 6 * 30 + 2 * 30 : 30 + 30);
  const Op partner = hermitian ? Op::ConjTrans : Op::Trans;  // op of the second factor
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      const bool in_triangle = uplo == Uplo::Lower ? i >= j : i <= j;
      if (!in_triangle) {
        EXPECT_EQ(c.wide(i, j), c0.wide(i, j));
        continue;
      }
      Complex sum = 0.0;
      for (std::int64_t l = 0; l < k; ++l) {
        const Complex left = a.op_at(op_a, i, l);
        // Element (l, j) of the partner: op(A)'s column j read through ᴴ or ᵀ.
        const Complex right = partner == Op::ConjTrans ? std::conj(a.op_at(op_a, j, l)) : a.op_at(op_a, j, l);
        sum += left * right;
      }
      Complex expected = static_cast<double>(alpha) * sum + static_cast<double>(beta) * c0.wide(i, j);
      if (hermitian && i == j) expected = Complex(expected.real(), 0.0);  // HERK's diagonal is real
      EXPECT_LE(std::abs(c.wide(i, j) - expected), tolerance<T>(k)) << i << "," << j;
    }
  }
}

TEST(LocalBlas, HerkAndSyrkEveryType) {
  check_rank_k<std::complex<double>>(true, Uplo::Lower, Op::ConjTrans);
  check_rank_k<std::complex<double>>(true, Uplo::Upper, Op::NoTrans);
  check_rank_k<std::complex<float>>(true, Uplo::Upper, Op::ConjTrans);
  check_rank_k<std::complex<double>>(false, Uplo::Lower, Op::Trans);
  check_rank_k<std::complex<float>>(false, Uplo::Upper, Op::NoTrans);
  check_rank_k<double>(true, Uplo::Lower, Op::Trans);  // real herk is syrk
  check_rank_k<float>(true, Uplo::Upper, Op::ConjTrans);
  check_rank_k<double>(false, Uplo::Upper, Op::ConjTrans);
}

// POTRF of A = L·Lᴴ built from a known L (complex entries for complex T), A held only in
// `uplo` with an imaginary part on its diagonal that LAPACK must ignore: the factor is L
// (Lᴴ for Upper) with a real diagonal, the other triangle is left alone, and the count is
// LAWN 41's for n = 3: 10 multiplications, 4 additions. A smaller second diagonal element
// makes the leading minor of order 2 the first one not positive definite: INFO = 2.
template <typename T>
void check_potrf(Uplo uplo) {
  const std::int64_t n = 3;
  const Complex i1 = is_complex_v<T> ? Complex(0, 1) : Complex(0, 0);
  const Complex l[3][3] = {{2.0, 0.0, 0.0}, {1.0 + i1, 3.0, 0.0}, {-1.0, 2.0 - i1, 1.0}};
  Local<T> a(n, n, 8);  // the other triangle keeps its test values
  const Local<T> a0 = a;
  const auto stored = [&](std::int64_t i, std::int64_t j) { return uplo == Uplo::Lower ? i >= j : i <= j; };
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      if (!stored(i, j)) continue;
      Complex sum = 0.0;
      for (std::int64_t k = 0; k < n; ++k) sum += l[i][k] * std::conj(l[j][k]);
      if (i == j) sum += 0.25 * i1;  // not part of A
      a.at(i, j) = scalar<T>(sum.real(), sum.imag());
    }
  }
  const double flops = flops_of_call([&] { EXPECT_EQ(potrf<T>(uplo, n, a.data.data(), a.ld), 0); });
  EXPECT_EQ(flops, is_complex_v<T> ? 6 * 10 + 2 * 4 : 10 + 4);
  EXPECT_TRUE(a.padding_intact());
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < n; ++i) {
      if (!stored(i, j)) {
        EXPECT_EQ(a.wide(i, j), a0.wide(i, j));
        continue;
      }
      const Complex expected = uplo == Uplo::Lower ? l[i][j] : std::conj(l[j][i]);
      EXPECT_LE(std::abs(a.wide(i, j) - expected), tolerance<T>(n)) << i << "," << j;
      if (i == j) {
        EXPECT_EQ(a.wide(i, j).imag(), 0.0);
      }
    }
  }
  Local<T> broken(n, n, 9);
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t i = 0; i < n; ++i) broken.at(i, j) = scalar<T>(i != j ? 1.5 : i == 1 ? 0.5 : 4.0, 0);
  EXPECT_EQ(potrf<T>(uplo, n, broken.data.data(), broken.ld), 2);
}

TEST(LocalBlas, PotrfEveryTypeAndTriangle) {
  for (const Uplo uplo : {Uplo::Lower, Uplo::Upper}) {
    check_potrf<float>(uplo);
    check_potrf<double>(uplo);
    check_potrf<std::complex<float>>(uplo);
    check_potrf<std::complex<double>>(uplo);
  }
}

// B = alpha·op(A)·B with A upper triangular (non-unit), against loops; counted as TRSM.
template <typename T>
void check_trmm(Op op_a) {
  const std::int64_t m = 3, n = 4;
  const Local<T> a(m, m, 11);
  Local<T> b(m, n, 12);
  const Local<T> b0 = b;
  const T alpha = scalar<T>(0.5, 0.25);
  const double flops = flops_of_call([&] {
    trmm<T>(Side::Left, Uplo::Upper, op_a, Diag::NonUnit, m, n, alpha, a.data.data(), a.ld,
            b.data.data(), b.ld);
  });
  // n·m(m+1)/2 = 24 multiplications, n·m(m-1)/2 = 12 additions.
  EXPECT_EQ(flops, is_complex_v<T> ? 6 * 24 + 2 * 12 : 24 + 12);
  const auto upper = [&](std::int64_t i, std::int64_t j) {  // op(A)(i, j), A's lower part zero
    const bool stored = op_a == Op::NoTrans ? i <= j : j <= i;
    return stored ? a.op_at(op_a, i, j) : Complex(0);
  };
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < m; ++i) {
      Complex sum = 0;
      for (std::int64_t l = 0; l < m; ++l) sum += upper(i, l) * b0.wide(l, j);
      EXPECT_LE(std::abs(b.wide(i, j) - widened(alpha) * sum), tolerance<T>(m));
    }
  }
  EXPECT_TRUE(b.padding_intact());
}

TEST(LocalBlas, TrmmEveryType) {
  check_trmm<double>(Op::NoTrans);
  check_trmm<float>(Op::Trans);
  check_trmm<std::complex<double>>(Op::ConjTrans);
  check_trmm<std::complex<float>>(Op::ConjTrans);
}

// GEQRF then LARFT on m×n: H(i) = I − τ_i·v_i·v_iᴴ built by loops from the stored v_i; their
// product Q must give A = Q·R, be unitary, and equal I − V·T·Vᴴ with LARFT's T. Counts by
// LAWN 41 worked out by hand: GEQRF 5×3: 67 multiplications, 43 additions; 3×5: 73 and 49;
// LARFT 5×3: Σ i(m−i) + i(i±1)/2 over i < 3 = 14 and 11, 3×3: 8 and 5.
template <typename T>
void check_geqrf(std::int64_t m, std::int64_t n, double mults, double adds, double larft_mults,
                 double larft_adds) {
  SCOPED_TRACE(std::to_string(m) + "x" + std::to_string(n));
  const std::int64_t k = std::min(m, n);
  Local<T> a(m, n, 13);
  const Local<T> a0 = a;
  std::vector<T> tau(static_cast<std::size_t>(k)), t(static_cast<std::size_t>(k * k));
  std::vector<T> work(static_cast<std::size_t>(geqrf_work_size<T>(m, n)));
  const double flops = flops_of_call([&] {
    geqrf<T>(m, n, a.data.data(), a.ld, tau.data(), work.data(),
             static_cast<std::int64_t>(work.size()));
  });
  const auto count = [](double mul, double add) {
    return is_complex_v<T> ? 6 * mul + 2 * add : mul + add;
  };
  EXPECT_NEAR(flops, count(mults, adds), 1e-9);
  EXPECT_NEAR(flops_of_call([&] { larft<T>(m, k, a.data.data(), a.ld, tau.data(), t.data(), k); }),
              count(larft_mults, larft_adds), 1e-9);
  EXPECT_TRUE(a.padding_intact());
  const auto v = [&](std::int64_t i, std::int64_t c) {  // reflector c's vector, unit at c
    return i < c ? Complex(0) : i == c ? Complex(1) : a.wide(i, c);
  };
  // Q = H(0)·H(1)···H(k−1), built column by column from the identity.
  std::vector<Complex> q(static_cast<std::size_t>(m * m), 0.0);
  for (std::int64_t i = 0; i < m; ++i) q[static_cast<std::size_t>(i + i * m)] = 1.0;
  for (std::int64_t c = k - 1; c >= 0; --c) {  // Q := H(c)·Q
    for (std::int64_t j = 0; j < m; ++j) {
      Complex dot = 0;
      for (std::int64_t i = 0; i < m; ++i)
        dot += std::conj(v(i, c)) * q[static_cast<std::size_t>(i + j * m)];
      for (std::int64_t i = 0; i < m; ++i)
        q[static_cast<std::size_t>(i + j * m)] -=
            widened(tau[static_cast<std::size_t>(c)]) * v(i, c) * dot;
    }
  }
  for (std::int64_t j = 0; j < n; ++j) {
    for (std::int64_t i = 0; i < m; ++i) {
      Complex product = 0;  // (Q·R)(i, j)
      for (std::int64_t l = 0; l <= std::min(j, m - 1); ++l)
        product += q[static_cast<std::size_t>(i + l * m)] * a.wide(l, j);
      EXPECT_LE(std::abs(product - a0.wide(i, j)), tolerance<T>(m)) << i << "," << j;
    }
  }
  for (std::int64_t j = 0; j < m; ++j) {
    for (std::int64_t i = 0; i < m; ++i) {
      Complex wy = i == j ? 1.0 : 0.0;  // (I − V·T·Vᴴ)(i, j), T upper triangular
      for (std::int64_t r = 0; r < k; ++r)
        for (std::int64_t c = r; c < k; ++c)
          wy -= v(i, r) * widened(t[static_cast<std::size_t>(r + c * k)]) * std::conj(v(j, c));
      EXPECT_LE(std::abs(wy - q[static_cast<std::size_t>(i + j * m)]), tolerance<T>(m))
          << i << "," << j;
    }
  }
}

TEST(LocalBlas, GeqrfAndLarftEveryType) {
  check_geqrf<double>(5, 3, 67, 43, 14, 11);
  check_geqrf<float>(5, 3, 67, 43, 14, 11);
  check_geqrf<std::complex<double>>(5, 3, 67, 43, 14, 11);
  check_geqrf<std::complex<float>>(3, 5, 73, 49, 8, 5);
  check_geqrf<double>(3, 5, 73, 49, 8, 5);
}

TEST(LocalBlas, RefusesRankKUpdatesThatBlasHasNot) {
  std::vector<std::complex<double>> a(6), c(4);
  std::vector<std::complex<float>> af(6), cf(4);
  EXPECT_THROW(syrk<std::complex<double>>(Uplo::Lower, Op::ConjTrans, 2, 3, 1.0, a.data(), 3,
                                          0.0, c.data(), 2),
               InvalidArgument);
  EXPECT_THROW(herk<std::complex<float>>(Uplo::Lower, Op::Trans, 2, 3, 1.0f, af.data(), 3, 0.0f,
                                         cf.data(), 2),
               InvalidArgument);
}

}  // namespace
}  // namespace hetscal::kernels::test

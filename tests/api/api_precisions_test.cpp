// The native API in S, D, C and Z: one typed test per routine family, run on float, double,
// std::complex<float> and std::complex<double> through hetero_ps*, hetero_pd*, hetero_pc*,
// hetero_pz* (double's own tests add its edge cases and argument errors). Independent oracles, in
// complex double: the product summed term by term, residuals of the factorisations rebuilt from
// their definitions (P·A = L·U, A = L·Lᴴ, A = Q·R with Q formed from the reflectors as LAPACK
// defines them), solves checked by ‖op(A)·X − B‖, scaled by n·eps of the precision under test.
#include <gtest/gtest.h>

#include <complex>
#include <string>
#include <vector>

#include "api_precision_support.hpp"

namespace hetscal::api_test {
namespace {

constexpr double kThreshold = 10.0;  // a residual scaled by n·eps passes below this

template <typename T>
struct ApiPrecision : ::testing::Test {
  BlacsGrid grid;
};
using Precisions = ::testing::Types<float, double, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(ApiPrecision, Precisions);

TYPED_TEST(ApiPrecision, ScatterAndGatherCopyEveryElementExactly) {
  using T = TypeParam;
  const int m = 45, n = 38;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GEMM, m, n, n);
  const std::vector<T> x = random_of<T>(1, m, n);
  const BasicBlockCyclic<T> from(this->grid, x, m, n, 5);
  const std::vector<int> desch = c.desc(m, n);
  std::vector<T> h(static_cast<std::size_t>(std::max(1LL, hetscal_local_elements(desch.data()))));
  int info = -1;
  scatter(m, n, from.local.data(), from.desc, h.data(), desch.data(), &info);
  ASSERT_EQ(info, 0);
  EXPECT_EQ(whole_of(desch.data(), h), x);
  BasicBlockCyclic<T> to(this->grid, std::vector<T>(x.size(), T(0)), m, n, 7);
  gather(m, n, to.local.data(), to.desc, h.data(), desch.data(), &info);
  ASSERT_EQ(info, 0);
  EXPECT_EQ(to.gathered(this->grid), x);
}

TYPED_TEST(ApiPrecision, GemmOfEveryOpOnScalapackOperands) {
  using T = TypeParam;
  const int m = 37, n = 29, k = 33;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GEMM, m, n, k);
  const T alpha = random_scalar<T>(9, 0, 0), beta = random_scalar<T>(9, 1, 1);
  for (const char* ta : {"N", "T", "C"}) {
    for (const char* tb : {"N", "C"}) {
      SCOPED_TRACE(std::string(ta) + tb);
      const int a_rows = *ta == 'N' ? m : k, b_rows = *tb == 'N' ? k : n;
      const std::vector<T> a = random_of<T>(1, a_rows, *ta == 'N' ? k : m);
      const std::vector<T> b = random_of<T>(2, b_rows, *tb == 'N' ? n : k);
      const std::vector<T> c0 = random_of<T>(3, m, n);
      const BasicBlockCyclic<T> da(this->grid, a, a_rows, *ta == 'N' ? k : m, 6);
      const BasicBlockCyclic<T> db(this->grid, b, b_rows, *tb == 'N' ? n : k, 4);
      BasicBlockCyclic<T> dc(this->grid, c0, m, n, 5);
      int info = -1;
      gemm(ta, tb, m, n, k, alpha, da.local.data(), da.desc, db.local.data(), db.desc, beta,
           dc.local.data(), dc.desc, &info);
      ASSERT_EQ(info, 0);
      // The ops of real data conjugate nothing: "C" is "T" there, as PxGEMM's.
      const char op_a = kComplex<T> ? *ta : (*ta == 'N' ? 'N' : 'T');
      const char op_b = kComplex<T> ? *tb : (*tb == 'N' ? 'N' : 'T');
      WideMatrix expected = product(op_a, op_b, m, n, k, widen(a), a_rows, widen(b), b_rows);
      const WideMatrix old = widen(c0);
      for (std::size_t i = 0; i < expected.size(); ++i)
        expected[i] = Wide(alpha) * expected[i] + Wide(beta) * old[i];
      // Each element: K products of terms below 2 in modulus, alpha and beta below 2.
      const double bound = (k + 2) * eps<T>() * (4.0 * k + 2.0) * 4.0;
      EXPECT_LT(distance(widen(dc.gathered(this->grid)), expected) / std::sqrt(m * n), bound);
    }
  }
}

TYPED_TEST(ApiPrecision, GemmInPlaceWithBetaZeroNeverReadsC) {
  using T = TypeParam;
  const int m = 40, n = 31, k = 26;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GEMM, m, n, k);
  const std::vector<T> a = random_of<T>(4, m, k), b = random_of<T>(5, k, n);
  const real_t<T> nan = std::numeric_limits<real_t<T>>::quiet_NaN();
  InLayout<T> ha(c, a, m, k), hb(c, b, k, n), hc(c, std::vector<T>(m * n, T(nan)), m, n);
  int info = -1;
  gemm("N", "N", m, n, k, T(1), ha.local.data(), ha.desc.data(), hb.local.data(), hb.desc.data(),
       T(0), hc.local.data(), hc.desc.data(), &info);
  ASSERT_EQ(info, 0);
  const WideMatrix expected = product('N', 'N', m, n, k, widen(a), m, widen(b), k);
  EXPECT_LT(distance(widen(hc.whole()), expected) / std::sqrt(m * n), (k + 2) * eps<T>() * 4.0 * k);
}

/// ‖P·A − L·U‖_F / (‖A‖_F·N·eps) of factors W (M×N) and pivots in hetscal's format.
template <typename T>
double lu_residual(const std::vector<T>& a, const std::vector<T>& w, const std::vector<int>& ipiv,
                   int m, int n) {
  WideMatrix pa = widen(a);
  const int steps = std::min(m, n);
  for (int i = 0; i < steps; ++i)
    for (int j = 0; j < n; ++j)
      std::swap(pa[j * std::size_t(m) + i], pa[j * std::size_t(m) + ipiv[i] - 1]);
  const WideMatrix f = widen(w);
  WideMatrix lu(pa.size());
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      Wide sum = 0.0;
      for (int l = 0; l <= std::min({i, j, steps - 1}); ++l) {
        const Wide lower = l == i ? Wide(1.0) : f[l * std::size_t(m) + i];
        sum += lower * f[j * std::size_t(m) + l];
      }
      lu[j * std::size_t(m) + i] = sum;
    }
  return distance(pa, lu) / (frobenius(widen(a)) * n * eps<T>());
}

TYPED_TEST(ApiPrecision, LuFactorsAndSolvesWithEveryTrans) {
  using T = TypeParam;
  const int n = 45, nrhs = 7;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GETRF, n, n);
  const std::vector<T> a = random_of<T>(6, n, n);
  InLayout<T> ha(c, a, n, n);
  std::vector<int> ipiv(n, -7);
  int info = -1;
  ASSERT_EQ(getrf(n, n, ha.local.data(), ha.desc.data(), ipiv.data(), &info), HETSCAL_SUCCESS);
  ASSERT_EQ(info, 0);
  EXPECT_LT(lu_residual(a, ha.whole(), ipiv, n, n), kThreshold);
  for (const char* trans : {"N", "T", "C"}) {
    SCOPED_TRACE(trans);
    const std::vector<T> b = random_of<T>(7, n, nrhs);
    InLayout<T> hb(c, b, n, nrhs);
    ASSERT_EQ(getrs(trans, n, nrhs, ha.local.data(), ha.desc.data(), ipiv.data(), hb.local.data(),
                    hb.desc.data(), &info),
              HETSCAL_SUCCESS);
    ASSERT_EQ(info, 0);
    const char op = kComplex<T> ? *trans : (*trans == 'N' ? 'N' : 'T');
    const WideMatrix x = widen(hb.whole());
    const WideMatrix ax = product(op, 'N', n, nrhs, n, widen(a), n, x, n);
    EXPECT_LT(distance(ax, widen(b)) / (frobenius(widen(a)) * frobenius(x) * n * eps<T>()),
              kThreshold);
  }
}

TYPED_TEST(ApiPrecision, LuOnScalapackOperandsSolves) {
  using T = TypeParam;
  const int n = 43, nrhs = 4, nb = 4;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GETRF, n, n);  // supplies the speeds
  const std::vector<T> a = random_of<T>(15, n, n);
  BasicBlockCyclic<T> da(this->grid, a, n, n, nb);
  std::vector<int> ipiv(static_cast<std::size_t>(da.lld + nb), -7);  // LOCr(M_A) + MB_A
  int info = -1;
  ASSERT_EQ(getrf(n, n, da.local.data(), da.desc, ipiv.data(), &info), HETSCAL_SUCCESS);
  ASSERT_EQ(info, 0);
  for (const char* trans : {"N", adjoint_letter<T>()}) {
    SCOPED_TRACE(trans);
    const std::vector<T> b = random_of<T>(16, n, nrhs);
    BasicBlockCyclic<T> db(this->grid, b, n, nrhs, nb);
    ASSERT_EQ(getrs(trans, n, nrhs, da.local.data(), da.desc, ipiv.data(), db.local.data(), db.desc,
                    &info),
              HETSCAL_SUCCESS);
    ASSERT_EQ(info, 0);
    const WideMatrix x = widen(db.gathered(this->grid));
    const WideMatrix ax = product(*trans, 'N', n, nrhs, n, widen(a), n, x, n);
    EXPECT_LT(distance(ax, widen(b)) / (frobenius(widen(a)) * frobenius(x) * n * eps<T>()),
              kThreshold);
  }
}

/// A Hermitian positive definite N×N matrix (Rᴴ·R + N·I) with only its `uplo` triangle
/// stored; the other triangle holds 7 and, for complex T, the diagonal's imaginary parts 0.5:
/// PxPOTRF reads neither.
template <typename T>
std::vector<T> stored_hermitian(char uplo, int n, WideMatrix& exact) {
  const WideMatrix r = widen(random_of<T>(8, n, n));
  exact = product('C', 'N', n, n, n, r, n, r, n);
  for (int i = 0; i < n; ++i)
    exact[i * std::size_t(n) + i] = exact[i * std::size_t(n) + i].real() + n;
  std::vector<T> stored = narrow<T>(exact);
  exact = widen(stored);  // what is stored is the matrix factored
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const bool in_triangle = uplo == 'L' ? i >= j : i <= j;
      Wide& e = exact[j * std::size_t(n) + i];
      if (!in_triangle) e = std::conj(exact[i * std::size_t(n) + j]);
      if (i == j) e = e.real();
      T& s = stored[j * std::size_t(n) + i];
      if (!in_triangle) s = T(7);
      if constexpr (kComplex<T>) {
        if (i == j) s = T(s.real(), 0.5);
      }
    }
  return stored;
}

/// ‖A − L·Lᴴ‖_F (or Uᴴ·U) / (‖A‖_F·N·eps), the factor in the `uplo` triangle of W.
template <typename T>
double cholesky_residual(char uplo, const WideMatrix& exact, const std::vector<T>& w, int n) {
  WideMatrix f = widen(w);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      if (uplo == 'L' ? i < j : i > j) f[j * std::size_t(n) + i] = 0.0;
  const WideMatrix rebuilt =
      uplo == 'L' ? product('N', 'C', n, n, n, f, n, f, n) : product('C', 'N', n, n, n, f, n, f, n);
  return distance(rebuilt, exact) / (frobenius(exact) * n * eps<T>());
}

TYPED_TEST(ApiPrecision, CholeskyOfHermitianMatricesAndItsSolve) {
  using T = TypeParam;
  const int n = 41, nrhs = 5;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_POTRF, n, n);
  for (const char* uplo : {"L", "U"}) {
    SCOPED_TRACE(uplo);
    WideMatrix exact;
    const std::vector<T> a = stored_hermitian<T>(*uplo, n, exact);
    InLayout<T> ha(c, a, n, n);
    int info = -1;
    ASSERT_EQ(potrf(uplo, n, ha.local.data(), 1, 1, ha.desc.data(), &info), HETSCAL_SUCCESS);
    ASSERT_EQ(info, 0);
    const std::vector<T> factor = ha.whole();
    EXPECT_LT(cholesky_residual(*uplo, exact, factor, n), kThreshold);
    for (int j = 0; j < n; ++j) {
      EXPECT_EQ(std::imag(Wide(factor[j * std::size_t(n) + j])), 0.0) << j;
      for (int i = 0; i < n; ++i) {  // the other triangle is never written
        if (*uplo == 'L' ? i < j : i > j) {
          ASSERT_EQ(factor[j * std::size_t(n) + i], T(7));
        }
      }
    }
    const std::vector<T> b = random_of<T>(10, n, nrhs);
    InLayout<T> hb(c, b, n, nrhs);
    ASSERT_EQ(potrs(uplo, n, nrhs, ha.local.data(), ha.desc.data(), hb.local.data(), hb.desc.data(),
                    &info),
              HETSCAL_SUCCESS);
    ASSERT_EQ(info, 0);
    const WideMatrix x = widen(hb.whole());
    EXPECT_LT(distance(product('N', 'N', n, nrhs, n, exact, n, x, n), widen(b)) /
                  (frobenius(exact) * frobenius(x) * n * eps<T>()),
              kThreshold);
  }
}

TYPED_TEST(ApiPrecision, CholeskyOnAScalapackSubmatrixWritesOnlyItsTriangle) {
  using T = TypeParam;
  const int n = 36, offset = 4, whole_n = n + offset;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_POTRF, n, n);
  WideMatrix exact;
  const std::vector<T> sub = stored_hermitian<T>('L', n, exact);
  std::vector<T> a = random_of<T>(11, whole_n, whole_n);  // sub(A) = A(5:, 5:)
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[(j + offset) * std::size_t(whole_n) + i + offset] = sub[j * std::size_t(n) + i];
  BasicBlockCyclic<T> da(this->grid, a, whole_n, whole_n, 4);
  int info = -1;
  ASSERT_EQ(potrf("L", n, da.local.data(), offset + 1, offset + 1, da.desc, &info),
            HETSCAL_SUCCESS);
  ASSERT_EQ(info, 0);
  const std::vector<T> after = da.gathered(this->grid);
  std::vector<T> factor(sub.size());
  for (int j = 0; j < whole_n; ++j)
    for (int i = 0; i < whole_n; ++i) {
      const T v = after[j * std::size_t(whole_n) + i];
      const bool in_sub = i >= offset && j >= offset;
      if (in_sub) factor[(j - offset) * std::size_t(n) + i - offset] = v;
      if (!in_sub || i < j) {
        ASSERT_EQ(v, a[j * std::size_t(whole_n) + i]) << i << "," << j;
      }
    }
  EXPECT_LT(cholesky_residual('L', exact, factor, n), kThreshold);
}

/// Q = H(1)···H(K) (M×M) from the reflectors below W's diagonal and τ, H(i) = I − τ·v·vᴴ,
/// v(i) = 1: LAPACK's definition, applied to the identity from the last reflector.
template <typename T>
WideMatrix explicit_q(const std::vector<T>& w, const std::vector<T>& tau, int m, int k) {
  WideMatrix q(static_cast<std::size_t>(m) * m, 0.0);
  for (int i = 0; i < m; ++i) q[i * std::size_t(m) + i] = 1.0;
  for (int r = k - 1; r >= 0; --r) {
    WideMatrix v(m, 0.0);
    v[r] = 1.0;
    for (int i = r + 1; i < m; ++i) v[i] = Wide(w[r * std::size_t(m) + i]);
    for (int j = 0; j < m; ++j) {
      Wide vq = 0.0;
      for (int i = r; i < m; ++i) vq += std::conj(v[i]) * q[j * std::size_t(m) + i];
      for (int i = r; i < m; ++i) q[j * std::size_t(m) + i] -= Wide(tau[r]) * v[i] * vq;
    }
  }
  return q;
}

TYPED_TEST(ApiPrecision, QrFactorsAndAppliesQFromEitherSide) {
  using T = TypeParam;
  const int m = 50, n = 36, k = n, other = 23;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GEQRF, m, n);
  const std::vector<T> a = random_of<T>(12, m, n);
  InLayout<T> ha(c, a, m, n);
  std::vector<T> tau(k);
  int info = -1;
  ASSERT_EQ(geqrf(m, n, ha.local.data(), ha.desc.data(), tau.data(), &info), HETSCAL_SUCCESS);
  ASSERT_EQ(info, 0);
  const std::vector<T> w = ha.whole();
  const WideMatrix q = explicit_q(w, tau, m, k);
  WideMatrix r(static_cast<std::size_t>(m) * n, 0.0);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i <= std::min(j, m - 1); ++i)
      r[j * std::size_t(m) + i] = Wide(w[j * std::size_t(m) + i]);
    EXPECT_EQ(r[j * std::size_t(m) + j].imag(), 0.0) << j;  // xLARFG's β is real
  }
  EXPECT_LT(distance(product('N', 'N', m, n, m, q, m, r, m), widen(a)) /
                (frobenius(widen(a)) * m * eps<T>()),
            kThreshold);
  const char adjoint = *adjoint_letter<T>();
  for (const char* side : {"L", "R"}) {
    for (const char trans : {'N', adjoint}) {
      SCOPED_TRACE(std::string(side) + trans);
      const bool left = *side == 'L';
      const int rows = left ? m : other, cols = left ? other : m;
      const std::vector<T> c0 = random_of<T>(13, rows, cols);
      InLayout<T> hc(c, c0, rows, cols);
      const char letter[2] = {trans, '\0'};
      ASSERT_EQ(ormqr(side, letter, rows, cols, k, ha.local.data(), ha.desc.data(), tau.data(),
                      hc.local.data(), hc.desc.data(), &info),
                HETSCAL_SUCCESS);
      ASSERT_EQ(info, 0);
      const char op = trans == 'N' ? 'N' : 'C';  // Qᵀ of real data is its adjoint
      const WideMatrix expected = left ? product(op, 'N', m, other, m, q, m, widen(c0), m)
                                       : product('N', op, other, m, m, widen(c0), other, q, m);
      EXPECT_LT(distance(widen(hc.whole()), expected) / (frobenius(widen(c0)) * m * eps<T>()),
                kThreshold);
    }
  }
  // PxUNMQR refuses "T" and PxORMQR "C": TRANS's code, C untouched.
  InLayout<T> hc(c, random_of<T>(14, m, other), m, other);
  const std::vector<T> before = hc.local;
  EXPECT_EQ(ormqr("L", kComplex<T> ? "T" : "C", m, other, k, ha.local.data(), ha.desc.data(),
                  tau.data(), hc.local.data(), hc.desc.data(), &info),
            HETSCAL_ERR_ARGUMENT);
  EXPECT_EQ(info, -2);
  EXPECT_EQ(hc.local, before);
}

/// TAU as PxGEQRF leaves it on a block-cyclic A (nb columns per block, from process column
/// 0): τ of column j on every process row of the process column holding j, gathered whole.
template <typename T>
std::vector<T> gathered_tau(const BlacsGrid& grid, const std::vector<T>& local_tau, int k, int nb) {
  std::vector<T> tau(k, T(0));
  for (int j = 0; j < k; ++j) {
    const bool holder = grid.myrow == 0 && (j / nb) % grid.npcol == grid.mycol;
    if (holder) tau[j] = local_tau[(j / nb / grid.npcol) * nb + j % nb];
  }
  MPI_Allreduce(MPI_IN_PLACE, tau.data(), k, mpi::mpi_type<T>(), MPI_SUM, MPI_COMM_WORLD);
  return tau;
}

TYPED_TEST(ApiPrecision, QrOnScalapackOperandsGivesPxgeqrfsTau) {
  using T = TypeParam;
  const int m = 46, n = 30, k = n, nrhs = 9, nb = 4;
  const PlannedContext c(this->grid, HETSCAL_ROUTINE_GEQRF, m, n);  // supplies the speeds
  const std::vector<T> a = random_of<T>(17, m, n);
  BasicBlockCyclic<T> da(this->grid, a, m, n, nb);
  std::vector<T> local_tau(static_cast<std::size_t>(n), T(0));  // >= LOCc(N)
  int info = -1;
  ASSERT_EQ(geqrf(m, n, da.local.data(), da.desc, local_tau.data(), &info), HETSCAL_SUCCESS);
  ASSERT_EQ(info, 0);
  const std::vector<T> w = da.gathered(this->grid);
  const std::vector<T> tau = gathered_tau(this->grid, local_tau, k, nb);
  const WideMatrix q = explicit_q(w, tau, m, k);
  WideMatrix r(static_cast<std::size_t>(m) * n, 0.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i) r[j * std::size_t(m) + i] = Wide(w[j * std::size_t(m) + i]);
  EXPECT_LT(distance(product('N', 'N', m, n, m, q, m, r, m), widen(a)) /
                (frobenius(widen(a)) * m * eps<T>()),
            kThreshold);
  const std::vector<T> c0 = random_of<T>(18, m, nrhs);
  BasicBlockCyclic<T> dc(this->grid, c0, m, nrhs, nb);
  ASSERT_EQ(ormqr("L", adjoint_letter<T>(), m, nrhs, k, da.local.data(), da.desc, local_tau.data(),
                  dc.local.data(), dc.desc, &info),
            HETSCAL_SUCCESS);
  ASSERT_EQ(info, 0);
  const WideMatrix expected = product('C', 'N', m, nrhs, m, q, m, widen(c0), m);
  EXPECT_LT(
      distance(widen(dc.gathered(this->grid)), expected) / (frobenius(widen(c0)) * m * eps<T>()),
      kThreshold);
}

}  // namespace
}  // namespace hetscal::api_test

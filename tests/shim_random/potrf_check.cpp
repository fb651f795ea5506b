#include "potrf_check.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

#include "precision.hpp"
#include "scalapack_abi.hpp"

namespace hetscal_test {
namespace {

// The NaN in the triangle PxPOTRF must not reference: a payload of its own.
double other_triangle_sentinel() {
  const std::uint64_t bits = 0x7FF80123456789ABull;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// What the case expects of sub(A)'s UPLO triangle after the call.
template <typename T>
struct Reference {
  bool factor_known = false;  // INFO = 0 and N > 0: the factor is checked
  bool left_as_is = false;    // refused, or N = 0: sub(A) stays bit-identical
  ReferenceCholesky<T> cholesky;
  double bound = 0.0;
};

// Cholesky is backward stable: the computed factor is the exact one of A + dA with
// |dA| <= gamma_{n+1}·|L|·|L^H|, so ||dA||_F <= n·gamma_{n+1}·||A||_2. The factor's first-order
// sensitivity is ||dL||_F <= kappa(A)·||L||_2·||dA||_F / ||A||_2 (Sun), with kappa < 3 and
// ||L||_2 = sqrt(||A||_2) <= sqrt(3n + 1) for real matrices (potrf_case.hpp). Any correct
// blocking and summation order lies within that of the exact factor, as does the long-double
// reference: each element within 3·n·(n + 1)·eps·sqrt(3n + 1), eps the precision's; twice
// that is allowed. On complex data kappa < 4n + 1 (the spectrum is wider) and each operation
// errs up to twice as much: the bound grows by (4n + 1)/3 · 2.
template <typename T>
Reference<T> reference_for(const PotrfCase& t, const std::vector<T>& a) {
  Reference<T> r;
  if (t.argument_info() != 0 || t.n == 0) {
    r.left_as_is = true;
    return r;
  }
  r.cholesky = reference_cholesky(a, t.n);
  if (r.cholesky.info != t.failing_order) {
    std::fprintf(stderr, "potrf_check: the case's matrix fails at order %d, not %d as built\n",
                 r.cholesky.info, t.failing_order);
    std::abort();  // a bug of the test, not of the routine
  }
  r.factor_known = t.failing_order == 0;
  const double n = t.n, eps = unit_roundoff<T>();
  const double complex_factor = std::is_floating_point_v<T> ? 1.0 : 2.0 * (4.0 * n + 1.0) / 3.0;
  r.bound = complex_factor * 2.0 * 3.0 * n * (n + 1.0) * eps * std::sqrt(3.0 * n + 1.0);
  return r;
}

// Checks one element of the UPLO triangle of sub(A) (si, sj 0-based inside sub(A)).
template <typename T>
void check_referenced(const PotrfCase& t, const Reference<T>& r, int si, int sj, T got, T before,
                      PotrfFindings& f, int li, int lj, int i, int j) {
  if (r.left_as_is) {
    if (!same_bits(got, before)) {
      ++f.changed_refused;
      note_first_problem(f.first_problem, "sub(A) changed by a call that must leave it", li, lj, i,
                         j, reported(got), reported(before), 0.0);
    }
    return;
  }
  if (!r.factor_known) return;  // INFO > 0: ScaLAPACK leaves a partial factor, unspecified
  // U = L^H: U(si, sj) = conj(L(sj, si)).
  const int row = t.upper() ? sj : si, col = t.upper() ? si : sj;
  auto want = reported(r.cholesky.lower[row + static_cast<std::size_t>(col) * t.n]);
  if constexpr (!std::is_floating_point_v<T>) {
    if (t.upper()) want = std::conj(want);
  }
  if (!(std::abs(reported(got) - want) <= r.bound)) {  // NaN fails too
    ++f.wrong_factor;
    note_first_problem(f.first_problem, "wrong factor element", li, lj, i, j, reported(got), want,
                       r.bound);
  }
}

template <typename T>
void check_a(const PotrfCase& t, const Reference<T>& r, const LocalMatrix<T>& a,
             const std::vector<T>& before, PotrfFindings& f) {
  for (int lj = 0; lj < std::max(1, a.local_cols()); ++lj) {
    for (int li = 0; li < a.lld(); ++li) {
      const std::size_t at = a.at(li, lj);
      const T got = a.data()[at];
      if (li >= a.local_rows() || lj >= a.local_cols()) {
        if (!same_bits(got, before[at])) {
          ++f.changed_padding;
          note_first_problem(f.first_problem, "A padding changed", li, lj, -1, -1, reported(got),
                             reported(before[at]), 0.0);
        }
        continue;
      }
      const int i = a.global_row(li), j = a.global_col(lj);
      const int si = i - (t.ia - 1), sj = j - (t.ja - 1);
      const bool in_sub = si >= 0 && si < t.n && sj >= 0 && sj < t.n;
      if (in_sub && t.in_referenced_triangle(si, sj)) {
        check_referenced(t, r, si, sj, got, before[at], f, li, lj, i, j);
      } else if (!same_bits(got, before[at])) {
        ++(in_sub ? f.changed_other_triangle : f.changed_outside);
        note_first_problem(f.first_problem,
                           in_sub ? "other triangle changed" : "A changed outside sub(A)", li, lj,
                           i, j, reported(got), reported(before[at]), 0.0);
      }
    }
  }
}

template <typename T>
void call_pxpotrf(const PotrfCase& t, LocalMatrix<T>& a, int* info) {
  if constexpr (std::is_same_v<T, float>) {
    pspotrf_(&t.uplo, &t.n, a.data().data(), &t.ia, &t.ja, a.desc(), info);
  } else if constexpr (std::is_same_v<T, double>) {
    pdpotrf_(&t.uplo, &t.n, a.data().data(), &t.ia, &t.ja, a.desc(), info);
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    pcpotrf_(&t.uplo, &t.n, a.data().data(), &t.ia, &t.ja, a.desc(), info);
  } else {
    pzpotrf_(&t.uplo, &t.n, a.data().data(), &t.ia, &t.ja, a.desc(), info);
  }
}

}  // namespace

std::string PotrfFindings::counts(const PotrfCase& t) const {
  char text[240];
  std::snprintf(text, sizeof text,
                "INFO %d (expected %d), %ld wrong in the factor, %ld changed in the other "
                "triangle, %ld outside sub(A), %ld in the padding, %ld in a refused call's sub(A)",
                info, t.expected_info(), wrong_factor, changed_other_triangle, changed_outside,
                changed_padding, changed_refused);
  return text;
}

template <typename T>
PotrfFindings run_and_check(const PotrfCase& t, const GridPosition& grid) {
  const std::vector<T> sub_a = hermitian_matrix<T>(t);
  const Reference<T> reference = reference_for(t, sub_a);
  // Outside sub(A) one NaN sentinel, in its other triangle another: any use of them
  // spoils the factor, any write is seen.
  const T outside = sentinel_of<T>(outside_sentinel());
  const T other_triangle = sentinel_of<T>(other_triangle_sentinel());
  LocalMatrix<T> a(t.a, grid, [&](int i, int j) {
    const int si = i - (t.ia - 1), sj = j - (t.ja - 1);
    if (si < 0 || si >= t.n || sj < 0 || sj >= t.n) return outside;
    if (!t.in_referenced_triangle(si, sj)) return other_triangle;
    return sub_a[si + static_cast<std::size_t>(sj) * t.n];
  });
  const std::vector<T> before = a.data();

  PotrfFindings f;
  f.info = 12345;  // a value no call returns: INFO must be set
  call_pxpotrf(t, a, &f.info);

  check_a(t, reference, a, before, f);
  if (f.info != t.expected_info()) {
    f.wrong_info = true;
    char text[120];
    std::snprintf(text, sizeof text, "INFO = %d, expected %d; ", f.info, t.expected_info());
    f.first_problem = text + f.first_problem;
  }
  return f;
}

template PotrfFindings run_and_check<float>(const PotrfCase&, const GridPosition&);
template PotrfFindings run_and_check<double>(const PotrfCase&, const GridPosition&);
template PotrfFindings run_and_check<std::complex<float>>(const PotrfCase&, const GridPosition&);
template PotrfFindings run_and_check<std::complex<double>>(const PotrfCase&, const GridPosition&);

}  // namespace hetscal_test

#include "getrf_check.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "precision.hpp"
#include "scalapack_abi.hpp"
#include "scalapack_reference.hpp"

namespace hetscal_test {
namespace {

template <typename T>
using Pxgetrf = scalapack_overloads::Getrf<T>;

constexpr int kUnwrittenPivot = -99;  // IPIV entries PDGETRF leaves alone keep this
constexpr int kIpivGuard = 8;         // entries past LOCr(M_A)+MB_A that nothing may write

// ScaLAPACK's own PxGETRF of T's precision: the reference whether or not hetscal is preloaded.
template <typename T>
Pxgetrf<T> scalapack_pxgetrf() {
  static const auto routine =
      reinterpret_cast<Pxgetrf<T>>(scalapack_own_symbol(routine_symbol<T>("getrf").c_str()));
  return routine;
}

// One call's results on this process: A, IPIV (with its guard) and INFO.
template <typename T>
struct CallResult {
  LocalMatrix<T> a;
  std::vector<int> ipiv;
  int info = 12345;  // a value no call returns: INFO must be set
};

template <typename T>
CallResult<T> call(Pxgetrf<T> routine, const GetrfCase& t, const LocalMatrix<T>& a) {
  CallResult<T> r{a, std::vector<int>(static_cast<std::size_t>(a.local_rows() + t.a.mb + kIpivGuard),
                                   kUnwrittenPivot)};
  routine(&t.m, &t.n, r.a.data().data(), &t.ia, &t.ja, r.a.desc(), r.ipiv.data(), &r.info);
  return r;
}

// Whether an element of the factors equals ScaLAPACK's: bit for bit on real data; on complex
// data by value, as the signs of zero parts differ between correct complex update orders
// (seen on singular matrices, whose skipped pivot leaves exact zeros to the updates).
template <typename T>
bool same_as_scalapack(const T& value, const T& scalapack) {
  if constexpr (std::is_floating_point_v<T>) {
    return same_bits(value, scalapack);
  } else {
    return value == scalapack;
  }
}

template <typename T>
void check_a(const GetrfCase& t, const KnownLu<T>& lu, const LocalMatrix<T>& before,
             const CallResult<T>& got, const CallResult<T>* scalapack, GetrfFindings& f) {
  const bool left_as_is = t.argument_info() != 0 || t.quick_return();
  const LocalMatrix<T>& a = got.a;
  UntouchedFindings u;
  u.first_problem = f.first_problem;
  check_untouched(before, a, t.ia, t.ja, t.m, t.n, left_as_is, u, [&](int li, int lj, int si, int sj) {
    const std::size_t at = a.at(li, lj);
    const T value = a.data()[at];
    const int i = t.ia - 1 + si, j = t.ja - 1 + sj;
    const T want = lu.factors[si + static_cast<std::size_t>(sj) * t.m];
    if (!(value == want)) {  // exact (getrf_case.hpp); NaN fails too
      ++f.wrong_factor;
      note_first_problem(u.first_problem, "wrong factor element", li, lj, i, j, reported(value),
                         reported(want), 0.0);
    }
    if (scalapack && !same_as_scalapack(value, scalapack->a.data()[at])) {
      ++f.unlike_scalapack;
      note_first_problem(u.first_problem, "factor unlike ScaLAPACK's", li, lj, i, j,
                         reported(value), reported(scalapack->a.data()[at]), 0.0);
    }
  });
  f.changed_padding += u.padding;
  f.changed_outside += u.outside;
  f.changed_refused += u.left;
  f.first_problem = u.first_problem;
}

void note_pivot(GetrfFindings& f, long& count, const char* what, std::size_t entry, int got, int want) {
  ++count;
  if (!f.first_problem.empty()) return;
  char text[160];
  std::snprintf(text, sizeof text, "%s: IPIV(%zu) = %d, expected %d", what, entry + 1, got, want);
  f.first_problem = text;
}

// IPIV as PDGETRF leaves it: untouched by a refused call, IPIV(1) = 1 alone for M_A = 1,
// ScaLAPACK's own entries (spare ones included) otherwise, the known pivots in sub(A)'s rows.
template <typename T>
void check_ipiv(const GetrfCase& t, const KnownLu<T>& lu, const CallResult<T>& got,
                const CallResult<T>* scalapack, GetrfFindings& f) {
  const std::size_t size = got.ipiv.size() - kIpivGuard;
  for (std::size_t e = 0; e < got.ipiv.size(); ++e) {
    int want = kUnwrittenPivot;
    if (e >= size) {
      if (got.ipiv[e] != want) note_pivot(f, f.ipiv_overrun, "IPIV written past its end", e, got.ipiv[e], want);
      continue;
    }
    if (scalapack) {
      want = scalapack->ipiv[e];
    } else if (t.argument_info() == 0 && t.a.rows == 1 && e == 0) {
      want = 1;
    }
    if (got.ipiv[e] != want) {
      note_pivot(f, scalapack ? f.unlike_scalapack : f.changed_refused,
                 scalapack ? "IPIV unlike ScaLAPACK's" : "IPIV changed by a call that must leave it",
                 e, got.ipiv[e], want);
    }
  }
  if (!scalapack) return;
  for (int li = 0; li < got.a.local_rows(); ++li) {
    const int k = got.a.global_row(li) - (t.ia - 1);
    if (k < 0 || k >= t.steps()) continue;
    const int want = t.ia + lu.pivots[k];  // a global row index of A, 1-based
    if (got.ipiv[li] != want) note_pivot(f, f.wrong_pivot, "wrong pivot", li, got.ipiv[li], want);
  }
}

}  // namespace

std::string GetrfFindings::counts(const GetrfCase& t) const {
  char text[300];
  std::snprintf(text, sizeof text,
                "INFO %d (expected %d), %ld wrong in the factors, %ld wrong pivots, %ld unlike "
                "ScaLAPACK's, %ld outside sub(A), %ld in the padding, %ld in a refused call's "
                "sub(A) or IPIV, %ld past IPIV's end",
                info, t.expected_info(), wrong_factor, wrong_pivot, unlike_scalapack,
                changed_outside, changed_padding, changed_refused, ipiv_overrun);
  return text;
}

template <typename T>
GetrfFindings run_and_check(const GetrfCase& t, const GridPosition& grid) {
  const KnownLu<T> lu = known_lu<T>(t);
  // Outside sub(A) a NaN sentinel: any use of it spoils the factors, any write is seen.
  const T outside = sentinel_of<T>(outside_sentinel());
  const LocalMatrix<T> before(t.a, grid, [&](int i, int j) {
    const int si = i - (t.ia - 1), sj = j - (t.ja - 1);
    if (si < 0 || si >= t.m || sj < 0 || sj >= t.n) return outside;
    return lu.a[si + static_cast<std::size_t>(sj) * t.m];
  });
  // The routine under test: PxGETRF as the program links it (hetscal's when preloaded).
  const CallResult<T> got = call(scalapack_overloads::getrf(static_cast<T*>(nullptr)), t, before);
  // ScaLAPACK's answer on a copy, for the calls it computes (a refused one would print twice).
  const bool computed = t.argument_info() == 0 && !t.quick_return();
  CallResult<T> reference =
      computed ? call(scalapack_pxgetrf<T>(), t, before) : CallResult<T>{before, {}};

  GetrfFindings f;
  f.info = got.info;
  check_a(t, lu, before, got, computed ? &reference : nullptr, f);
  check_ipiv(t, lu, got, computed ? &reference : nullptr, f);
  if (f.info != t.expected_info() || (computed && reference.info != t.expected_info())) {
    f.wrong_info = true;
    char text[120];
    std::snprintf(text, sizeof text, "INFO = %d, expected %d (ScaLAPACK's own: %d); ", f.info,
                  t.expected_info(), computed ? reference.info : t.expected_info());
    f.first_problem = text + f.first_problem;
  }
  return f;
}

template GetrfFindings run_and_check<float>(const GetrfCase&, const GridPosition&);
template GetrfFindings run_and_check<double>(const GetrfCase&, const GridPosition&);
template GetrfFindings run_and_check<std::complex<float>>(const GetrfCase&, const GridPosition&);
template GetrfFindings run_and_check<std::complex<double>>(const GetrfCase&, const GridPosition&);

}  // namespace hetscal_test

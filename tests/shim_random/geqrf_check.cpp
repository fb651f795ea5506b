#include "geqrf_check.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <type_traits>
#include <vector>

#include "precision.hpp"
#include "scalapack_abi.hpp"
#include "scalapack_reference.hpp"

namespace hetscal_test {
namespace {

template <typename T>
using Pxgeqrf = scalapack_overloads::Geqrf<T>;

constexpr double kUnwrittenTau = -99.0;  // TAU entries PxGEQRF leaves alone keep this (|τ| <= 2)
constexpr int kTauGuard = 8;             // entries past LOCc(N_A) that nothing may write

// The rounding allowed per unit of M + N, relative to the entries' magnitude: 100 epsilons of
// the precision (twice that on complex data, where each operation errs up to twice as much).
// hetscal and ScaLAPACK differ by about 0.2 epsilons per unit on random cases up to 100 × 100
// (single and complex single measured), so a correct blocking passes by a wide margin while
// a fault of 1e-4 of an entry shows even in single precision.
template <typename T>
double rounding() {
  return (std::is_floating_point_v<T> ? 1.0 : 2.0) * 100.0 * unit_roundoff<T>();
}

// ScaLAPACK's own PxGEQRF of T's precision: the reference whether or not hetscal is preloaded.
template <typename T>
Pxgeqrf<T> scalapack_pxgeqrf() {
  static const auto routine =
      reinterpret_cast<Pxgeqrf<T>>(scalapack_own_symbol(routine_symbol<T>("geqrf").c_str()));
  return routine;
}

// The routine under test: PxGEQRF as the program links it (hetscal's when preloaded).
template <typename T>
Pxgeqrf<T> linked_pxgeqrf() {
  return scalapack_overloads::geqrf(static_cast<T*>(nullptr));
}

// One call's results on this process: A, TAU (with its guard), WORK(1) and INFO.
template <typename T>
struct CallResult {
  LocalMatrix<T> a;
  std::vector<T> tau;
  T work1 = T(kUnwrittenTau);
  int info = 12345;  // a value no call returns: INFO must be set
};

template <typename T>
CallResult<T> call(Pxgeqrf<T> routine, const GeqrfCase& t, const LocalMatrix<T>& a, int lwork) {
  CallResult<T> r{a, std::vector<T>(static_cast<std::size_t>(a.local_cols() + kTauGuard), T(kUnwrittenTau))};
  std::vector<T> work(static_cast<std::size_t>(std::max(1, lwork)), T(kUnwrittenTau));
  routine(&t.m, &t.n, r.a.data().data(), &t.ia, &t.ja, r.a.desc(), r.tau.data(), work.data(), &lwork,
          &r.info);
  r.work1 = work[0];
  return r;
}

// How far hetscal's element of sub(A) may be from ScaLAPACK's: R scales with the entries'
// column norms (at most sqrt(M), or sqrt(2M) with complex entries, times the scale), the
// reflectors' elements are at most 1 in magnitude.
template <typename T>
double factor_bound(const GeqrfCase& t, int si, int sj, const T& reference) {
  const double parts = std::is_floating_point_v<T> ? 1.0 : 2.0;
  const double magnitude = si <= sj ? t.scale_of<T>() * std::sqrt(parts * t.m) : 1.0;
  return rounding<T>() * (t.m + t.n + 1) * (magnitude + std::abs(reported(reference)));
}

// R's diagonal is xLARFG's beta, a real number: on complex data its imaginary part is zero.
template <typename T>
void check_beta_real(const GeqrfCase& t, const T& value, int li, int lj, int si, int sj,
                     long& complex_beta, std::string& first_problem) {
  if constexpr (!std::is_floating_point_v<T>) {
    if (si == sj && value.imag() != 0) {
      ++complex_beta;
      note_first_problem(first_problem, "R's diagonal not real", li, lj, t.ia - 1 + si,
                         t.ja - 1 + sj, reported(value), reported(T(value.real())), 0.0);
    }
  }
}

template <typename T>
void check_a(const GeqrfCase& t, const LocalMatrix<T>& before, const CallResult<T>& got,
             const CallResult<T>* reference, GeqrfFindings& f) {
  const LocalMatrix<T>& a = got.a;
  UntouchedFindings u;
  u.first_problem = f.first_problem;
  check_untouched(before, a, t.ia, t.ja, t.m, t.n, !reference, u, [&](int li, int lj, int si, int sj) {
    const std::size_t at = a.at(li, lj);
    const T value = a.data()[at], want = reference->a.data()[at];
    const double bound = factor_bound(t, si, sj, want);
    if (!(std::abs(reported(value) - reported(want)) <= bound)) {  // NaN fails too
      ++f.factor_unlike;
      note_first_problem(u.first_problem, "sub(A) unlike ScaLAPACK's", li, lj, t.ia - 1 + si,
                         t.ja - 1 + sj, reported(value), reported(want), bound);
    }
    check_beta_real(t, value, li, lj, si, sj, f.complex_beta, u.first_problem);
  });
  f.changed_padding += u.padding;
  f.changed_outside += u.outside;
  f.changed_left += u.left;
  f.first_problem = u.first_problem;
}

// TAU: every entry written where, and only where, ScaLAPACK writes one, to rounding; nothing
// written by a call that computes nothing, nor past LOCc(N_A).
template <typename T>
void check_tau(const GeqrfCase& t, const CallResult<T>& got, const CallResult<T>* reference,
               GeqrfFindings& f) {
  const std::size_t size = got.tau.size() - kTauGuard;
  const double bound = rounding<T>() * (t.m + t.n + 1) * 2.0;
  const T unwritten(kUnwrittenTau);
  for (std::size_t e = 0; e < got.tau.size(); ++e) {
    const T want = e < size && reference ? reference->tau[e] : unwritten;
    const T value = got.tau[e];
    const int entry = static_cast<int>(e) + 1;
    if ((value == unwritten) != (want == unwritten)) {
      ++(reference ? f.tau_misplaced : f.changed_left);
      note_first_problem(f.first_problem,
                         value == unwritten ? "TAU not written where ScaLAPACK writes it"
                                            : "TAU written where ScaLAPACK leaves it",
                         -1, entry - 1, -1, -1, reported(value), reported(want), 0.0);
    } else if (!(std::abs(reported(value) - reported(want)) <= bound)) {
      ++f.tau_unlike;
      note_first_problem(f.first_problem, "TAU unlike ScaLAPACK's", -1, entry - 1, -1, -1,
                         reported(value), reported(want), bound);
    }
  }
}

// The workspace query (every accepted descriptor): INFO 0 and ScaLAPACK's LWMIN in WORK(1),
// the same number of the precision (complex: the same real part, imaginary part and all).
// @return LWMIN
template <typename T>
int check_query(const GeqrfCase& t, const LocalMatrix<T>& before, GeqrfFindings& f) {
  const CallResult<T> reference = call(scalapack_pxgeqrf<T>(), t, before, -1);
  const CallResult<T> got = call(linked_pxgeqrf<T>(), t, before, -1);
  if (got.info != 0 || !same_bits(got.work1, reference.work1)) {
    ++f.query_unlike;
    char text[200];
    std::snprintf(text, sizeof text,
                  "workspace query: INFO = %d, WORK(1) = (%g,%g), ScaLAPACK's %d, (%g,%g); ",
                  got.info, std::real(got.work1), std::imag(got.work1), reference.info,
                  std::real(reference.work1), std::imag(reference.work1));
    f.first_problem = text + f.first_problem;
  }
  return static_cast<int>(std::real(reference.work1));
}

int lwork_of(const GeqrfCase& t, int lwmin) {
  switch (t.workspace) {
    case Workspace::Minimum: return lwmin;
    case Workspace::Generous: return lwmin + 17;
    case Workspace::TooSmall: return lwmin - 1;
    case Workspace::QueryOnly: return -1;
  }
  return lwmin;
}

}  // namespace

std::string GeqrfFindings::counts(const GeqrfCase& t) const {
  char text[360];
  std::snprintf(text, sizeof text,
                "INFO %d (expected %d), %ld query and %ld WORK(1) unlike ScaLAPACK's, %ld sub(A) "
                "and %ld TAU beyond rounding of ScaLAPACK's, %ld TAU misplaced, %ld R diagonal "
                "not real, %ld outside sub(A), %ld in the padding, %ld changed by a call that "
                "computes nothing",
                info, t.expected_info(), query_unlike, work_unlike, factor_unlike, tau_unlike,
                tau_misplaced, complex_beta, changed_outside, changed_padding, changed_left);
  return text;
}

template <typename T>
GeqrfFindings run_and_check(const GeqrfCase& t, const GridPosition& grid) {
  // Outside sub(A) a NaN sentinel: any use of it spoils the factors, any write is seen.
  const T outside = sentinel_of<T>(outside_sentinel());
  const LocalMatrix<T> before(t.a, grid, [&](int i, int j) {
    const int si = i - (t.ia - 1), sj = j - (t.ja - 1);
    if (si < 0 || si >= t.m || sj < 0 || sj >= t.n) return outside;
    return t.value<T>(i, j);
  });
  GeqrfFindings f;
  const bool accepted_descriptor = t.a.type == DescriptorType::BlockCyclic9;
  const int lwmin = accepted_descriptor ? check_query(t, before, f) : 1;
  const int lwork = lwork_of(t, lwmin);
  const CallResult<T> got = call(linked_pxgeqrf<T>(), t, before, lwork);
  // ScaLAPACK's answer on a copy, for the calls it computes (a refused one would print twice).
  const bool computes = t.expected_info() == 0 && t.workspace != Workspace::QueryOnly;
  const CallResult<T> reference = computes ? call(scalapack_pxgeqrf<T>(), t, before, lwork) : got;
  f.info = got.info;
  const CallResult<T>* compared = computes && !t.leaves_a() ? &reference : nullptr;
  check_a(t, before, got, compared, f);
  check_tau(t, got, compared, f);
  // WORK(1) = LWMIN once CHK1MAT passed: on return, on a query, and on LWORK's refusal.
  const T want_work1 = computes ? reference.work1 : T(static_cast<real_of_t<T>>(lwmin));
  if (accepted_descriptor && !same_bits(got.work1, want_work1)) {
    ++f.work_unlike;
    note_first_problem(f.first_problem, "WORK(1) unlike ScaLAPACK's", -1, -1, -1, -1,
                       reported(got.work1), reported(want_work1), 0.0);
  }
  if (f.info != t.expected_info() || (computes && reference.info != 0)) {
    f.wrong_info = true;
    char text[120];
    std::snprintf(text, sizeof text, "INFO = %d, expected %d (ScaLAPACK's own: %d); ", f.info,
                  t.expected_info(), computes ? reference.info : t.expected_info());
    f.first_problem = text + f.first_problem;
  }
  return f;
}

template GeqrfFindings run_and_check<float>(const GeqrfCase&, const GridPosition&);
template GeqrfFindings run_and_check<double>(const GeqrfCase&, const GridPosition&);
template GeqrfFindings run_and_check<std::complex<float>>(const GeqrfCase&, const GridPosition&);
template GeqrfFindings run_and_check<std::complex<double>>(const GeqrfCase&, const GridPosition&);

}  // namespace hetscal_test

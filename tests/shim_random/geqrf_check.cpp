#include "geqrf_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "scalapack_abi.hpp"
#include "scalapack_reference.hpp"

namespace hetscal_test {
namespace {

using Pdgeqrf = void (*)(const int*, const int*, double*, const int*, const int*, const int*,
                         double*, double*, const int*, int*);

constexpr double kUnwrittenTau = -99.0;  // TAU entries PDGEQRF leaves alone keep this (τ is in [0, 2])
constexpr int kTauGuard = 8;             // entries past LOCc(N_A) that nothing may write
constexpr double kRounding = 1e-12;      // per unit of M + N: far above LAPACK's rounding, far below a fault

// ScaLAPACK's own PDGEQRF: the reference whether or not hetscal is preloaded.
Pdgeqrf scalapack_pdgeqrf() {
  static const auto routine = reinterpret_cast<Pdgeqrf>(scalapack_own_symbol("pdgeqrf_"));
  return routine;
}

// One call's results on this process: A, TAU (with its guard), WORK(1) and INFO.
struct CallResult {
  LocalOperand a;
  std::vector<double> tau;
  double work1 = kUnwrittenTau;
  int info = 12345;  // a value no call returns: INFO must be set
};

CallResult call(Pdgeqrf routine, const GeqrfCase& t, const LocalOperand& a, int lwork) {
  CallResult r{a, std::vector<double>(static_cast<std::size_t>(a.local_cols() + kTauGuard), kUnwrittenTau)};
  std::vector<double> work(static_cast<std::size_t>(std::max(1, lwork)), kUnwrittenTau);
  routine(&t.m, &t.n, r.a.data().data(), &t.ia, &t.ja, r.a.desc(), r.tau.data(), work.data(), &lwork,
          &r.info);
  r.work1 = work[0];
  return r;
}

// How far hetscal's element of sub(A) may be from ScaLAPACK's: R scales with the entries,
// the reflectors' elements are at most 1 in magnitude.
double factor_bound(const GeqrfCase& t, int si, int sj, double reference) {
  const double magnitude = si <= sj ? t.scale * std::sqrt(static_cast<double>(t.m)) : 1.0;
  return kRounding * (t.m + t.n + 1) * (magnitude + std::fabs(reference));
}

void check_a(const GeqrfCase& t, const LocalOperand& before, const CallResult& got,
             const CallResult* reference, GeqrfFindings& f) {
  const LocalOperand& a = got.a;
  UntouchedFindings u;
  u.first_problem = f.first_problem;
  check_untouched(before, a, t.ia, t.ja, t.m, t.n, !reference, u, [&](int li, int lj, int si, int sj) {
    const std::size_t at = a.at(li, lj);
    const double value = a.data()[at], want = reference->a.data()[at];
    const double bound = factor_bound(t, si, sj, want);
    if (!(std::fabs(value - want) <= bound)) {  // NaN fails too
      ++f.factor_unlike;
      note_first_problem(u.first_problem, "sub(A) unlike ScaLAPACK's", li, lj, t.ia - 1 + si,
                         t.ja - 1 + sj, value, want, bound);
    }
  });
  f.changed_padding += u.padding;
  f.changed_outside += u.outside;
  f.changed_left += u.left;
  f.first_problem = u.first_problem;
}

// TAU: every entry written where, and only where, ScaLAPACK writes one, to rounding; nothing
// written by a call that computes nothing, nor past LOCc(N_A).
void check_tau(const GeqrfCase& t, const CallResult& got, const CallResult* reference, GeqrfFindings& f) {
  const std::size_t size = got.tau.size() - kTauGuard;
  const double bound = kRounding * (t.m + t.n + 1) * 2.0;
  for (std::size_t e = 0; e < got.tau.size(); ++e) {
    const double want = e < size && reference ? reference->tau[e] : kUnwrittenTau;
    const double value = got.tau[e];
    const int entry = static_cast<int>(e) + 1;
    if ((value == kUnwrittenTau) != (want == kUnwrittenTau)) {
      ++(reference ? f.tau_misplaced : f.changed_left);
      note_first_problem(f.first_problem,
                         value == kUnwrittenTau ? "TAU not written where ScaLAPACK writes it"
                                                : "TAU written where ScaLAPACK leaves it",
                         -1, entry - 1, -1, -1, value, want, 0.0);
    } else if (!(std::fabs(value - want) <= bound)) {
      ++f.tau_unlike;
      note_first_problem(f.first_problem, "TAU unlike ScaLAPACK's", -1, entry - 1, -1, -1, value, want, bound);
    }
  }
}

// The workspace query (every accepted descriptor): INFO 0 and ScaLAPACK's LWMIN in WORK(1).
// @return LWMIN
int check_query(const GeqrfCase& t, const LocalOperand& before, GeqrfFindings& f) {
  const CallResult reference = call(scalapack_pdgeqrf(), t, before, -1);
  const CallResult got = call(pdgeqrf_, t, before, -1);
  if (got.info != 0 || got.work1 != reference.work1) {
    ++f.query_unlike;
    char text[160];
    std::snprintf(text, sizeof text, "workspace query: INFO = %d, WORK(1) = %g, ScaLAPACK's %d, %g; ",
                  got.info, got.work1, reference.info, reference.work1);
    f.first_problem = text + f.first_problem;
  }
  return static_cast<int>(reference.work1);
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
  char text[320];
  std::snprintf(text, sizeof text,
                "INFO %d (expected %d), %ld query and %ld WORK(1) unlike ScaLAPACK's, %ld sub(A) "
                "and %ld TAU beyond rounding of ScaLAPACK's, %ld TAU misplaced, %ld outside "
                "sub(A), %ld in the padding, %ld changed by a call that computes nothing",
                info, t.expected_info(), query_unlike, work_unlike, factor_unlike, tau_unlike,
                tau_misplaced, changed_outside, changed_padding, changed_left);
  return text;
}

GeqrfFindings run_and_check(const GeqrfCase& t, const GridPosition& grid) {
  // Outside sub(A) a NaN sentinel: any use of it spoils the factors, any write is seen.
  const LocalOperand before(t.a, grid, [&](int i, int j) {
    const int si = i - (t.ia - 1), sj = j - (t.ja - 1);
    if (si < 0 || si >= t.m || sj < 0 || sj >= t.n) return outside_sentinel();
    return t.value(i, j);
  });
  GeqrfFindings f;
  const bool accepted_descriptor = t.a.type == DescriptorType::BlockCyclic9;
  const int lwmin = accepted_descriptor ? check_query(t, before, f) : 1;
  const int lwork = lwork_of(t, lwmin);
  const CallResult got = call(pdgeqrf_, t, before, lwork);
  // ScaLAPACK's answer on a copy, for the calls it computes (a refused one would print twice).
  const bool computes = t.expected_info() == 0 && t.workspace != Workspace::QueryOnly;
  const CallResult reference = computes ? call(scalapack_pdgeqrf(), t, before, lwork) : got;
  f.info = got.info;
  check_a(t, before, got, computes && !t.leaves_a() ? &reference : nullptr, f);
  check_tau(t, got, computes && !t.leaves_a() ? &reference : nullptr, f);
  // WORK(1) = LWMIN once CHK1MAT passed: on return, on a query, and on LWORK's refusal.
  const double want_work1 = computes ? reference.work1 : lwmin;
  if (accepted_descriptor && got.work1 != want_work1) {
    ++f.work_unlike;
    note_first_problem(f.first_problem, "WORK(1) unlike ScaLAPACK's", -1, -1, -1, -1, got.work1, want_work1, 0.0);
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

}  // namespace hetscal_test

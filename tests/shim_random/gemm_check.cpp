#include "gemm_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "scalapack_abi.hpp"

namespace hetscal_test {
namespace {

bool inside(int i, int j, int i0, int j0, int rows, int cols) {
  return i >= i0 && i < i0 + rows && j >= j0 && j < j0 + cols;
}

// The reference value and the allowed distance from it. Each element of sub(C) is a K-term
// dot product plus a scaled C, so any summation order or blocking (alpha applied per block
// included) lands within gamma_{K+3}·(|alpha|·sum|a||b| + |beta|·|c|) of the exact value, and
// so does this loop: (K+2)·eps bounds their distance; twice that is allowed. This element-
// wise bound is tighter than the normwise |alpha|·||A||·||B|| + |beta|·||C||, since
// sum|a_il||b_lj| <= ||A(i,:)||·||B(:,j)||.
struct Expected {
  double value = 0.0, bound = 0.0;
};

Expected expected_element(const GemmCase& t, int i, int j) {
  Expected e;
  double magnitude = 0.0;
  if (t.beta != 0.0) {
    const double c0 = global_value(t.seed, Matrix::C, i, j);
    e.value = t.beta * c0;
    magnitude = std::fabs(e.value);
  }
  const int si = i - (t.ic - 1), sj = j - (t.jc - 1);
  double sum = 0.0, sum_abs = 0.0;
  for (int l = 0; l < t.k; ++l) {
    const double term = t.op_a(si, l) * t.op_b(l, sj);
    sum += term;
    sum_abs += std::fabs(term);
  }
  e.value += t.alpha * sum;
  magnitude += std::fabs(t.alpha) * sum_abs;
  const double eps = std::numeric_limits<double>::epsilon();
  e.bound = 2.0 * (t.k + 2) * eps * magnitude;
  return e;
}

// Counts elements of `now` that differ bit for bit from `before`.
long changed_elements(const std::vector<double>& before, const std::vector<double>& now) {
  long changed = 0;
  for (std::size_t e = 0; e < now.size(); ++e) changed += !same_bits(before[e], now[e]);
  return changed;
}

void check_c(const GemmCase& t, const LocalOperand& c, const std::vector<double>& before,
             CaseFindings& f) {
  for (int lj = 0; lj < std::max(1, c.local_cols()); ++lj) {
    for (int li = 0; li < c.lld(); ++li) {
      const std::size_t at = c.at(li, lj);
      const bool stored = li < c.local_rows() && lj < c.local_cols();
      const int i = stored ? c.global_row(li) : -1, j = stored ? c.global_col(lj) : -1;
      const double got = c.data()[at];
      if (!stored || !inside(i, j, t.ic - 1, t.jc - 1, t.m, t.n)) {
        if (!same_bits(got, before[at])) {
          ++f.changed_outside;
          note_first_problem(f.first_problem, stored ? "C changed outside sub(C)" : "C padding changed",
                             li, lj, i, j, got, before[at], 0.0);
        }
        continue;
      }
      const Expected e = expected_element(t, i, j);
      if (!(std::fabs(got - e.value) <= e.bound)) {  // NaN fails too
        ++f.wrong_in_sub_c;
        note_first_problem(f.first_problem, "wrong sub(C) element", li, lj, i, j, got, e.value,
                           e.bound);
      }
    }
  }
}

}  // namespace

CaseFindings run_and_check(const GemmCase& t, const GridPosition& grid) {
  // Outside sub(A) and sub(B) a NaN sentinel: any use of those elements spoils the result.
  const bool ta = t.trans_a != 'N', tb = t.trans_b != 'N';
  const LocalOperand a(t.a, grid, [&](int i, int j) {
    return inside(i, j, t.ia - 1, t.ja - 1, ta ? t.k : t.m, ta ? t.m : t.k)
               ? global_value(t.seed, Matrix::A, i, j) : outside_sentinel();
  });
  const LocalOperand b(t.b, grid, [&](int i, int j) {
    return inside(i, j, t.ib - 1, t.jb - 1, tb ? t.n : t.k, tb ? t.k : t.n)
               ? global_value(t.seed, Matrix::B, i, j) : outside_sentinel();
  });
  LocalOperand c(t.c, grid, [&](int i, int j) {
    if (t.c_holds_nan() && inside(i, j, t.ic - 1, t.jc - 1, t.m, t.n)) {
      return std::numeric_limits<double>::quiet_NaN();
    }
    return global_value(t.seed, Matrix::C, i, j);
  });
  const std::vector<double> a_before = a.data(), b_before = b.data(), c_before = c.data();

  pdgemm_(&t.trans_a, &t.trans_b, &t.m, &t.n, &t.k, &t.alpha, a.data().data(), &t.ia, &t.ja,
          a.desc(), b.data().data(), &t.ib, &t.jb, b.desc(), &t.beta, c.data().data(), &t.ic,
          &t.jc, c.desc());

  CaseFindings f;
  check_c(t, c, c_before, f);
  f.changed_a = changed_elements(a_before, a.data());
  f.changed_b = changed_elements(b_before, b.data());
  if (f.first_problem.empty() && f.changed_a) f.first_problem = "A was modified";
  if (f.first_problem.empty() && f.changed_b) f.first_problem = "B was modified";
  return f;
}

}  // namespace hetscal_test

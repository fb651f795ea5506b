#include "gemm_check.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "precision.hpp"
#include "scalapack_abi.hpp"

namespace hetscal_test {
namespace {

bool inside(int i, int j, int i0, int j0, int rows, int cols) {
  return i >= i0 && i < i0 + rows && j >= j0 && j < j0 + cols;
}

// Reference arithmetic: double on real data, std::complex<double> on complex data.
template <typename T>
using Wide = std::conditional_t<std::is_floating_point_v<T>, double, std::complex<double>>;

// A complex multiply-add errs up to about twice a real one (its parts are 2-term sums of
// products), and the bound below is on the modulus.
template <typename T>
double operation_factor() {
  return std::is_floating_point_v<T> ? 2.0 : 4.0;
}

// The reference value and the allowed distance from it. Each element of sub(C) is a K-term
// dot product plus a scaled C, so any summation order or blocking (alpha applied per block
// included) lands within gamma_{K+3}·(|alpha|·sum|a||b| + |beta|·|c|) of the exact value, and
// so does the call's: (K+2)·eps of T bounds their distance; twice that is allowed (four
// times on complex data). The reference is computed in double on the operands as T holds
// them, so in single precision it is exact by comparison. This element-
// wise bound is tighter than the normwise |alpha|·||A||·||B|| + |beta|·||C||, since
// sum|a_il||b_lj| <= ||A(i,:)||·||B(:,j)||.
template <typename T>
struct Expected {
  Wide<T> value;
  double bound = 0.0;
};

template <typename T>
Expected<T> expected_element(const GemmCase& t, int i, int j) {
  const Wide<T> alpha(t.alpha_as<T>()), beta(t.beta_as<T>());
  Wide<T> value(0.0);
  double magnitude = 0.0;
  if (t.beta != 0.0) {
    value = beta * Wide<T>(t.element<T>(Matrix::C, i, j));
    magnitude = std::abs(value);
  }
  const int si = i - (t.ic - 1), sj = j - (t.jc - 1);
  Wide<T> sum(0.0);
  double sum_abs = 0.0;
  for (int l = 0; l < t.k; ++l) {
    const Wide<T> term = Wide<T>(t.op_a<T>(si, l)) * Wide<T>(t.op_b<T>(l, sj));
    sum += term;
    sum_abs += std::abs(term);
  }
  value += alpha * sum;
  magnitude += std::abs(alpha) * sum_abs;
  return {value, operation_factor<T>() * (t.k + 2) * unit_roundoff<T>() * magnitude};
}

// Counts elements of `now` that differ bit for bit from `before`.
template <typename T>
long changed_elements(const std::vector<T>& before, const std::vector<T>& now) {
  long changed = 0;
  for (std::size_t e = 0; e < now.size(); ++e) changed += !same_bits(before[e], now[e]);
  return changed;
}

template <typename T>
void check_c(const GemmCase& t, const LocalMatrix<T>& c, const std::vector<T>& before,
             CaseFindings& f) {
  for (int lj = 0; lj < std::max(1, c.local_cols()); ++lj) {
    for (int li = 0; li < c.lld(); ++li) {
      const std::size_t at = c.at(li, lj);
      const bool stored = li < c.local_rows() && lj < c.local_cols();
      const int i = stored ? c.global_row(li) : -1, j = stored ? c.global_col(lj) : -1;
      const T got = c.data()[at];
      if (!stored || !inside(i, j, t.ic - 1, t.jc - 1, t.m, t.n)) {
        if (!same_bits(got, before[at])) {
          ++f.changed_outside;
          note_first_problem(f.first_problem,
                             stored ? "C changed outside sub(C)" : "C padding changed", li, lj, i,
                             j, Wide<T>(got), Wide<T>(before[at]), 0.0);
        }
        continue;
      }
      const Expected<T> e = expected_element<T>(t, i, j);
      if (!(std::abs(Wide<T>(got) - e.value) <= e.bound)) {  // NaN fails too
        ++f.wrong_in_sub_c;
        note_first_problem(f.first_problem, "wrong sub(C) element", li, lj, i, j, Wide<T>(got),
                           e.value, e.bound);
      }
    }
  }
}

template <typename T>
void call_pxgemm(const GemmCase& t, const LocalMatrix<T>& a, const LocalMatrix<T>& b,
                 LocalMatrix<T>& c) {
  const T alpha = t.alpha_as<T>(), beta = t.beta_as<T>();
  const auto call = [&](auto routine) {
    routine(&t.trans_a, &t.trans_b, &t.m, &t.n, &t.k, &alpha, a.data().data(), &t.ia, &t.ja,
            a.desc(), b.data().data(), &t.ib, &t.jb, b.desc(), &beta, c.data().data(), &t.ic, &t.jc,
            c.desc());
  };
  if constexpr (std::is_same_v<T, float>) {
    call(psgemm_);
  } else if constexpr (std::is_same_v<T, double>) {
    call(pdgemm_);
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    call(pcgemm_);
  } else {
    call(pzgemm_);
  }
}

}  // namespace

template <typename T>
CaseFindings run_and_check(const GemmCase& t, const GridPosition& grid) {
  // Outside sub(A) and sub(B) a NaN sentinel: any use of those elements spoils the result.
  const bool ta = t.trans_a != 'N', tb = t.trans_b != 'N';
  const T outside = sentinel_of<T>(outside_sentinel());
  const LocalMatrix<T> a(t.a, grid, [&](int i, int j) {
    return inside(i, j, t.ia - 1, t.ja - 1, ta ? t.k : t.m, ta ? t.m : t.k)
               ? t.element<T>(Matrix::A, i, j)
               : outside;
  });
  const LocalMatrix<T> b(t.b, grid, [&](int i, int j) {
    return inside(i, j, t.ib - 1, t.jb - 1, tb ? t.n : t.k, tb ? t.k : t.n)
               ? t.element<T>(Matrix::B, i, j)
               : outside;
  });
  LocalMatrix<T> c(t.c, grid, [&](int i, int j) {
    if (t.c_holds_nan() && inside(i, j, t.ic - 1, t.jc - 1, t.m, t.n)) {
      return T(std::numeric_limits<double>::quiet_NaN());
    }
    return t.element<T>(Matrix::C, i, j);
  });
  const std::vector<T> a_before = a.data(), b_before = b.data(), c_before = c.data();

  call_pxgemm(t, a, b, c);

  CaseFindings f;
  check_c(t, c, c_before, f);
  f.changed_a = changed_elements(a_before, a.data());
  f.changed_b = changed_elements(b_before, b.data());
  if (f.first_problem.empty() && f.changed_a) f.first_problem = "A was modified";
  if (f.first_problem.empty() && f.changed_b) f.first_problem = "B was modified";
  return f;
}

template CaseFindings run_and_check<float>(const GemmCase&, const GridPosition&);
template CaseFindings run_and_check<double>(const GemmCase&, const GridPosition&);
template CaseFindings run_and_check<std::complex<float>>(const GemmCase&, const GridPosition&);
template CaseFindings run_and_check<std::complex<double>>(const GemmCase&, const GridPosition&);

}  // namespace hetscal_test

#include "potrf_case.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace hetscal_test {

int PotrfCase::argument_info() const {
  if (a.type != DescriptorType::BlockCyclic9) return -601;
  if (uplo != 'U' && uplo != 'u' && uplo != 'L' && uplo != 'l') return -1;
  if ((ia - 1) % a.mb != 0) return -4;
  if ((ja - 1) % a.nb != 0) return -5;
  if (a.mb != a.nb) return -606;
  return 0;
}

int PotrfCase::expected_info() const {
  const int argument = argument_info();
  return argument != 0 ? argument : failing_order;
}

namespace {

char draw_uplo(Random& r) {
  const int kind = r.between(0, 99);
  if (kind < 44) return 'U';
  if (kind < 88) return 'L';
  if (kind < 93) return 'u';
  if (kind < 98) return 'l';
  return 'X';
}

}  // namespace

PotrfCase draw_potrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension) {
  Random r(seed);
  PotrfCase t;
  t.seed = seed;
  t.uplo = draw_uplo(r);
  t.n = draw_dimension(r, max_dimension);
  const FactorizationOperand a = draw_factorization_operand(r, nprow, npcol, t.n, t.n);
  t.a = a.a;
  t.ia = a.ia;
  t.ja = a.ja;
  if (t.n > 0 && r.chance(25)) {
    t.failing_order = r.between(1, t.n);
    t.margin_share = r.between(0, 9) / 10.0;
  }
  return t;
}

std::string PotrfCase::describe() const {
  char text[200];
  std::snprintf(text, sizeof text, "UPLO=%c N=%d IA,JA=%d,%d failing order %d (margin share %.1f);",
                uplo, n, ia, ja, failing_order, margin_share);
  return text + a.describe("A");
}

namespace {

// The diagonal (0-based) of an n × n column-major matrix's Schur complement after the first
// k columns: a(k, k) - x·B⁻¹·x, B the leading k × k block, x row k before the diagonal.
long double eliminated_part(const std::vector<double>& a, int n, int k) {
  std::vector<double> leading(static_cast<std::size_t>(k) * k);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i)
      leading[i + static_cast<std::size_t>(j) * k] = a[i + static_cast<std::size_t>(j) * n];
  }
  const ReferenceCholesky b = reference_cholesky(leading, k);
  if (b.info != 0)
    throw std::logic_error("potrf_case: the leading block must be positive definite");
  // y = L⁻¹·x by forward substitution; x·B⁻¹·x = y·y.
  std::vector<long double> y(static_cast<std::size_t>(k));
  long double sum_squares = 0.0L;
  for (int i = 0; i < k; ++i) {
    long double value = a[k + static_cast<std::size_t>(i) * n];
    for (int l = 0; l < i; ++l) value -= b.lower[i + static_cast<std::size_t>(l) * k] * y[l];
    y[i] = value / b.lower[i + static_cast<std::size_t>(i) * k];
    sum_squares += y[i] * y[i];
  }
  return sum_squares;
}

}  // namespace

std::vector<double> symmetric_matrix(const PotrfCase& t) {
  const int n = t.n;
  const int failing = t.failing_order - 1;  // 0-based; -1 when positive definite
  const double scale = 2.0 * std::sqrt(static_cast<double>(n));
  std::vector<double> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) {
      double value = global_value(t.seed, Matrix::A, i, j);
      if (i == j) value = 2.0 * n + std::fabs(value);
      if (i == failing && j < i) value *= scale;
      a[i + static_cast<std::size_t>(j) * n] = value;
      a[j + static_cast<std::size_t>(i) * n] = value;
    }
  }
  if (failing >= 0) {
    const long double removed = eliminated_part(a, n, failing);
    const long double margin = 0.25L + t.margin_share * removed;
    a[failing + static_cast<std::size_t>(failing) * n] = static_cast<double>(removed - margin);
  }
  return a;
}

ReferenceCholesky reference_cholesky(const std::vector<double>& a, int n) {
  ReferenceCholesky c;
  c.lower.assign(static_cast<std::size_t>(n) * n, 0.0L);
  auto l = [&](int i, int j) -> long double& {
    return c.lower[i + static_cast<std::size_t>(j) * n];
  };
  for (int j = 0; j < n; ++j) {
    long double pivot = a[j + static_cast<std::size_t>(j) * n];
    for (int k = 0; k < j; ++k) pivot -= l(j, k) * l(j, k);
    if (!(pivot > 0.0L)) {
      c.info = j + 1;
      return c;
    }
    l(j, j) = std::sqrt(pivot);
    for (int i = j + 1; i < n; ++i) {
      long double value = a[i + static_cast<std::size_t>(j) * n];
      for (int k = 0; k < j; ++k) value -= l(i, k) * l(j, k);
      l(i, j) = value / l(j, j);
    }
  }
  return c;
}

}  // namespace hetscal_test

#include "potrf_case.hpp"

#include <cmath>
#include <complex>
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

template <typename T>
Precise<T> precise(const T& value) {
  return Precise<T>(value);
}

long double squared_modulus(long double x) { return x * x; }
long double squared_modulus(const std::complex<long double>& x) { return std::norm(x); }

template <typename T>
T conjugate(const T& x) {
  if constexpr (std::is_floating_point_v<T>) {
    return x;
  } else {
    return std::conj(x);
  }
}

long double real_part(long double x) { return x; }
long double real_part(const std::complex<long double>& x) { return x.real(); }

// The diagonal (0-based) of an n × n column-major matrix's Schur complement after the first
// k columns: a(k, k) - x·B⁻¹·xᴴ, B the leading k × k block, x row k before the diagonal.
template <typename T>
long double eliminated_part(const std::vector<T>& a, int n, int k) {
  std::vector<T> leading(static_cast<std::size_t>(k) * k);
  for (int j = 0; j < k; ++j) {
    for (int i = 0; i < k; ++i)
      leading[i + static_cast<std::size_t>(j) * k] = a[i + static_cast<std::size_t>(j) * n];
  }
  const ReferenceCholesky<T> b = reference_cholesky(leading, k);
  if (b.info != 0)
    throw std::logic_error("potrf_case: the leading block must be positive definite");
  // y = L⁻¹·xᴴ by forward substitution; x·B⁻¹·xᴴ = |y|².
  std::vector<Precise<T>> y(static_cast<std::size_t>(k));
  long double sum_squares = 0.0L;
  for (int i = 0; i < k; ++i) {
    Precise<T> value = conjugate(precise(a[k + static_cast<std::size_t>(i) * n]));
    for (int l = 0; l < i; ++l) value -= b.lower[i + static_cast<std::size_t>(l) * k] * y[l];
    y[i] = value / b.lower[i + static_cast<std::size_t>(i) * k];
    sum_squares += squared_modulus(y[i]);
  }
  return sum_squares;
}

// Element (i, j), i > j, of the lower triangle in T: the real precisions' value, plus an
// imaginary part of its own on complex data.
template <typename T>
T off_diagonal(const PotrfCase& t, int i, int j) {
  const double re = global_value(t.seed, Matrix::A, i, j);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(re);
  } else {
    using Real = typename T::value_type;
    return T(static_cast<Real>(re),
             static_cast<Real>(global_value(mix(t.seed, kFactorizationImaginaryStream), Matrix::A, i, j)));
  }
}

}  // namespace

template <typename T>
std::vector<T> hermitian_matrix(const PotrfCase& t) {
  const int n = t.n;
  const int failing = t.failing_order - 1;  // 0-based; -1 when positive definite
  const auto scale = static_cast<decltype(std::abs(T()))>(2.0 * std::sqrt(static_cast<double>(n)));
  std::vector<T> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j) {
    for (int i = j; i < n; ++i) {
      T value = i == j ? T(static_cast<decltype(scale)>(
                             2.0 * n + std::fabs(global_value(t.seed, Matrix::A, i, j))))
                       : off_diagonal<T>(t, i, j);
      if (i == failing && j < i) value *= scale;
      a[i + static_cast<std::size_t>(j) * n] = value;
      a[j + static_cast<std::size_t>(i) * n] = conjugate(value);
    }
  }
  if (failing >= 0) {
    const long double removed = eliminated_part(a, n, failing);
    const long double margin = 0.25L + t.margin_share * removed;
    a[failing + static_cast<std::size_t>(failing) * n] =
        T(static_cast<decltype(scale)>(removed - margin));
  }
  return a;
}

template <typename T>
ReferenceCholesky<T> reference_cholesky(const std::vector<T>& a, int n) {
  ReferenceCholesky<T> c;
  c.lower.assign(static_cast<std::size_t>(n) * n, Precise<T>(0.0L));
  auto l = [&](int i, int j) -> Precise<T>& {
    return c.lower[i + static_cast<std::size_t>(j) * n];
  };
  for (int j = 0; j < n; ++j) {
    long double pivot = real_part(precise(a[j + static_cast<std::size_t>(j) * n]));
    for (int k = 0; k < j; ++k) pivot -= squared_modulus(l(j, k));
    if (!(pivot > 0.0L)) {
      c.info = j + 1;
      return c;
    }
    const long double diagonal = std::sqrt(pivot);
    l(j, j) = Precise<T>(diagonal);
    for (int i = j + 1; i < n; ++i) {
      Precise<T> value = precise(a[i + static_cast<std::size_t>(j) * n]);
      for (int k = 0; k < j; ++k) value -= l(i, k) * conjugate(l(j, k));
      l(i, j) = value / diagonal;
    }
  }
  return c;
}

#define HETSCAL_TEST_INSTANTIATE_POTRF_CASE(T)                   \
  template std::vector<T> hermitian_matrix<T>(const PotrfCase&); \
  template ReferenceCholesky<T> reference_cholesky<T>(const std::vector<T>&, int);
HETSCAL_TEST_INSTANTIATE_POTRF_CASE(float)
HETSCAL_TEST_INSTANTIATE_POTRF_CASE(double)
HETSCAL_TEST_INSTANTIATE_POTRF_CASE(std::complex<float>)
HETSCAL_TEST_INSTANTIATE_POTRF_CASE(std::complex<double>)
#undef HETSCAL_TEST_INSTANTIATE_POTRF_CASE

}  // namespace hetscal_test

#include "getrf_case.hpp"

#include <complex>
#include <cstdio>
#include <type_traits>
#include <utility>

#include "precision.hpp"

namespace hetscal_test {

int GetrfCase::argument_info() const {
  if (a.type != DescriptorType::BlockCyclic9) return -601;
  if ((ia - 1) % a.mb != 0) return -4;
  if ((ja - 1) % a.nb != 0) return -5;
  if (a.mb != a.nb) return -606;
  return 0;
}

int GetrfCase::expected_info() const {
  const int argument = argument_info();
  if (argument != 0) return argument;
  return singularity == Singularity::None || quick_return() ? 0 : singular_column + 1;
}

namespace {

// A singular column now and then (a repeated one needs an earlier column to repeat).
void draw_singularity(Random& r, GetrfCase& t) {
  if (t.steps() == 0 || !r.chance(20)) return;
  t.singular_column = r.between(0, t.steps() - 1);
  if (t.singular_column > 0 && r.chance(50)) {
    t.singularity = Singularity::RepeatedColumn;
    t.repeated_column = r.between(0, t.singular_column - 1);
  } else {
    t.singularity = Singularity::ZeroColumn;
  }
}

}  // namespace

GetrfCase draw_getrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension) {
  Random r(seed);
  GetrfCase t;
  t.seed = seed;
  t.m = draw_dimension(r, max_dimension);
  t.n = r.chance(40) ? t.m : draw_dimension(r, max_dimension);
  const FactorizationOperand a = draw_factorization_operand(r, nprow, npcol, t.m, t.n);
  t.a = a.a;
  t.ia = a.ia;
  t.ja = a.ja;
  draw_singularity(r, t);
  return t;
}

std::string GetrfCase::describe() const {
  static const char* const kinds[] = {"regular", "zero column", "repeated column"};
  char text[200];
  std::snprintf(text, sizeof text, "M,N=%d,%d IA,JA=%d,%d %s %d (of %d);", m, n, ia, ja,
                kinds[static_cast<int>(singularity)], singular_column, repeated_column);
  return text + a.describe("A");
}

namespace {

// L (M×K, unit diagonal) and U (K×N) as the file comment describes, K = min(M, N).
template <typename T>
struct Factors {
  std::vector<T> l, u;
};

// An entry of L below the diagonal: a multiple of 1/4 in [-1/2, 1/2]; complex, both parts
// multiples of 1/4 with |re| + |im| <= 1/2.
template <typename T>
T draw_multiplier(Random& r) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(0.25 * r.between(-2, 2));
  } else {
    const int re = r.between(-2, 2);
    const int room = 2 - (re < 0 ? -re : re);
    return T(static_cast<real_of_t<T>>(0.25 * re), static_cast<real_of_t<T>>(0.25 * r.between(-room, room)));
  }
}

// An entry of U above the diagonal: an integer in [-4, 4]; complex, both parts.
template <typename T>
T draw_upper(Random& r) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(r.between(-4, 4));
  } else {
    const int re = r.between(-4, 4);
    return T(static_cast<real_of_t<T>>(re), static_cast<real_of_t<T>>(r.between(-4, 4)));
  }
}

// A diagonal entry of U: ±1, ±2 or ±4; complex, also ±i times those.
template <typename T>
T draw_pivot(Random& r) {
  const real_of_t<T> size = static_cast<real_of_t<T>>((r.chance(50) ? 1 : -1) * (1 << r.between(0, 2)));
  if constexpr (std::is_floating_point_v<T>) {
    return size;
  } else {
    return r.chance(50) ? T(size, 0) : T(0, size);
  }
}

template <typename T>
Factors<T> draw_factors(const GetrfCase& t, Random& r) {
  const int m = t.m, n = t.n, k = t.steps();
  Factors<T> f;
  f.l.assign(static_cast<std::size_t>(m) * k, T(0));
  f.u.assign(static_cast<std::size_t>(k) * n, T(0));
  for (int c = 0; c < k; ++c) {
    f.l[c + static_cast<std::size_t>(c) * m] = T(1);
    for (int i = c + 1; i < m; ++i) f.l[i + static_cast<std::size_t>(c) * m] = draw_multiplier<T>(r);
  }
  for (int c = 0; c < n; ++c) {
    for (int i = 0; i < k && i <= c; ++i) {
      const T upper = draw_upper<T>(r);  // drawn on the diagonal too: the same real cases as before
      f.u[i + static_cast<std::size_t>(c) * k] = i == c ? draw_pivot<T>(r) : upper;
    }
  }
  return f;
}

// Column j of A made zero, or a copy of column i: U's column j becomes zero, or column i's
// (zero below row i); L's column j below the diagonal is zero, as the factorization leaves
// it when it skips a zero pivot (it neither interchanges nor scales).
template <typename T>
void make_singular(const GetrfCase& t, Factors<T>& f, std::vector<int>& pivots) {
  if (t.singularity == Singularity::None) return;
  const int m = t.m, k = t.steps(), j = t.singular_column;
  for (int i = 0; i < k; ++i) {
    const bool copied = t.singularity == Singularity::RepeatedColumn && i <= t.repeated_column;
    f.u[i + static_cast<std::size_t>(j) * k] =
        copied ? f.u[i + static_cast<std::size_t>(t.repeated_column) * k] : T(0);
  }
  for (int i = j + 1; i < m; ++i) f.l[i + static_cast<std::size_t>(j) * m] = T(0);
  pivots[j] = j;
}

}  // namespace

template <typename T>
KnownLu<T> known_lu(const GetrfCase& t) {
  const int m = t.m, n = t.n, k = t.steps();
  Random r(mix(t.seed, 0x4C55));
  Factors<T> f = draw_factors<T>(t, r);
  KnownLu<T> lu;
  lu.pivots.resize(static_cast<std::size_t>(k));
  for (int s = 0; s < k; ++s) lu.pivots[s] = r.between(s, m - 1);
  make_singular(t, f, lu.pivots);
  lu.a.assign(static_cast<std::size_t>(m) * n, T(0));
  lu.factors.assign(static_cast<std::size_t>(m) * n, T(0));
  for (int c = 0; c < n; ++c) {
    for (int i = 0; i < m; ++i) {
      T sum(0);  // exact: small multiples of 1/4
      for (int s = 0; s < k; ++s)
        sum += f.l[i + static_cast<std::size_t>(s) * m] * f.u[s + static_cast<std::size_t>(c) * k];
      const std::size_t at = i + static_cast<std::size_t>(c) * m;
      lu.a[at] = sum;
      lu.factors[at] = i > c ? f.l[i + static_cast<std::size_t>(c) * m]
                             : f.u[i + static_cast<std::size_t>(c) * k];
    }
  }
  // P·A = L·U with P = P_{K-1}···P_0: A = P_0···P_{K-1}·(L·U), the last interchange first.
  for (int s = k - 1; s >= 0; --s) {
    for (int c = 0; c < n; ++c)
      std::swap(lu.a[s + static_cast<std::size_t>(c) * m],
                lu.a[lu.pivots[s] + static_cast<std::size_t>(c) * m]);
  }
  return lu;
}

template KnownLu<float> known_lu<float>(const GetrfCase&);
template KnownLu<double> known_lu<double>(const GetrfCase&);
template KnownLu<std::complex<float>> known_lu<std::complex<float>>(const GetrfCase&);
template KnownLu<std::complex<double>> known_lu<std::complex<double>>(const GetrfCase&);

}  // namespace hetscal_test

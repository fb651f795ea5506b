#include "geqrf_case.hpp"

#include <cmath>
#include <complex>
#include <cstdio>

namespace hetscal_test {

int GeqrfCase::expected_info() const {
  if (a.type != DescriptorType::BlockCyclic9) return -601;
  return workspace == Workspace::TooSmall ? -9 : 0;
}

template <typename T>
T GeqrfCase::value(int i, int j) const {
  if (j - (ja - 1) == zero_column) return T(0);
  const double factor = scale_of<T>();
  const double re = factor * global_value(seed, Matrix::A, i, j);
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(re);
  } else {
    using Real = typename T::value_type;
    const double im = factor * global_value(mix(seed, kFactorizationImaginaryStream), Matrix::A, i, j);
    return T(static_cast<Real>(re), static_cast<Real>(im));
  }
}

template float GeqrfCase::value<float>(int, int) const;
template double GeqrfCase::value<double>(int, int) const;
template std::complex<float> GeqrfCase::value<std::complex<float>>(int, int) const;
template std::complex<double> GeqrfCase::value<std::complex<double>>(int, int) const;

GeqrfCase draw_geqrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension) {
  Random r(seed);
  GeqrfCase t;
  t.seed = seed;
  t.m = draw_dimension(r, max_dimension);
  t.n = r.chance(30) ? t.m : draw_dimension(r, max_dimension);
  t.a = draw_distribution(r, nprow, npcol, 5);
  // Any offset, inside a block or on its boundary.
  t.ia = r.between(1, 2 * t.a.mb);
  t.ja = r.between(1, 2 * t.a.nb);
  t.a.rows = t.ia - 1 + t.m + r.between(0, 3);
  t.a.cols = t.ja - 1 + t.n + r.between(0, 3);
  if (t.n > 0 && r.chance(15)) t.zero_column = r.between(0, t.n - 1);
  const int scale_kind = r.between(0, 9);
  t.scale = scale_kind == 0 ? Scale::Tiny : scale_kind == 1 ? Scale::Huge : Scale::One;
  const int workspace_kind = r.between(0, 19);
  t.workspace = workspace_kind < 14   ? Workspace::Minimum
                : workspace_kind < 17 ? Workspace::Generous
                : workspace_kind < 19 ? Workspace::TooSmall
                                      : Workspace::QueryOnly;
  return t;
}

GeqrfCase draw_geqrf_case_square_blocks(std::uint64_t seed, int nprow, int npcol, int max_dimension) {
  GeqrfCase t = draw_geqrf_case(seed, nprow, npcol, max_dimension);
  const int padding = t.a.cols - (t.ja - 1 + t.n);
  t.a.nb = t.a.mb;
  t.a.inb = t.a.imb;
  t.ja = t.ia;
  t.a.cols = t.ja - 1 + t.n + padding;
  return t;
}

std::string GeqrfCase::describe() const {
  static const char* const workspaces[] = {"LWMIN", "LWMIN+17", "LWMIN-1", "query only"};
  static const char* const scales[] = {"1", "tiny", "huge"};
  char text[200];
  std::snprintf(text, sizeof text, "M,N=%d,%d IA,JA=%d,%d scale %s zero column %d LWORK %s;", m,
                n, ia, ja, scales[static_cast<int>(scale)], zero_column,
                workspaces[static_cast<int>(workspace)]);
  return text + a.describe("A");
}

}  // namespace hetscal_test

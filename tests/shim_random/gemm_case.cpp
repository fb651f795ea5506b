#include "gemm_case.hpp"

#include <algorithm>
#include <cstdio>

namespace hetscal_test {

namespace {

char draw_trans(Random& r) { return "NTC"[r.between(0, 2)]; }

double draw_alpha(Random& r) {
  const int kind = r.between(0, 99);
  if (kind < 7) return 0.0;
  if (kind < 27) return 1.0;
  if (kind < 37) return -1.0;
  return 2.0 * r.symmetric() + 0.001;  // never exactly 0
}

double draw_beta(Random& r) {
  const int kind = r.between(0, 99);
  if (kind < 25) return 0.0;
  if (kind < 45) return 1.0;
  if (kind < 55) return -1.0;
  return 2.0 * r.symmetric() + 0.001;
}

// A matrix holding a rows × cols submatrix at (i, j) (1-based), with spare rows/columns
// beyond it; either descriptor type, which PBLAS accepts.
MatrixLayout draw_layout(Random& r, int i, int j, int rows, int cols, int nprow, int npcol) {
  MatrixLayout x = draw_distribution(r, nprow, npcol, 50);
  x.rows = i - 1 + rows + r.between(0, 3);
  x.cols = j - 1 + cols + r.between(0, 3);
  return x;
}

int draw_offset(Random& r) { return r.chance(25) ? 1 : r.between(2, 11); }

// Not one of the special values 0, 1, -1 (quick returns, C not read, C not scaled).
bool general(double scalar) { return scalar != 0.0 && scalar != 1.0 && scalar != -1.0; }

}  // namespace

GemmCase draw_gemm_case(std::uint64_t seed, int nprow, int npcol, int max_dimension) {
  Random r(seed);
  GemmCase t;
  t.seed = seed;
  t.trans_a = draw_trans(r);
  t.trans_b = draw_trans(r);
  t.m = draw_dimension(r, max_dimension);
  t.n = draw_dimension(r, max_dimension);
  t.k = draw_dimension(r, max_dimension);
  if (r.chance(15)) {  // shapes that recur, with other layouts: hetscal's cached plans
    const int shapes[][3] = {{8, 6, 10}, {1, 9, 4}, {17, 17, 17}};
    const int* shape = shapes[r.between(0, 2)];
    t.m = std::min(shape[0], max_dimension);
    t.n = std::min(shape[1], max_dimension);
    t.k = std::min(shape[2], max_dimension);
  }
  t.alpha = draw_alpha(r);
  t.beta = draw_beta(r);
  t.ia = draw_offset(r);
  t.ja = draw_offset(r);
  t.ib = draw_offset(r);
  t.jb = draw_offset(r);
  t.ic = draw_offset(r);
  t.jc = draw_offset(r);
  const bool ta = t.trans_a != 'N', tb = t.trans_b != 'N';
  t.a = draw_layout(r, t.ia, t.ja, ta ? t.k : t.m, ta ? t.m : t.k, nprow, npcol);
  t.b = draw_layout(r, t.ib, t.jb, tb ? t.n : t.k, tb ? t.k : t.n, nprow, npcol);
  t.c = draw_layout(r, t.ic, t.jc, t.m, t.n, nprow, npcol);
  // A stream of its own, so that the real precisions' cases are unchanged by it.
  Random imaginary(mix(seed, kImaginaryStream));
  t.alpha_imag = general(t.alpha) ? imaginary.symmetric() : 0.0;
  t.beta_imag = general(t.beta) ? imaginary.symmetric() : 0.0;
  return t;
}

std::string GemmCase::describe() const {
  char text[260];
  std::snprintf(text, sizeof text,
                "%c%c M=%d N=%d K=%d alpha=%.17g%+.17gi beta=%.17g%+.17gi IA,JA=%d,%d IB,JB=%d,%d "
                "IC,JC=%d,%d;",
                trans_a, trans_b, m, n, k, alpha, alpha_imag, beta, beta_imag, ia, ja, ib, jb, ic,
                jc);
  return text + a.describe("A") + ";" + b.describe("B") + ";" + c.describe("C");
}

}  // namespace hetscal_test

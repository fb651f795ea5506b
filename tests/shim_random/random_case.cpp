#include "random_case.hpp"

#include <algorithm>
#include <cstdio>

namespace hetscal_test {

std::uint64_t Random::next() {
  std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

int Random::between(int low, int high) {
  const auto span = static_cast<std::uint64_t>(high - low + 1);
  return low + static_cast<int>(next() % span);
}

double Random::symmetric() {
  // 53 random bits to [0, 1), then to [-1, 1).
  return static_cast<double>(next() >> 11) * 0x1.0p-52 - 1.0;
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
  Random r(a * 0x100000001B3ull ^ b);
  return r.next();
}

double global_value(std::uint64_t seed, Matrix matrix, int i, int j) {
  const std::uint64_t where = (static_cast<std::uint64_t>(matrix) << 60) ^
                              (static_cast<std::uint64_t>(i) << 30) ^ static_cast<std::uint64_t>(j);
  return Random(mix(seed, where)).symmetric();
}

double GemmCase::op_a(int i, int l) const {
  return trans_a == 'N' ? global_value(seed, Matrix::A, ia - 1 + i, ja - 1 + l)
                        : global_value(seed, Matrix::A, ia - 1 + l, ja - 1 + i);
}

double GemmCase::op_b(int l, int j) const {
  return trans_b == 'N' ? global_value(seed, Matrix::B, ib - 1 + l, jb - 1 + j)
                        : global_value(seed, Matrix::B, ib - 1 + j, jb - 1 + l);
}

namespace {

// Dimensions up to max_dimension, with 0 and 1 often enough to matter.
int draw_dimension(Random& r, int max_dimension) {
  const int kind = r.between(0, 99);
  if (kind < 5) return 0;
  if (kind < 13) return 1;
  if (kind < 25) return r.between(2, 5);
  return r.between(2, std::max(2, max_dimension));
}

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
// beyond it, small blocks so that tiny matrices span many blocks and processes.
MatrixLayout draw_layout(Random& r, int i, int j, int rows, int cols, int nprow, int npcol) {
  MatrixLayout x;
  x.type = r.chance(50) ? DescriptorType::BlockCyclic9 : DescriptorType::BlockCyclicInb11;
  x.rows = i - 1 + rows + r.between(0, 3);
  x.cols = j - 1 + cols + r.between(0, 3);
  x.mb = r.between(1, 8);
  x.nb = r.between(1, 8);
  x.imb = x.mb;
  x.inb = x.nb;
  if (x.type == DescriptorType::BlockCyclicInb11) {  // first blocks unlike the others
    x.imb = r.between(1, 9);
    x.inb = r.between(1, 9);
    if (x.imb == x.mb) x.imb = x.mb + 1;
    if (x.inb == x.nb) x.inb = x.nb == 1 ? 2 : x.nb - 1;
  }
  x.rsrc = r.between(0, nprow - 1);
  x.csrc = r.between(0, npcol - 1);
  const int paddings[] = {0, 1, 3, 7};
  x.lld_padding = paddings[r.between(0, 3)];
  return x;
}

int draw_offset(Random& r) { return r.chance(25) ? 1 : r.between(2, 11); }

}  // namespace

GemmCase draw_case(std::uint64_t seed, int nprow, int npcol, int max_dimension) {
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
  return t;
}

namespace {

std::string describe_layout(const char* name, const MatrixLayout& x) {
  char text[160];
  std::snprintf(text, sizeof text, " %s %dx%d %s imb/inb=%d/%d mb/nb=%d/%d src=%d,%d lld+%d", name,
                x.rows, x.cols, x.type == DescriptorType::BlockCyclic9 ? "dtype1" : "dtype2(11)",
                x.imb, x.inb, x.mb, x.nb, x.rsrc, x.csrc, x.lld_padding);
  return text;
}

}  // namespace

std::string GemmCase::describe() const {
  char text[200];
  std::snprintf(text, sizeof text,
                "%c%c M=%d N=%d K=%d alpha=%.17g beta=%.17g IA,JA=%d,%d IB,JB=%d,%d IC,JC=%d,%d;",
                trans_a, trans_b, m, n, k, alpha, beta, ia, ja, ib, jb, ic, jc);
  return text + describe_layout("A", a) + ";" + describe_layout("B", b) + ";" +
         describe_layout("C", c);
}

}  // namespace hetscal_test

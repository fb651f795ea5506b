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

int draw_dimension(Random& r, int max_dimension) {
  const int kind = r.between(0, 99);
  if (kind < 5) return 0;
  if (kind < 13) return 1;
  if (kind < 25) return r.between(2, 5);
  return r.between(2, std::max(2, max_dimension));
}

MatrixLayout draw_distribution(Random& r, int nprow, int npcol, int inb_type_percent) {
  MatrixLayout x;
  x.type = r.chance(inb_type_percent) ? DescriptorType::BlockCyclicInb11
                                       : DescriptorType::BlockCyclic9;
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

namespace {

// A 1-based IA or JA on a block boundary (block 0, 1 or 2), now and then (5%) moved off it:
// the offsets ScaLAPACK's factorizations accept, and some they refuse (-4 / -5).
int draw_block_offset(Random& r, int block) {
  int offset = 1 + block * r.between(0, 2);
  if (block > 1 && r.chance(5)) offset += r.between(1, block - 1);
  return offset;
}

}  // namespace

FactorizationOperand draw_factorization_operand(Random& r, int nprow, int npcol, int rows, int cols) {
  FactorizationOperand x;
  x.a = draw_distribution(r, nprow, npcol, 5);
  if (x.a.type == DescriptorType::BlockCyclic9 && !r.chance(5)) {  // else refused: MB != NB
    x.a.nb = x.a.mb;
    x.a.inb = x.a.nb;
  }
  x.ia = draw_block_offset(r, x.a.mb);
  x.ja = draw_block_offset(r, x.a.nb);
  x.a.rows = x.ia - 1 + rows + r.between(0, 3);
  x.a.cols = x.ja - 1 + cols + r.between(0, 3);
  return x;
}

std::string MatrixLayout::describe(const char* name) const {
  char text[160];
  std::snprintf(text, sizeof text, " %s %dx%d %s imb/inb=%d/%d mb/nb=%d/%d src=%d,%d lld+%d",
                name, rows, cols, type == DescriptorType::BlockCyclic9 ? "dtype1" : "dtype2(11)",
                imb, inb, mb, nb, rsrc, csrc, lld_padding);
  return text;
}

}  // namespace hetscal_test

#include "local_operand.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace hetscal_test {

std::vector<int> CyclicAxis::owned_by(int proc) const {
  std::vector<int> owned;
  int start = 0, owner = source, length = first_block;
  while (start < extent) {
    if (owner == proc) {
      for (int g = start; g < std::min(start + length, extent); ++g) owned.push_back(g);
    }
    start += length;
    owner = (owner + 1) % nprocs;
    length = block;
  }
  return owned;
}

double padding_sentinel() {
  const std::uint64_t bits = 0x7FF8DEAD0000BEEFull;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

double outside_sentinel() {
  const std::uint64_t bits = 0x7FF8BAD00000F00Dull;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

void note_first_problem(std::string& first, const char* what, int li, int lj, int i, int j,
                        double got, double want, double bound) {
  if (!first.empty()) return;
  char text[240];
  std::snprintf(text, sizeof text,
                "%s: local (%d,%d) global (%d,%d) 1-based: got %.17g, expected %.17g (bound %.3g)",
                what, li + 1, lj + 1, i + 1, j + 1, got, want, bound);
  first = text;
}

void note_first_problem(std::string& first, const char* what, int li, int lj, int i, int j,
                        std::complex<double> got, std::complex<double> want, double bound) {
  if (!first.empty()) return;
  char text[300];
  std::snprintf(text, sizeof text,
                "%s: local (%d,%d) global (%d,%d) 1-based: got (%.17g,%.17g), expected "
                "(%.17g,%.17g) (bound %.3g)",
                what, li + 1, lj + 1, i + 1, j + 1, got.real(), got.imag(), want.real(),
                want.imag(), bound);
  first = text;
}

std::vector<int> descriptor(const MatrixLayout& x, int context, int lld) {
  if (x.type == DescriptorType::BlockCyclic9)
    return {1, context, x.rows, x.cols, x.mb, x.nb, x.rsrc, x.csrc, lld};
  return {2, context, x.rows, x.cols, x.imb, x.inb, x.mb, x.nb, x.rsrc, x.csrc, lld};
}

}  // namespace hetscal_test

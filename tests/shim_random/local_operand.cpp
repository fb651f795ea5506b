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

void check_untouched(const LocalOperand& before, const LocalOperand& after, int ia, int ja,
                     int m, int n, bool left_as_is, UntouchedFindings& f,
                     const std::function<void(int li, int lj, int si, int sj)>& inside) {
  for (int lj = 0; lj < std::max(1, after.local_cols()); ++lj) {
    for (int li = 0; li < after.lld(); ++li) {
      const std::size_t at = after.at(li, lj);
      const double value = after.data()[at], old = before.data()[at];
      if (li >= after.local_rows() || lj >= after.local_cols()) {
        if (!same_bits(value, old)) {
          ++f.padding;
          note_first_problem(f.first_problem, "A padding changed", li, lj, -1, -1, value, old, 0.0);
        }
        continue;
      }
      const int i = after.global_row(li), j = after.global_col(lj);
      const int si = i - (ia - 1), sj = j - (ja - 1);
      const bool in_sub = si >= 0 && si < m && sj >= 0 && sj < n;
      if (in_sub && !left_as_is) {
        inside(li, lj, si, sj);
      } else if (!same_bits(value, old)) {
        ++(in_sub ? f.left : f.outside);
        note_first_problem(f.first_problem,
                           in_sub ? "sub(A) changed by a call that must leave it"
                                  : "A changed outside sub(A)",
                           li, lj, i, j, value, old, 0.0);
      }
    }
  }
}

}  // namespace hetscal_test

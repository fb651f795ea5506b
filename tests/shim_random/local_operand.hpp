#pragma once
/// @file local_operand.hpp
/// One process's part of a block-cyclic matrix, built from first principles (which global
/// rows and columns land on a process is counted block by block, not taken from ScaLAPACK's
/// NUMROC/INDXL2G), with its descriptor in either PBLAS type and NaN sentinels in the padding
/// below LLD.
#include <algorithm>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "random_case.hpp"

namespace hetscal_test {

/// Where this process sits on a BLACS grid.
struct GridPosition {
  int context = -1;
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0;
};

/// One axis of a block-cyclic layout: a first block, then blocks of `block`, dealt from
/// process `source` onwards.
struct CyclicAxis {
  int extent = 0, first_block = 1, block = 1, source = 0, nprocs = 1;

  /// @return the global indices (0-based) process `proc` holds, in local order.
  std::vector<int> owned_by(int proc) const;
};

/// The padding sentinel: a quiet NaN with a payload of its own (compared bit for bit).
double padding_sentinel();

/// The sentinel outside sub(A) and sub(B): another quiet NaN payload.
double outside_sentinel();

/// A sentinel in scalar type T (float, double, std::complex<R>: both parts): quiet NaNs
/// whose payloads tell padding_sentinel's from outside_sentinel's in every precision.
template <typename T>
T sentinel_of(double sentinel) {
  if constexpr (std::is_same_v<T, double>) {
    return sentinel;
  } else if constexpr (std::is_same_v<T, float>) {
    // The payload's high bits survive the narrowing: distinct sentinels stay distinct.
    std::uint64_t bits;
    std::memcpy(&bits, &sentinel, sizeof bits);
    const std::uint32_t narrow = 0x7FC00000u | static_cast<std::uint32_t>((bits >> 29) & 0x3FFFFFu);
    float value;
    std::memcpy(&value, &narrow, sizeof value);
    return value;
  } else {
    using Real = typename T::value_type;
    return T(sentinel_of<Real>(sentinel), sentinel_of<Real>(sentinel));
  }
}

/// @return true when a and b hold the same bits.
template <typename T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

/// Keeps the first offending element of a case as one line for its failure report: what,
/// where (local and global, printed 1-based), the value found, the one expected and the bound.
/// @param first the line so far; left as it is when not empty
void note_first_problem(std::string& first, const char* what, int li, int lj, int i, int j,
                        double got, double want, double bound);
/// The same for complex values (printed as (re,im)).
void note_first_problem(std::string& first, const char* what, int li, int lj, int i, int j,
                        std::complex<double> got, std::complex<double> want, double bound);

/// The descriptor of `layout` (its type: 9 or 11 entries) on BLACS context `context`.
std::vector<int> descriptor(const MatrixLayout& layout, int context, int lld);

/// Counts of elements a call changed where it must not (and the first one, for the report).
struct UntouchedFindings {
  long padding = 0;  ///< the padding below LLD
  long outside = 0;  ///< A outside sub(A)
  long left = 0;     ///< sub(A) of a call that must leave it (refused, quick return, query)
  std::string first_problem;
};

/// One process's part of a global matrix of scalar type T, padding sentinels below LLD.
template <typename T>
class LocalMatrix {
 public:
  /// @param value global element (i, j), 0-based
  LocalMatrix(const MatrixLayout& layout, const GridPosition& grid,
              const std::function<T(int, int)>& value) {
    global_rows_ = CyclicAxis{layout.rows, layout.imb, layout.mb, layout.rsrc, grid.nprow}.owned_by(
        grid.myrow);
    global_cols_ = CyclicAxis{layout.cols, layout.inb, layout.nb, layout.csrc, grid.npcol}.owned_by(
        grid.mycol);
    lld_ = std::max(1, local_rows()) + layout.lld_padding;
    desc_ = descriptor(layout, grid.context, lld_);
    data_.assign(at(0, std::max(1, local_cols())), sentinel_of<T>(padding_sentinel()));
    for (int lj = 0; lj < local_cols(); ++lj) {
      for (int li = 0; li < local_rows(); ++li)
        data_[at(li, lj)] = value(global_rows_[li], global_cols_[lj]);
    }
  }

  const int* desc() const { return desc_.data(); }
  int local_rows() const { return static_cast<int>(global_rows_.size()); }
  int local_cols() const { return static_cast<int>(global_cols_.size()); }
  int lld() const { return lld_; }
  int global_row(int local) const { return global_rows_[local]; }
  int global_col(int local) const { return global_cols_[local]; }
  /// Position of local element (li, lj); li may reach into the padding (li < lld).
  std::size_t at(int li, int lj) const {
    return static_cast<std::size_t>(li) + static_cast<std::size_t>(lj) * lld_;
  }
  std::vector<T>& data() { return data_; }
  const std::vector<T>& data() const { return data_; }

 private:
  std::vector<int> desc_;
  std::vector<int> global_rows_, global_cols_;
  int lld_ = 1;
  std::vector<T> data_;
};

/// A value in the reports' type: double on real data, std::complex<double> on complex data.
template <typename T>
auto reported(const T& value) {
  if constexpr (std::is_floating_point_v<T>) {
    return static_cast<double>(value);
  } else {
    return std::complex<double>(value);
  }
}

/// Compares `after` with `before` element by element, padding included: the padding and
/// everything outside sub(A) = A(IA:IA+M-1, JA:JA+N-1) must keep their bits, and so must
/// sub(A) when `left_as_is`; any other element of sub(A) is handed to `inside` with its local
/// (li, lj) and 0-based (si, sj) inside sub(A).
template <typename T>
void check_untouched(const LocalMatrix<T>& before, const LocalMatrix<T>& after, int ia, int ja,
                     int m, int n, bool left_as_is, UntouchedFindings& f,
                     const std::function<void(int li, int lj, int si, int sj)>& inside) {
  for (int lj = 0; lj < std::max(1, after.local_cols()); ++lj) {
    for (int li = 0; li < after.lld(); ++li) {
      const std::size_t at = after.at(li, lj);
      const T value = after.data()[at], old = before.data()[at];
      if (li >= after.local_rows() || lj >= after.local_cols()) {
        if (!same_bits(value, old)) {
          ++f.padding;
          note_first_problem(f.first_problem, "A padding changed", li, lj, -1, -1, reported(value),
                             reported(old), 0.0);
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
                           li, lj, i, j, reported(value), reported(old), 0.0);
      }
    }
  }
}

}  // namespace hetscal_test

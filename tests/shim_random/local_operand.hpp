#pragma once
/// @file local_operand.hpp
/// One process's part of a block-cyclic matrix, built from first principles (which global
/// rows and columns land on a process is counted block by block, not taken from ScaLAPACK's
/// NUMROC/INDXL2G), with its descriptor in either PBLAS type and NaN sentinels in the padding
/// below LLD.
#include <cstddef>
#include <functional>
#include <string>
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

/// @return true when a and b hold the same bits.
bool same_bits(double a, double b);

/// Keeps the first offending element of a case as one line for its failure report: what,
/// where (local and global, printed 1-based), the value found, the one expected and the bound.
/// @param first the line so far; left as it is when not empty
void note_first_problem(std::string& first, const char* what, int li, int lj, int i, int j,
                        double got, double want, double bound);

class LocalOperand;

/// Counts of elements a call changed where it must not (and the first one, for the report).
struct UntouchedFindings {
  long padding = 0;  ///< the padding below LLD
  long outside = 0;  ///< A outside sub(A)
  long left = 0;     ///< sub(A) of a call that must leave it (refused, quick return, query)
  std::string first_problem;
};

/// Compares `after` with `before` element by element, padding included: the padding and
/// everything outside sub(A) = A(IA:IA+M-1, JA:JA+N-1) must keep their bits, and so must
/// sub(A) when `left_as_is`; any other element of sub(A) is handed to `inside` with its local
/// (li, lj) and 0-based (si, sj) inside sub(A).
void check_untouched(const LocalOperand& before, const LocalOperand& after, int ia, int ja,
                     int m, int n, bool left_as_is, UntouchedFindings& f,
                     const std::function<void(int li, int lj, int si, int sj)>& inside);

class LocalOperand {
 public:
  /// @param value global element (i, j), 0-based
  LocalOperand(const MatrixLayout& layout, const GridPosition& grid,
               const std::function<double(int, int)>& value);

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
  std::vector<double>& data() { return data_; }
  const std::vector<double>& data() const { return data_; }

 private:
  std::vector<int> desc_;
  std::vector<int> global_rows_, global_cols_;
  int lld_ = 1;
  std::vector<double> data_;
};

}  // namespace hetscal_test

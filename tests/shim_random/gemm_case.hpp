#pragma once
/// @file gemm_case.hpp
/// Random PDGEMM cases drawn from a seed, identically on every rank (no communication).
#include <cstdint>
#include <string>

#include "random_case.hpp"

namespace hetscal_test {

/// One call: sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C).
struct GemmCase {
  std::uint64_t seed = 0;  ///< operands are formulas of this seed
  char trans_a = 'N', trans_b = 'N';
  int m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  int ia = 1, ja = 1, ib = 1, jb = 1, ic = 1, jc = 1;  ///< 1-based, as PDGEMM takes them
  MatrixLayout a, b, c;

  /// beta = 0 never reads C: sub(C) then holds NaN.
  bool c_holds_nan() const { return beta == 0.0; }
  /// A call hetscal may compute rather than forward or return from at once.
  bool computable() const { return m > 0 && n > 0 && k > 0 && alpha != 0.0; }
  /// Element (i, j) of op(sub(A)) (0-based inside the submatrix).
  double op_a(int i, int l) const;
  /// Element (l, j) of op(sub(B)).
  double op_b(int l, int j) const;
  /// One line describing the case (for failure reports).
  std::string describe() const;
};

/// Draws a case for a grid of nprow × npcol processes, M, N, K at most max_dimension.
GemmCase draw_gemm_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);

}  // namespace hetscal_test

#pragma once
/// @file potrf_case.hpp
/// Random PxPOTRF cases (any precision) drawn from a seed, identically on every rank (no
/// communication): both UPLO, sizes 0..D, IA/JA on block boundaries (the only offsets ScaLAPACK
/// accepts), RSRC/CSRC != 0, padded LLD, and now and then an argument ScaLAPACK refuses; matrices
/// that are positive definite or not at an order chosen by the case.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "random_case.hpp"

namespace hetscal_test {

/// One call: PDPOTRF(UPLO, N, A, IA, JA, DESCA, INFO).
struct PotrfCase {
  std::uint64_t seed = 0;  ///< sub(A)'s elements are formulas of this seed
  char uplo = 'L';         ///< 'U', 'L', lower case too, or a character ScaLAPACK refuses
  int n = 0;
  int ia = 1, ja = 1;  ///< 1-based
  MatrixLayout a;
  /// The order of the first leading minor that is not positive definite (1-based); 0 when
  /// sub(A) is positive definite.
  int failing_order = 0;
  /// How far below zero the failing pivot lies, as a share of the part the update removes
  /// (0: the diagonal element itself is already negative).
  double margin_share = 0.0;

  bool upper() const { return uplo == 'U' || uplo == 'u'; }
  /// @return ScaLAPACK's INFO for the arguments (CHK1MAT, then PDPOTRF's own checks in its
  /// order): -601 for a descriptor type other than 1, -1 for UPLO, -4 / -5 for IA / JA off
  /// a block boundary, -606 for MB != NB; 0 when the arguments are accepted.
  int argument_info() const;
  /// @return the INFO PDPOTRF must return: argument_info(), else failing_order.
  int expected_info() const;
  /// A call hetscal may compute rather than refuse, return from at once, or forward because
  /// no grid of its processes fits sub(A) (hetscal gives each process at least one row and
  /// column of tiles: N >= the process count always fits, as a 1 x P grid).
  bool computable(int processes) const {
    return argument_info() == 0 && n >= std::max(1, processes);
  }
  /// Whether sub(A)'s element (i, j) (0-based inside sub(A)) is in the UPLO triangle.
  bool in_referenced_triangle(int i, int j) const { return upper() ? i <= j : i >= j; }
  /// One line describing the case (for failure reports).
  std::string describe() const;
};

/// Draws a case for a grid of nprow × npcol processes, N at most max_dimension.
PotrfCase draw_potrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);

/// sub(A) as the case defines it in scalar type T, both triangles (PxPOTRF sees UPLO's
/// only): n × n, column-major, Hermitian (symmetric on real data). Off the diagonal, values
/// in [-1, 1) (complex: each part, the imaginary one from a stream of its own); on it, 2n to
/// 2n + 1, real, so every leading block is diagonally dominant with eigenvalues in
/// (n + 1, 3n + 1) (complex: (1, 4n + 1), still far from 0). For a failing order k, row/column k
/// (before the diagonal) is scaled up by 2·sqrt(n) and its diagonal set to
/// s - (0.25 + margin_share·s), s the part the elimination of the first k - 1 columns removes:
/// the k-th pivot is -(0.25 + margin_share·s), far from any rounding, after k - 1 good ones.
template <typename T>
std::vector<T> hermitian_matrix(const PotrfCase& t);

/// Plain-loop arithmetic of the reference: long double, or std::complex<long double>.
template <typename T>
using Precise =
    std::conditional_t<std::is_floating_point_v<T>, long double, std::complex<long double>>;

/// A Cholesky factorization computed by plain loops in long double (no BLAS, no LAPACK).
template <typename T>
struct ReferenceCholesky {
  int info = 0;                   ///< the first order whose pivot is <= 0 (1-based); 0 if none
  std::vector<Precise<T>> lower;  ///< L, n × n column-major (columns before `info` only)
};

/// @param a n × n column-major, the lower triangle is read (the diagonal's real part only)
template <typename T>
ReferenceCholesky<T> reference_cholesky(const std::vector<T>& a, int n);

}  // namespace hetscal_test

#pragma once
/// @file getrf_case.hpp
/// Random PxGETRF cases (any precision) drawn from a seed, identically on every rank (no communication):
/// square, tall and wide sub(A) of 0..D rows and columns, IA/JA on block boundaries (the
/// only offsets ScaLAPACK accepts), RSRC/CSRC != 0, padded LLD, now and then an argument
/// ScaLAPACK refuses, and exactly singular matrices (a zero column, a repeated column).
///
/// sub(A) is built from its factors: A = P·L·U with L unit lower triangular whose entries
/// below the diagonal are multiples of 1/4 in [-1/2, 1/2], U with integer entries in [-4, 4]
/// and powers of two (±1, ±2, ±4) on its diagonal, and P a random sequence of interchanges.
/// Every value an LU factorization forms from such an A is a small multiple of 1/4 (the
/// scaling by 1/U(k,k) included), so any correct algorithm, in any blocking and summation
/// order, computes these L, U and interchanges exactly: at step k the pivot row's value
/// U(k,k) is at least twice any other candidate's, with no rounding to blur it. The case
/// knows its factors, its pivots and its INFO without running any LU. All these values are
/// exact in single precision too (a few bits of mantissa each).
///
/// Complex cases (PCGETRF, PZGETRF) use Gaussian integers the same way: L's entries below the
/// diagonal have real and imaginary parts that are multiples of 1/4 with |re| + |im| <= 1/2,
/// U's off-diagonal parts are integers in [-4, 4], and U's diagonal is ±1 or ±i times 1, 2 or
/// 4, whose reciprocal (±1 or ∓i over a power of two) and every quotient by it are exact.
/// BLAS's IZAMAX/ICAMAX choose the pivot by |re| + |im| (DCABS1), and |l·u|₁ <= |l|₁·|u|₁
/// <= |u|₁ / 2: the pivot row's candidate is again at least twice any other's, and so it is
/// by the modulus (|l·u| <= |l|₁·|u| <= |u| / 2), so IPIV is exact whichever measure an
/// implementation uses.
#include <cstdint>
#include <string>
#include <vector>

#include "random_case.hpp"

namespace hetscal_test {

/// How sub(A) is made exactly singular.
enum class Singularity {
  None,
  ZeroColumn,      ///< column j is zero: U(j,j) = 0, INFO = j + 1
  RepeatedColumn,  ///< column j repeats column i < j: U(j,j) = 0, INFO = j + 1
};

/// One call: PxGETRF(M, N, A, IA, JA, DESCA, IPIV, INFO).
struct GetrfCase {
  std::uint64_t seed = 0;  ///< the factors are drawn from this seed
  int m = 0, n = 0;
  int ia = 1, ja = 1;  ///< 1-based
  MatrixLayout a;
  Singularity singularity = Singularity::None;
  int singular_column = -1;  ///< j (0-based, < min(M, N)) when singular
  int repeated_column = -1;  ///< i < j, for RepeatedColumn

  int steps() const { return m < n ? m : n; }
  /// @return ScaLAPACK's INFO for the arguments (CHK1MAT, then PDGETRF's own checks in its
  /// order): -601 for a descriptor type other than 1, -4 / -5 for IA / JA off a block
  /// boundary, -606 for MB != NB; 0 when the arguments are accepted.
  int argument_info() const;
  /// @return the INFO PDGETRF must return: argument_info(), else singular_column + 1, else 0.
  int expected_info() const;
  /// PDGETRF returns at once: M_A = 1 (IPIV(1) = 1 on every process) or M or N = 0.
  bool quick_return() const { return a.rows == 1 || m == 0 || n == 0; }
  /// A call hetscal may compute rather than refuse, return from at once, or forward because
  /// no layout of its processes fits sub(A) (every process gets a tile row and column on a
  /// 1 x P or P x 1 grid when min(M, N) >= P).
  bool computable(int processes) const {
    return argument_info() == 0 && !quick_return() && steps() >= processes;
  }
  /// One line describing the case (for failure reports).
  std::string describe() const;
};

/// Draws a case for a grid of nprow × npcol processes, M and N at most max_dimension.
GetrfCase draw_getrf_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);

/// sub(A) and what PxGETRF must leave in scalar type T, all M×N column-major (0-based
/// inside sub(A)).
template <typename T>
struct KnownLu {
  std::vector<T> a;         ///< sub(A) = P·L·U
  std::vector<T> factors;   ///< L strictly below the diagonal, U on and above it
  std::vector<int> pivots;  ///< min(M, N): row k was interchanged with row pivots[k] >= k
};

/// Builds the case's matrix from its factors in scalar type T (float, double,
/// std::complex<float> or std::complex<double>; see the file comment).
template <typename T>
KnownLu<T> known_lu(const GetrfCase& t);

}  // namespace hetscal_test

#pragma once
/// @file random_case.hpp
/// Random PDGEMM cases drawn from a seed, identically on every rank (no communication), and
/// the global operands as formulas of (seed, matrix, i, j), so every rank knows every element.
#include <cstdint>
#include <string>

namespace hetscal_test {

/// SplitMix64: a tiny generator whose stream is the same on every platform.
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next();
  /// @return an integer uniform in [low, high].
  int between(int low, int high);
  /// @return a double uniform in [-1, 1).
  double symmetric();
  /// @return true with probability percent / 100.
  bool chance(int percent) { return between(0, 99) < percent; }

 private:
  std::uint64_t state_;
};

/// One mixing step of SplitMix64: combines seeds and indices into a new seed.
std::uint64_t mix(std::uint64_t a, std::uint64_t b);

enum class DescriptorType { BlockCyclic9 = 1, BlockCyclicInb11 = 2 };
enum class Matrix { A = 0, B = 1, C = 2 };

/// The layout of one global matrix on a BLACS grid.
struct MatrixLayout {
  DescriptorType type = DescriptorType::BlockCyclic9;
  int rows = 0, cols = 0;          ///< global M_, N_
  int imb = 1, inb = 1;            ///< first block (equal to mb/nb for the 9-entry type)
  int mb = 1, nb = 1;
  int rsrc = 0, csrc = 0;
  int lld_padding = 0;             ///< LLD = max(1, LOCr) + lld_padding
};

/// One call: sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C).
struct GemmCase {
  std::uint64_t seed = 0;          ///< operands are formulas of this seed
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

/// Global element (i, j) (0-based) of a matrix of the case: uniform in [-1, 1).
double global_value(std::uint64_t seed, Matrix matrix, int i, int j);

/// Draws a case for a grid of nprow × npcol processes, M, N, K at most max_dimension.
GemmCase draw_case(std::uint64_t seed, int nprow, int npcol, int max_dimension);

}  // namespace hetscal_test

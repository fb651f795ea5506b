#pragma once
/// @file random_case.hpp
/// What every random case program shares: a generator whose stream is the same on every
/// rank (cases are drawn without communication), global operands as formulas of (seed,
/// matrix, i, j) so every rank knows every element, and random block-cyclic layouts.
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

  /// One line for failure reports, prefixed by the matrix's name.
  std::string describe(const char* name) const;
};

/// Global element (i, j) (0-based) of a matrix of the case: uniform in [-1, 1).
double global_value(std::uint64_t seed, Matrix matrix, int i, int j);

/// Mixed into a factorization case's seed for the imaginary parts of its complex elements.
constexpr std::uint64_t kFactorizationImaginaryStream = 0x1A7;

/// @return a dimension up to max_dimension, with 0 and 1 often enough to matter.
int draw_dimension(Random& r, int max_dimension);

/// Draws block sizes (small, so that tiny matrices span many blocks and processes), source
/// process and LLD padding for a grid of nprow × npcol; the extents (rows, cols) are left 0.
/// @param inb_type_percent how often the 11-entry type (first blocks unlike the others) is drawn
MatrixLayout draw_distribution(Random& r, int nprow, int npcol, int inb_type_percent);

/// A factorization's matrix argument (PDPOTRF, PDGETRF): A's layout and where sub(A) starts.
struct FactorizationOperand {
  MatrixLayout a;
  int ia = 1, ja = 1;  ///< 1-based
};

/// Draws a factorization's A holding a rows × cols sub(A): mostly a 9-entry descriptor with
/// MB = NB and IA/JA on block boundaries (what ScaLAPACK's factorizations accept), now and
/// then the 11-entry type, MB != NB or an offset off a boundary (refused: -601, -606, -4,
/// -5); A up to 3 rows and columns larger than needed.
FactorizationOperand draw_factorization_operand(Random& r, int nprow, int npcol, int rows, int cols);

}  // namespace hetscal_test

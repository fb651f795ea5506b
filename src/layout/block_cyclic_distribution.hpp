#pragma once
/// @file block_cyclic_distribution.hpp
/// A caller's ScaLAPACK submatrix sub(A) = A(IA:IA+M-1, JA:JA+N-1) as a Distribution: its
/// tiles are the pieces of A's blocks that fall inside sub(A) (the first tile row/column is
/// shorter when IA/JA are off block boundaries, or has IMB/INB rows/columns), dealt as
/// ScaLAPACK deals them. It is the Cartesian special case row_map = (p0, p0+1, ...) mod p,
/// where p0 is the process row holding row IA.
#include <cstdint>

#include "layout/block_cyclic.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/descriptor.hpp"

namespace hetscal::layout {

/// 0-based position and size of a submatrix inside its descriptor's matrix.
struct SubmatrixExtent {
  std::int64_t row = 0;   ///< IA - 1
  std::int64_t col = 0;   ///< JA - 1
  std::int64_t rows = 0;  ///< M
  std::int64_t cols = 0;  ///< N
};

class BlockCyclicDistribution : public CartesianDistribution {
 public:
  /// @param desc the caller's descriptor (already validated with check_matrix_*).
  /// @param sub the submatrix, inside desc's M_A × N_A.
  /// @param grid the descriptor's process grid: grid.rank(prow, pcol) = Cblacs_pnum(ctxt,
  ///        prow, pcol) in the communicator the distribution is used with.
  /// @throws InvalidArgument for a submatrix outside A, block sizes < 1, RSRC/CSRC outside
  ///         the grid, or a replicated (RSRC/CSRC = -1) dimension, which hetscal does not
  ///         take over.
  BlockCyclicDistribution(const Descriptor& desc, SubmatrixExtent sub, ProcessGrid grid);

  /// The whole matrix A of the descriptor (IA = JA = 1, M = M_A, N = N_A).
  BlockCyclicDistribution(const Descriptor& desc, ProcessGrid grid);

  const Descriptor& descriptor() const { return desc_; }
  const SubmatrixExtent& submatrix() const { return sub_; }
  /// Row dimension of the whole matrix A (M_A, IMB, MB, RSRC, nprow).
  CyclicAxis matrix_row_axis() const { return desc_.row_axis(grid().nprow()); }
  /// Column dimension of the whole matrix A (N_A, INB, NB, CSRC, npcol).
  CyclicAxis matrix_col_axis() const { return desc_.col_axis(grid().npcol()); }
  /// Row dimension of sub(A) alone (see sub_axis).
  const CyclicAxis& row_axis() const { return sub_rows_; }
  /// Column dimension of sub(A) alone.
  const CyclicAxis& col_axis() const { return sub_cols_; }

 private:
  BlockCyclicDistribution(const Descriptor& desc, SubmatrixExtent sub, CyclicAxis sub_rows,
                          CyclicAxis sub_cols, ProcessGrid&& grid);

  Descriptor desc_;
  SubmatrixExtent sub_;
  CyclicAxis sub_rows_, sub_cols_;
};

}  // namespace hetscal::layout

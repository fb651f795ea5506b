#pragma once
/// @file descriptor.hpp
/// ScaLAPACK array descriptors of both types PBLAS accepts, and their validation with
/// ScaLAPACK's own INFO codes.
///
/// Error model at this boundary: the check_* functions never throw; they return 0 or the
/// negative INFO ScaLAPACK would compute, so the shim can report it on ScaLAPACK's own path
/// (PB_Cabort or PXERBLA). Descriptor::parse throws InvalidArgument, and is meant to be
/// called only on a descriptor that passed its check.
#include <array>
#include <cstdint>
#include <vector>

#include "layout/block_cyclic.hpp"

namespace hetscal::layout {

/// The DTYPE entry of a descriptor.
enum class DescriptorType : int {
  BlockCyclic2D = 1,     ///< 9 entries: DTYPE CTXT M N MB NB RSRC CSRC LLD
  BlockCyclic2DInb = 2,  ///< 11 entries: DTYPE CTXT M N IMB INB MB NB RSRC CSRC LLD
};

/// 1-based positions of the fields of a 9-entry descriptor (ScaLAPACK's Fortran DTYPE_ ...).
/// INFO codes of ScaLAPACK routines (CHK1MAT) name these.
namespace field9 {
inline constexpr int kDtype = 1, kCtxt = 2, kM = 3, kN = 4, kMb = 5, kNb = 6, kRsrc = 7, kCsrc = 8,
                     kLld = 9, kLength = 9;
}
/// 1-based positions of the fields of an 11-entry descriptor. PBLAS converts every
/// descriptor to this layout before checking it (PB_CargFtoC), so PBLAS's INFO codes name
/// these positions even for a 9-entry descriptor (a bad MB of a 9-entry DESCA in argument 10
/// gives -1007, not -1005).
namespace field11 {
inline constexpr int kDtype = 1, kCtxt = 2, kM = 3, kN = 4, kImb = 5, kInb = 6, kMb = 7, kNb = 8,
                     kRsrc = 9, kCsrc = 10, kLld = 11, kLength = 11;
}

/// A parsed descriptor; both types in one form (a 9-entry one has imb = mb, inb = nb).
struct Descriptor {
  DescriptorType type = DescriptorType::BlockCyclic2D;
  int context = 0;
  std::int64_t m = 0, n = 0;
  std::int64_t imb = 1, inb = 1, mb = 1, nb = 1;
  int rsrc = 0, csrc = 0;
  std::int64_t lld = 1;

  /// Reads 9 or 11 entries according to desc[0].
  /// @throws InvalidArgument if desc[0] is neither 1 nor 2.
  static Descriptor parse(const int* desc);

  /// A 9-entry descriptor (what DESCINIT builds).
  static Descriptor block_cyclic(int context, std::int64_t m, std::int64_t n, std::int64_t mb,
                                 std::int64_t nb, int rsrc, int csrc, std::int64_t lld);

  /// The 9 or 11 entries, as a caller's array would hold them.
  std::vector<int> to_array() const;

  /// Row dimension on a grid with `nprow` process rows: M, IMB, MB, RSRC.
  CyclicAxis row_axis(int nprow) const { return {m, imb, mb, rsrc, nprow}; }
  /// Column dimension on a grid with `npcol` process columns: N, INB, NB, CSRC.
  CyclicAxis col_axis(int npcol) const { return {n, inb, nb, csrc, npcol}; }
};

/// What Cblacs_gridinfo tells the calling process about a context.
struct BlacsGridView {
  int context = 0;
  int nprow = 1, npcol = 1;
  int myrow = 0, mycol = 0;
};

/// One process's view of a submatrix sub(A) = A(row:row+rows-1, col:col+cols-1) (0-based)
/// of a descriptor: what PBLAS gets from PB_Cinfog2l and PB_Cnumroc.
struct LocalSubmatrix {
  CyclicAxis rows;              ///< sub(A)'s rows alone: first block (PB_Cfirstnb), source
  CyclicAxis cols;              ///< sub(A)'s columns alone
  std::int64_t ii = 0, jj = 0;  ///< 0-based local start of sub(A) in A's local array
  std::int64_t local_rows = 0;  ///< rows of sub(A) this process holds
  std::int64_t local_cols = 0;  ///< columns of sub(A) this process holds
};

/// @param desc the descriptor of A.
/// @param row,col 0-based position of sub(A) in A (IA-1, JA-1).
/// @param rows,cols size of sub(A) (M, N).
/// @param grid the calling process's view of the grid.
/// @pre the descriptor and the submatrix passed check_matrix_pblas or check_matrix_scalapack.
/// @return the process's view; ii/jj are also the local start when it holds none of sub(A).
LocalSubmatrix local_submatrix(const Descriptor& desc, std::int64_t row, std::int64_t col,
                               std::int64_t rows, std::int64_t cols, const BlacsGridView& grid);

/// A submatrix argument sub(A) = A(IA:IA+M-1, JA:JA+N-1) as a routine receives it, with the
/// 1-based positions of M, N and DESCA in that routine's argument list (IA and JA are
/// assumed 2 and 1 positions before DESCA, as ScaLAPACK assumes).
struct MatrixArgument {
  int m = 0, m_position = 0;
  int n = 0, n_position = 0;
  int ia = 1, ja = 1;  ///< 1-based (Fortran) indices
  const int* desc = nullptr;
  int desc_position = 0;
};

/// INFO computed exactly as PBLAS's PB_Cchkmat does after PB_CargFtoC (PDGEMM & co):
/// descriptor type 1 or 2, CTXT equal to `grid.context` (the operation's context), IMB,
/// INB, MB, NB >= 1, RSRC/CSRC in [-1, nprow/npcol), M, N >= 0 (>= 1 unless sub(A) is
/// empty), IA+M-1 <= M_A, JA+N-1 <= N_A, LLD >= max(1, LOCr(M_A)) where this process holds
/// columns (checked only when nothing else is wrong so far, as PB_Cchkmat does). Codes:
/// -(100*position + field11 index) for a descriptor field, -position for a scalar; the
/// earliest argument wins.
/// @param a the argument and its positions; a.desc holds 9 or 11 entries per its DTYPE.
/// @param grid the calling process's view of the operation's context.
/// @param previous_info INFO from earlier checks of the same call (0 if none); errors
///        already found in earlier arguments are kept, as PB_Cchkmat keeps them.
/// @return 0 or the negative INFO.
int check_matrix_pblas(const MatrixArgument& a, const BlacsGridView& grid, int previous_info = 0);

/// INFO computed exactly as ScaLAPACK's CHK1MAT (PDGETRF, PDPOTRF, PDGEQRF ...): only
/// descriptor type 1, RSRC/CSRC in [0, nprow/npcol), LLD >= LOCr(M_A) where this process
/// holds columns, IA/JA >= 1 and sub(A) inside A. Codes use field9 indices. `grid` is the
/// view of the descriptor's own context (CHK1MAT does not compare contexts; the routines
/// compare the other operands' CTXT themselves).
/// @param a the argument and its positions; a.desc holds 9 entries.
/// @param grid the calling process's view of DESCA's context.
/// @param previous_info INFO from earlier checks of the same call (0 if none).
/// @return 0 or the negative INFO.
int check_matrix_scalapack(const MatrixArgument& a, const BlacsGridView& grid,
                           int previous_info = 0);

}  // namespace hetscal::layout

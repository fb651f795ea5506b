#pragma once
/// @file block_cyclic.hpp
/// ScaLAPACK's block-cyclic index arithmetic for one matrix dimension, 0-based, with a first
/// block of its own size (IMB/INB of the 11-entry descriptor) and any source process
/// (RSRC/CSRC). Equivalents of NUMROC, INDXG2P, INDXG2L, INDXL2G and of PBLAS's PB_Cnumroc,
/// PB_Cindxg2p, PB_Cinfog2l and PB_Cfirstnb; the tests check them against libscalapack.
///
/// Indices here are 0-based (PBLAS's C convention); ScaLAPACK's Fortran tools are 1-based.
#include <cstdint>

namespace hetscal::layout {

/// RSRC/CSRC = -1: PBLAS's "replicated" dimension, every process coordinate holds all of it.
inline constexpr int kReplicated = -1;

/// One dimension of a block-cyclic distribution: global indices 0..extent-1 cut into a first
/// block of `first_block` indices and then blocks of `block`, dealt to process coordinates
/// source, source+1, ... (mod nprocs). `first_block` may exceed `block` and `extent`.
struct CyclicAxis {
  std::int64_t extent = 0;       ///< M or N
  std::int64_t first_block = 1;  ///< IMB or INB (MB/NB for a 9-entry descriptor)
  std::int64_t block = 1;        ///< MB or NB
  int source = 0;                ///< RSRC or CSRC, or kReplicated
  int nprocs = 1;                ///< NPROW or NPCOL

  /// True when every process coordinate holds every index (source == kReplicated or a
  /// single process): then local and global indices coincide.
  bool undistributed() const { return source == kReplicated || nprocs == 1; }
};

/// Checks an axis before the arithmetic below relies on it.
/// @throws InvalidArgument naming the field when extent < 0, block < 1, first_block < 1,
///         nprocs < 1 or source outside [-1, nprocs).
void validate(const CyclicAxis& axis);

/// Process coordinate owning global index `global` (INDXG2P / PB_Cindxg2p); kReplicated for
/// a replicated axis. @pre global >= 0.
int owner_coordinate(const CyclicAxis& axis, std::int64_t global);

/// Number of global indices in [0, global) that process coordinate `proc` holds; equally,
/// the local index at which `proc` stores the first of its indices >= global (the II / JJ
/// of PB_Cinfog2l). @pre global >= 0, 0 <= proc < nprocs.
std::int64_t local_count_before(const CyclicAxis& axis, std::int64_t global, int proc);

/// Number of global indices in [start, start+count) that `proc` holds (PB_Cnumroc; with
/// start = 0 and count = extent it is NUMROC, LOCr/LOCc). @pre start, count >= 0.
std::int64_t local_count(const CyclicAxis& axis, std::int64_t start, std::int64_t count, int proc);

/// Local extent of `proc`: local_count(axis, 0, axis.extent, proc).
inline std::int64_t local_extent(const CyclicAxis& axis, int proc) {
  return local_count(axis, 0, axis.extent, proc);
}

/// Local index of global index `global` in the process that owns it (INDXG2L).
/// @pre global >= 0.
std::int64_t global_to_local(const CyclicAxis& axis, std::int64_t global);

/// Global index of local index `local` of process coordinate `proc` (INDXL2G).
/// @pre local >= 0, 0 <= proc < nprocs.
std::int64_t local_to_global(const CyclicAxis& axis, std::int64_t local, int proc);

/// Size of the block holding `global`, counted from `global` to the end of that block, not
/// clipped to the extent (PB_Cfirstnb before its MIN with N): the first tile size of a
/// submatrix starting at `global`. @pre global >= 0.
std::int64_t block_remainder(const CyclicAxis& axis, std::int64_t global);

/// The axis of the submatrix indices [start, start+count) seen on their own: extent count,
/// first block block_remainder(start), same block, source owner_coordinate(start).
/// Process p holds the same indices of the submatrix as of the parent, stored from its local
/// index local_count_before(axis, start, p) on.
/// @pre start >= 0, count >= 0.
CyclicAxis sub_axis(const CyclicAxis& axis, std::int64_t start, std::int64_t count);

}  // namespace hetscal::layout

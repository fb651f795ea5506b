#pragma once
/// @file blacs_context.hpp
/// From a BLACS context to what hetscal needs to talk to its processes: a communicator of
/// hetscal's own (a duplicate of BLACS's, so hetscal's messages never match the caller's) and
/// the grid position -> rank table. Cached per context; the cache entry dies when the context
/// is freed (Cblacs_gridexit), through an MPI attribute on BLACS's communicator.
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace hetscal::mpi {

/// Process grid order of a rank table: which grid position a rank of the communicator has.
struct GridPosition {
  int row = 0;
  int col = 0;
};

/// One BLACS context seen from the calling process.
struct ContextInfo {
  /// hetscal's duplicate of the context's communicator: every rank of the grid, ranks equal
  /// to BLACS's process numbers (Cblacs_pnum). Valid until the context is freed.
  MPI_Comm comm = MPI_COMM_NULL;
  int nprow = 0;    ///< process rows
  int npcol = 0;    ///< process columns
  int myrow = 0;    ///< this process's grid row
  int mycol = 0;    ///< this process's grid column
  int my_rank = 0;  ///< this process's rank in comm
  /// rank_table[prow * npcol + pcol]: the rank in comm of grid position (prow, pcol).
  std::vector<int> rank_table;

  int num_ranks() const { return nprow * npcol; }
  /// Rank in comm of grid position (prow, pcol). @pre 0 <= prow < nprow, 0 <= pcol < npcol.
  int rank(int prow, int pcol) const { return rank_table[prow * npcol + pcol]; }
  /// Grid position of `rank` in comm. @pre 0 <= rank < num_ranks().
  GridPosition position(int rank) const;
};

/// The ContextInfo of BLACS context `blacs_context`, built on first use and cached.
/// Collective over the context's processes on first use (duplicates the communicator).
/// @param blacs_context a context handle from Cblacs_gridinit/Cblacs_gridmap (C interface).
/// @return a reference valid until the context is freed with Cblacs_gridexit.
/// @throws InvalidArgument if this process is not part of the context (handle < 0 or a grid
///         without this process); hetscal::Error if BLACS and MPI disagree on the grid.
const ContextInfo& context_info(int blacs_context);

/// Number of contexts currently cached in this process (for tests: it must drop when a
/// context is freed).
std::size_t cached_context_count();

}  // namespace hetscal::mpi

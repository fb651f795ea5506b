#pragma once
/// @file lu.hpp
/// Distributed LU factorisation with partial pivoting on any Distribution with square tiles.
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// Which rank factorises a step's panel. The panel's tiles are gathered on that one rank,
/// which factorises them with LAPACK's recursive xGETRF (the pivot search then needs no
/// message per column), and sends the factored tiles and the pivots on.
enum class LuPanelRank {
  DiagonalOwner,  ///< the owner of the step's diagonal tile (no gather on a 1×Q grid)
  Fastest,        ///< the fastest owner of a panel tile (i, k), i >= k, the lowest rank
                  ///< among equals (Boudet1999's suggestion to let the fastest processor
                  ///< column do the pivoting)
};

struct LuOptions {
  LuPanelRank panel_rank = LuPanelRank::DiagonalOwner;
  /// Relative speed of every rank (indexed by rank; larger is faster), read by Fastest;
  /// empty: all equal, so Fastest picks the lowest rank owning a panel tile.
  std::vector<double> rank_speeds;
};

/// Factorises the M×N matrix A in place as ScaLAPACK's PxGETRF: A = P·L·U with L unit lower
/// triangular (trapezoidal when M > N) and U upper triangular (trapezoidal when M < N),
/// stored over A. Step k factorises tile column k from its diagonal tile down, applies its
/// row interchanges across the whole width of A (columns left of the panel too, as
/// PxLASWP does), solves the U row block and updates the trailing matrix; right-looking with
/// a lookahead of one step (panel k+1 is factorised while step k's trailing update runs).
/// Pivots are chosen exactly as LAPACK's xGETRF on the panel chooses them (largest
/// magnitude, first one on ties), so the result equals LAPACK's blocked LU on the gathered
/// matrix with block size = tile size, up to rounding. Collective over `comm`. Every local
/// operation goes through kernels/local_blas.hpp (flop accounting).
/// All or nothing: every rank allocates its whole workspace before the first message and
/// the ranks agree on it (stage "compute"), so a rank that cannot allocate makes every rank
/// throw, with A untouched.
/// @param a the matrix; its row and column splits must cut alike (same first tile and block;
///        the extents M and N may differ).
/// @param pivots min(M, N) entries, written on every rank alike: row i (0-based, of A) was
///        interchanged with row pivots[i] >= i at step i (LAPACK's IPIV, 0-based).
/// @param comm the ranks of a's distribution (duplicated internally for the messages).
/// @param options where panels are factorised.
/// @return INFO as ScaLAPACK: 0, or i > 0 when U(i,i) (1-based) is exactly zero, the first
///         such i; the factorisation is completed all the same. The same on every rank.
/// @throws InvalidArgument when a lacks a distribution or storage, is distributed over
///         another number of ranks than comm has, its storage belongs to another rank, its
///         tiles are not square, or options.rank_speeds has another size than comm (when not
///         empty): on every rank, when any rank finds one, before any message.
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
std::int64_t lu(DistributedMatrix<T> a, std::int64_t* pivots, MPI_Comm comm,
                const LuOptions& options = {});

/// kernels::lu in two parts, for a take-over that must have every allocation made and agreed
/// before it moves anything (runtime/in_place_getrf.hpp): the constructor checks the
/// arguments and allocates the whole workspace (both agreed, nothing written, the same
/// exceptions as lu before its first message), run() factorises.
template <typename T>
class PreparedLu {
 public:
  /// Collective over `comm`. @param a,comm,options as lu's; `a` must outlive run().
  PreparedLu(DistributedMatrix<T> a, MPI_Comm comm, const LuOptions& options = {});
  ~PreparedLu();
  PreparedLu(const PreparedLu&) = delete;
  PreparedLu& operator=(const PreparedLu&) = delete;

  /// The factorisation; collective over the constructor's `comm`. Once only.
  /// @param pivots as lu's. @return INFO as lu's.
  std::int64_t run(std::int64_t* pivots);

 private:
  class Steps;
  std::unique_ptr<Steps> steps_;
};

/// Bytes kernels::lu allocates on this rank to factorise `a`: its buffers of scalars, sized
/// exactly as PreparedLu sizes them (the panels, interchanges and U row blocks this rank's
/// steps use), its tables, and an upper bound of its other index vectors. Local (no
/// communication); reads a's distribution and storage only (`data` and `overflow` may be
/// null). For a take-over's memory budget: a rank whose swaps are all local, or whose panels
/// are factorised where A holds them, is not charged for buffers it never allocates.
/// @pre a passes kernels::lu's argument checks; `my_rank` is a rank of its distribution.
template <typename T>
std::int64_t lu_workspace_bytes(const DistributedMatrix<T>& a, int my_rank, const LuOptions& options = {});

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in lu.cpp.
#define HETSCAL_LU_INSTANCES(PREFIX, T)                                             \
  PREFIX template std::int64_t lu<T>(DistributedMatrix<T>, std::int64_t*, MPI_Comm, \
                                     const LuOptions&);                             \
  PREFIX template class PreparedLu<T>;                                            \
  PREFIX template std::int64_t lu_workspace_bytes<T>(const DistributedMatrix<T>&, int, const LuOptions&);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_LU_INSTANCES)

}  // namespace hetscal::kernels

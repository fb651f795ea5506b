#pragma once
/// @file qr.hpp
/// Distributed Householder QR factorisation on any Distribution with square tiles.
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "kernels/distributed_matrix.hpp"
#include "kernels/lu.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// Which rank factorises a step's panel: as for the LU (the panel's tiles gathered on one
/// rank, which runs LAPACK's xGEQRF and xLARFT on them and sends the reflectors on).
using QrPanelRank = LuPanelRank;

/// Where panels are factorised: the same choice as the LU's.
using QrOptions = LuOptions;

/// Factorises the M×N matrix A in place as ScaLAPACK's PxGEQRF: A = Q·R, R upper triangular
/// (trapezoidal when M < N) on and above the diagonal, Q = H(1)·H(2)···H(min(M,N)) with
/// H(i) = I − τ_i·v_i·v_iᴴ, v_i(i) = 1 implicit, v_i below the diagonal of column i. The
/// reflectors and τ are those LAPACK's xLARFG defines, so V, τ and R equal LAPACK's xGEQRF
/// on the gathered matrix up to rounding, with R's signs as LAPACK's (and ScaLAPACK's).
/// Step k factorises tile column k from its diagonal tile down on one rank, then applies
/// (I − V·T·Vᴴ)ᴴ to the trailing columns (compact WY form, T as xLARFT builds it): W = Vᴴ·A
/// reduced over each tile column's owners, then A −= V·(Tᴴ·W); right-looking with a
/// lookahead of one step. Collective over `comm`; every local operation goes through
/// kernels/local_blas.hpp (flop accounting). All or nothing as kernels::lu.
/// @param a the matrix; its row and column splits must cut alike (same first tile and block).
/// @param tau min(M, N) entries, written on every rank alike: τ_i of reflector i (0-based).
/// @param comm the ranks of a's distribution (duplicated internally for the messages).
/// @param options where panels are factorised.
/// @throws InvalidArgument as kernels::lu, on every rank, before any message.
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
void qr(DistributedMatrix<T> a, T* tau, MPI_Comm comm, const QrOptions& options = {});

/// kernels::qr in two parts, for a take-over that must have every allocation made and agreed
/// before it moves anything (runtime/in_place_geqrf.hpp), as PreparedLu: the constructor
/// checks the arguments and allocates the whole workspace (both agreed, nothing written, the
/// same exceptions as qr before its first message), run() factorises.
template <typename T>
class PreparedQr {
 public:
  /// Collective over `comm`. @param a,comm,options as qr's; `a` must outlive run().
  PreparedQr(DistributedMatrix<T> a, MPI_Comm comm, const QrOptions& options = {});
  ~PreparedQr();
  PreparedQr(const PreparedQr&) = delete;
  PreparedQr& operator=(const PreparedQr&) = delete;

  /// The factorisation; collective over the constructor's `comm`. Once only.
  /// @param tau as qr's.
  void run(T* tau);

 private:
  class Steps;
  std::unique_ptr<Steps> steps_;
};

/// Bytes kernels::qr allocates on this rank to factorise `a`: its buffers of scalars, sized
/// exactly as PreparedQr sizes them (the panels' slots, gathered panel and staging, xGEQRF's
/// workspace, the diagonal V tile's copy; the update's W window, the partials a root receives
/// and both ways' staging), its tables, and an upper bound of its other index vectors. Local
/// (no communication); reads a's distribution and storage only (`data` and `overflow` may be
/// null). For a take-over's memory budget. @pre a passes kernels::qr's argument checks.
template <typename T>
std::int64_t qr_workspace_bytes(const DistributedMatrix<T>& a, int my_rank, const QrOptions& options = {});

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in qr.cpp.
#define HETSCAL_QR_INSTANCES(PREFIX, T)                                              \
  PREFIX template void qr<T>(DistributedMatrix<T>, T*, MPI_Comm, const QrOptions&); \
  PREFIX template class PreparedQr<T>;                                               \
  PREFIX template std::int64_t qr_workspace_bytes<T>(const DistributedMatrix<T>&, int, const QrOptions&);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_QR_INSTANCES)

}  // namespace hetscal::kernels

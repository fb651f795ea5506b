#pragma once
/// @file qr_multiply.hpp
/// Applying the orthogonal (unitary) factor of kernels::qr to another matrix: C := Q·C or
/// C := Qᴴ·C (LAPACK's xORMQR / xUNMQR with SIDE = 'L'), on any Distribution.
///
/// SIDE = 'R' (C·op(Q)) is not a kernel of its own: C·op(Q) = (op(Q)ᴴ·Cᴴ)ᴴ, so a caller
/// moves Cᴴ into a matrix whose tile rows are A's (mpi::RedistributionPlan moves with a
/// transpose), applies the other op here and moves the result back transposed; the native
/// API's hetero_pdormqr does that.
#include <mpi.h>

#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// C := op(Q)·C with Q = H(1)·H(2)···H(K), H(i) = I − τ_i·v_i·v_iᴴ, the reflectors
/// kernels::qr left in the first K columns of A (v_i(i) = 1 implicit, v_i below the diagonal
/// of column i). Step by step over A's tile columns (Qᴴ: first to last, Q: last to first),
/// each step's block reflector I − V·T·Vᴴ (T as xLARFT builds it, as kernels::qr does) is
/// applied as kernels::qr applies its trailing update (qr_update.hpp): W = Vᴴ·C reduced per
/// tile column of C on the owner of its tile in the step's row, W := op(T)·W, C −= V·W.
/// Every rank receives each step's V (A's panel, allgathered) and forms T itself.
/// Collective over `comm`; every local operation goes through kernels/local_blas.hpp.
/// All or nothing as kernels::qr: checks and workspace agreed before the first message.
/// @param op NoTrans (Q·C) or ConjTrans (Qᴴ·C); Trans means ConjTrans for real types.
/// @param a the factors, M×N_A; its row and column splits must cut alike, as kernels::qr's.
/// @param reflectors K, 0 <= K <= min(M, N_A).
/// @param tau K entries, the same on every rank (kernels::qr's τ).
/// @param c M×N_C; its row split must be A's (the same tile rows).
/// @param comm the ranks of both distributions.
/// @throws InvalidArgument on every rank, before any message, for a bad view, tiles that do
///         not meet, another row split, K out of range or Trans on a complex type.
/// @throws mpi::StageFailed on every rank when some rank's workspace allocation failed.
template <typename T>
void qr_multiply(Op op, DistributedMatrix<const T> a, std::int64_t reflectors, const T* tau,
                 DistributedMatrix<T> c, MPI_Comm comm);

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in qr_multiply.cpp.
#define HETSCAL_QR_MULTIPLY_INSTANCES(PREFIX, T)                                              \
  PREFIX template void qr_multiply<T>(Op, DistributedMatrix<const T>, std::int64_t, const T*, \
                                      DistributedMatrix<T>, MPI_Comm);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_QR_MULTIPLY_INSTANCES)

}  // namespace hetscal::kernels

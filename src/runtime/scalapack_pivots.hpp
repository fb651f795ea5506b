#pragma once
/// @file scalapack_pivots.hpp
/// LU pivots in ScaLAPACK's IPIV format, written exactly where PDGETRF writes them. Shared by
/// the shim's PxGETRF and the native API on ScaLAPACK descriptors.
///
/// PDGETRF factors sub(A) one column block at a time (PDGETF2). For the panel whose first
/// row is global row I, every process of the grid writes the panel's JB pivots (global row
/// indices of A, 1-based) into IPIV from its own local index of row I on (INFOG2L's IIA:
/// one past the local rows it holds before I), in every process column alike. The process
/// row holding the panel's rows thus gets its pivots in the right place; another process row
/// gets them in the slots of its next rows, which its own panel overwrites later, or, past
/// its last row of sub(A), in IPIV's spare MB_A entries (hence LOCr(M_A)+MB_A). This
/// function replays those writes and touches no other entry.
#include <cstdint>

#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"

namespace hetscal::runtime {

/// Checks kernels::lu's pivots of an M×N sub(A): min(M, N) entries, i <= pivots[i] < M.
/// Local. @throws InvalidArgument naming the first pivot out of range.
void check_lu_pivots(const std::int64_t* pivots, std::int64_t m, std::int64_t n);

/// Writes this process's IPIV as PDGETRF leaves it after factoring sub(A) =
/// A(IA:IA+M-1, JA:JA+N-1). Local: no communication.
/// @param grid the calling process's view of DESCA's context (its myrow and nprow are read).
/// @param a A's descriptor, MB_A = NB_A (PDGETRF's precondition).
/// @param ia,ja 1-based, on block boundaries (PDGETRF refuses others with INFO -4 / -5).
/// @param m,n sub(A)'s size; nothing is written when either is 0.
/// @param pivots min(M, N) entries as kernels::lu writes them: row i of sub(A) (0-based) was
///        interchanged with row pivots[i] of sub(A), i <= pivots[i] < M.
/// @param[in,out] ipiv this process's IPIV, at least LOCr(M_A)+MB_A entries; only the
///        entries PDGETRF writes are written.
/// @throws InvalidArgument when the descriptor is not a 9-entry one with MB_A = NB_A, IA or
///         JA is not on a block boundary, sub(A) does not fit in A, or a pivot is out of
///         [i, M) — before anything is written.
void write_scalapack_pivots(const mpi::ContextInfo& grid, const layout::Descriptor& a, int ia, int ja,
                            std::int64_t m, std::int64_t n, const std::int64_t* pivots,
                            int* ipiv);

}  // namespace hetscal::runtime

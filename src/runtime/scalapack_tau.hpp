#pragma once
/// @file scalapack_tau.hpp
/// QR's scalar factors in ScaLAPACK's TAU format, written exactly where PDGEQRF writes them
/// and read back from there (as PDORMQR reads them). Shared by the shim's PxGEQRF and the
/// native API on ScaLAPACK descriptors.
///
/// TAU is tied to A's columns (LOCc(JA+MIN(M,N)-1) entries): PDGEQRF's PDLARFG computes
/// reflector j on every process of the process column owning global column JA+j-1, each of
/// which stores τ_j at its local index of that column. The other process columns never see
/// τ_j, and no entry before JA's nor past the last reflector's column is written. This
/// function replays those writes and touches no other entry.
#include <cstdint>

#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"

namespace hetscal::runtime {

/// Writes this process's TAU as PDGEQRF leaves it after factoring sub(A) =
/// A(IA:IA+M-1, JA:JA+N-1). Local: no communication.
/// @param grid the calling process's view of DESCA's context (its mycol and npcol are read).
/// @param a A's descriptor.
/// @param ja 1-based first column of sub(A).
/// @param m,n sub(A)'s size; nothing is written when either is 0.
/// @param tau min(M, N) entries as kernels::qr writes them (the same on every rank).
/// @param[in,out] local_tau this process's TAU, at least LOCc(JA+MIN(M,N)-1) entries; only the
///        entries PDGEQRF writes are written.
/// @throws InvalidArgument when sub(A)'s columns do not fit in A — before anything is
///         written.
template <typename T>
void write_scalapack_tau(const mpi::ContextInfo& grid, const layout::Descriptor& a, int ja, std::int64_t m,
                         std::int64_t n, const T* tau, T* local_tau);

/// The τ of the K reflectors in columns JA..JA+K-1 of A, from TAU as PDGEQRF leaves it (the
/// entry of column j read on process row 0 of the process column holding j), on every
/// process alike. Collective over grid.comm.
/// @param a A's descriptor, of `grid`'s context.
/// @param local_tau this process's TAU, LOCc(JA+K-1) entries (read only where column j is
///        held, on process row 0).
/// @param[out] tau K entries.
template <typename T>
void read_scalapack_tau(const mpi::ContextInfo& grid, const layout::Descriptor& a, int ja, std::int64_t k,
                        const T* local_tau, T* tau);

}  // namespace hetscal::runtime

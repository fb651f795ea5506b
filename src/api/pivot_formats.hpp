#pragma once
/// @file pivot_formats.hpp
/// The pivots of hetero_pdgetrf/hetero_pdgetrs in their two formats, to and from
/// kernels::lu's (min(M,N) entries, 0-based, row i interchanged with row pivots[i]):
/// hetscal's (the same replicated on every process, 1-based, documented in hetscal.h) and,
/// for reading back, ScaLAPACK's (global row indices of A in the local entries of the
/// process rows owning sub(A)'s rows, replicated in every process column). Writing
/// ScaLAPACK's format is runtime::write_scalapack_pivots, which the shim shares.
#include <cstdint>
#include <optional>
#include <vector>

#include "mpi/blacs_context.hpp"

namespace hetscal::api {

/// ipiv[i] = pivots[i] + 1 for every pivot.
void write_hetscal_pivots(const std::vector<std::int64_t>& pivots, int* ipiv);

/// kernels::lu's pivots from `count` entries in hetscal's format, of a matrix of `rows`
/// rows; nullopt when an entry is outside 1..rows. Local.
std::optional<std::vector<std::int64_t>> read_hetscal_pivots(const int* ipiv, std::int64_t count,
                                                             std::int64_t rows);

/// kernels::lu's pivots of the N×N sub(A) = A(IA:, JA:) from IPIV in ScaLAPACK's format
/// (PDGETRF's output, as PDGETRS reads it), on every process alike; nullopt when an entry
/// names a row outside sub(A). Collective over grid.comm.
/// @param desca a checked ScaLAPACK descriptor of `grid`.
std::optional<std::vector<std::int64_t>> read_scalapack_pivots(const mpi::ContextInfo& grid,
                                                               const int* desca, int ia,
                                                               std::int64_t n, const int* ipiv);

}  // namespace hetscal::api

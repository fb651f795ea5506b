#pragma once
/// @file hetero_matrix.hpp
/// Matrices kept in a context's heterogeneous layout: their descriptors (DTYPE HETSCAL_DTYPE,
/// fields as a 9-entry ScaLAPACK descriptor), checks with ScaLAPACK-style INFO codes, and
/// this process's view of one.
#include <mpi.h>

#include <cstdint>
#include <memory>

#include "api/context_registry.hpp"
#include "kernels/distributed_matrix.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/descriptor.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::api {

/// 1-based fields of a hetscal descriptor (the positions of a 9-entry ScaLAPACK one).
namespace field {
inline constexpr int kDtype = 1, kCtxt = 2, kM = 3, kN = 4, kMb = 5, kNb = 6, kRsrc = 7, kCsrc = 8,
                     kLld = 9;
}

/// INFO of a descriptor field: -(100·position + field).
inline int field_info(int position, int field_index) { return -(100 * position + field_index); }

/// Checks a hetscal descriptor on this process (no communication): DTYPE, a live CTXT,
/// M, N >= 0, MB = NB = the tile, RSRC = CSRC = 0, LLD >= max(1, LOCr(M)).
/// @param position the descriptor's position in the routine's argument list.
/// @param[out] context the descriptor's context when CTXT is live (else untouched).
/// @return 0 or field_info(position, first bad field).
int check_hetero_descriptor(const int* desc, int position, Context** context);

/// The earliest argument error any process of `comm` found (an argument's own INFO before
/// its descriptor fields; lower positions first), the same on every process. Collective.
int agreed_info(MPI_Comm comm, int local_info);

/// Checks a hetscal operand of a routine on `context`: its descriptor (check_hetero_descriptor),
/// the same context, and sub(X) the whole matrix: IX = JX = 1 (their positions are the
/// descriptor's minus 2 and minus 1, as in every ScaLAPACK routine) and M_X, N_X = x.m, x.n.
/// Local. @return 0 or the INFO of the first problem.
int check_in_place_operand(const layout::MatrixArgument& x, const Context& context);

/// This process's view of a rows×cols matrix of the context: a CartesianDistribution and
/// CartesianLocalLayout on a Cartesian layout, a PatternDistribution and TiledLocalLayout on
/// a pattern.
struct HeteroMatrix {
  std::unique_ptr<layout::Distribution> distribution;
  std::unique_ptr<layout::LocalLayout> storage;
};

/// @param lld the local array's leading dimension on a Cartesian layout; 0 chooses
///        max(1, LOCr). Not used on patterns.
/// @throws InvalidArgument when lld < LOCr.
HeteroMatrix hetero_matrix(const Context& context, std::int64_t rows, std::int64_t cols,
                           std::int64_t lld = 0);
/// The same in another layout planned for the context's processes (rank: this process's).
HeteroMatrix hetero_matrix(const ContextLayout& layout, int rank, std::int64_t rows,
                           std::int64_t cols, std::int64_t lld = 0);

/// The matrix a checked descriptor describes.
inline HeteroMatrix hetero_matrix(const Context& context, const int* desc) {
  return hetero_matrix(context, desc[field::kM - 1], desc[field::kN - 1],
                       context.layout.cartesian() ? desc[field::kLld - 1] : 0);
}

/// The view's typed form for the kernels.
template <typename T>
kernels::DistributedMatrix<T> view(const HeteroMatrix& m, T* data) {
  return {m.distribution.get(), m.storage.get(), data};
}

}  // namespace hetscal::api

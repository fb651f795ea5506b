#pragma once
/// @file caller_matrix.hpp
/// A caller's ScaLAPACK submatrix argument sub(A) = A(IA:IA+M-1, JA:JA+N-1) with descriptor
/// DESCA, seen as a Distribution plus this rank's storage over hetscal's communicator of the
/// descriptor's context, ready to enter a RedistributionPlan. The descriptor is checked first,
/// by ScaLAPACK's rules, and refused identically on every rank before any data moves.
#include <array>
#include <memory>
#include <string>

#include "core/common/error.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/descriptor.hpp"
#include "layout/local_storage.hpp"
#include "mpi/blacs_context.hpp"

namespace hetscal::mpi {

/// A refused matrix argument: `info()` is the negative INFO ScaLAPACK or PBLAS computes
/// (-(100*position + field) for a descriptor field, -position for a scalar argument).
class DescriptorError : public InvalidArgument {
 public:
  DescriptorError(int info, const std::string& message) : InvalidArgument(message), info_(info) {}
  int info() const { return info_; }

 private:
  int info_;
};

/// Which library's argument checks a caller's matrix must pass.
enum class CheckRules {
  Pblas,      ///< PB_Cchkmat (PDGEMM & co): both descriptor types, RSRC/CSRC may be -1
  Scalapack,  ///< CHK1MAT (PDGETRF & co): descriptor type 1 only
};

/// sub(A) as a distribution over ContextInfo::comm and this rank's view of the caller's array.
struct CallerMatrix {
  std::unique_ptr<layout::BlockCyclicDistribution> distribution;
  /// Offsets relative to the caller's local array A (its element (1,1)).
  std::unique_ptr<layout::CartesianLocalLayout> storage;
};

/// The process grid of `grid_context` with its ranks renumbered as ranks of `comm` (for a
/// matrix on one context moved by a plan over another context's communicator, as
/// PDGEMR2D moves between contexts). Local: no communication.
/// @throws InvalidArgument if a process of the grid is not in `comm`.
layout::ProcessGrid process_grid_in(const ContextInfo& grid_context, MPI_Comm comm);

/// sub(A) = A(IA+1.., JA+1..) of `rows`×`cols` as a distribution over context.comm and this
/// rank's view of the caller's array, for an argument already checked. Local: the one
/// builder of a caller's view (shim, runtime and native API all use it).
/// @param ia,ja 0-based offsets of sub(A) in the global matrix.
CallerMatrix caller_matrix(const ContextInfo& context, const layout::Descriptor& desc, std::int64_t ia,
                           std::int64_t ja, std::int64_t rows, std::int64_t cols);

/// The argument checks of describe_caller_matrix without the description: this rank's
/// checks, consistency with grid position (0,0), the earliest INFO over the grid. Collective
/// over context.comm (one broadcast, one reduction); allocates nothing, so every rank ends it
/// alike.
/// @param also_minimised two more values of the caller's, replaced by their minimum over the
///        grid in the same reduction (PxGEQRF's workspace queries), or null.
/// @return 0 or ScaLAPACK's (or PBLAS's) INFO, the same on every rank.
int agreed_argument_info(const ContextInfo& context, int blacs_context, const layout::MatrixArgument& a,
                         CheckRules rules, int previous_info, std::array<int, 2>* also_minimised = nullptr);

/// Checks and describes a caller's submatrix argument. Collective over context.comm: the
/// INFO of every rank is combined (the earliest argument/field any rank finds wins), so all
/// ranks accept or all refuse with the same code.
/// @param context the ContextInfo of the operation's BLACS context (`a.desc`'s CTXT must
///        name it: a different context is refused as PBLAS refuses it).
/// @param a the argument, with its 1-based positions in the routine's argument list.
/// @param rules whose checks apply.
/// @param previous_info INFO of earlier arguments of the same call (0 if none).
/// @return the distribution and this rank's storage (an empty sub(A) has no tiles).
/// @throws DescriptorError with ScaLAPACK's INFO on every rank when any rank refuses.
CallerMatrix describe_caller_matrix(const ContextInfo& context, int blacs_context,
                                    const layout::MatrixArgument& a, CheckRules rules,
                                    int previous_info = 0);

}  // namespace hetscal::mpi

#pragma once
/// @file redistribute.hpp
/// Executes a RedistributionPlan on actual arrays: one round of messages for all the plan's
/// matrices, packing per destination, local parts copied directly, op(A) applied while
/// unpacking. Extra memory, kept by the plan for its next execution
/// (RedistributionPlan::release_buffers frees them): point to point, two message-sized
/// buffers per peer and direction (RedistributionPlan::message_bytes), whatever the
/// matrices' size; with Alltoallv, buffers holding every element that crosses the network
/// (never the locally copied part).
#include <complex>
#include <vector>

#include "core/common/scalar_types.hpp"
#include "mpi/redistribution_plan.hpp"

namespace hetscal::mpi {

/// How the messages of one round travel.
enum class Exchange {
  PointToPoint,  ///< MPI_Irecv/MPI_Isend per peer, the traffic in messages of bounded size;
                 ///< packs the next message and unpacks each one as the previous travel
  Alltoallv,     ///< one MPI_Alltoallv (every peer's element count must fit in an int)
};

/// Moves every matrix of `plan`: targets[k] = op_k(sources[k]) in the plan's layouts.
/// Collective over plan.comm(): every rank calls it with the same plan structure.
/// @param plan built on this rank with the layouts of `sources` and `targets`.
/// @param sources base pointers of this rank's local source arrays (one per matrix; may be
///        null where this rank holds no part of that source).
/// @param targets base pointers of this rank's local target arrays (may be null likewise).
///        Only the target elements the target distribution assigns to this rank are
///        written; padding and elements outside a submatrix are left untouched.
/// @param exchange message scheme.
/// @pre sources[k] and targets[k] do not overlap.
/// @throws InvalidArgument if the pointer counts differ from the plan's matrix count or a
///         message exceeds MPI's int count; hetscal::Error if MPI fails; StageFailed on
///         every rank, before any element is written, when a rank could not allocate the
///         round (its layout, or buffers not reserved): the ranks agree on that first.
template <class T>
void redistribute(const RedistributionPlan& plan, const std::vector<const T*>& sources,
                  const std::vector<T*>& targets, Exchange exchange = Exchange::PointToPoint);

/// Allocates (or keeps) the send and receive buffers `plan` needs for elements of type T,
/// so that a following redistribute<T> with the same exchange allocates nothing large: the
/// local part of a move,
/// which can fail on one rank, done before the ranks agree to start it.
/// @throws std::bad_alloc when the memory is not there.
template <class T>
void reserve_buffers(const RedistributionPlan& plan, Exchange exchange = Exchange::PointToPoint);

/// One matrix: target = op(source) for a single-matrix plan.
template <class T>
void redistribute(const RedistributionPlan& plan, const T* source, T* target,
                  Exchange exchange = Exchange::PointToPoint);

/// The instantiations, one per scalar type (core/common/scalar_types.hpp): declared here, defined
/// in redistribute.cpp.
#define HETSCAL_REDISTRIBUTE_INSTANCES(PREFIX, T)                                               \
  PREFIX template void reserve_buffers<T>(const RedistributionPlan&, Exchange);                 \
  PREFIX template void redistribute<T>(const RedistributionPlan&, const std::vector<const T*>&, \
                                       const std::vector<T*>&, Exchange);                         \
  PREFIX template void redistribute<T>(const RedistributionPlan&, const T*, T*, Exchange);
HETSCAL_EXTERN_FOR_EACH_SCALAR(HETSCAL_REDISTRIBUTE_INSTANCES)

}  // namespace hetscal::mpi

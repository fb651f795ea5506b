#pragma once
/// @file caller_operand.hpp
/// A caller's ScaLAPACK matrix argument as the planned routines take it (array, IA, JA,
/// descriptor), and its view as a distribution over hetscal's communicator of the context.
#include <cstdint>
#include <memory>

#include "layout/descriptor.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// A caller's matrix argument: local array, 1-based IA/JA, and its descriptor, parsed once
/// where the call enters (after ScaLAPACK's checks) and read from here by planning, the
/// moves and the IPIV/TAU writers.
template <typename T>
struct CallerOperand {
  T* data = nullptr;
  int ia = 1, ja = 1;
  layout::Descriptor desc;
};

/// A checked argument as CallerOperand: @param desc 9 or 11 entries, @pre passed its checks.
template <typename T>
CallerOperand<T> caller_operand(T* data, int ia, int ja, const int* desc) {
  return {data, ia, ja, layout::Descriptor::parse(desc)};
}

/// sub(X) = X(IA.., JA..) of rows×cols as a distribution over context.comm with this rank's
/// storage, ready for the take-over sequence. @pre the argument passed its checks.
template <typename T>
CallerView caller_view(const mpi::ContextInfo& context, const CallerOperand<T>& x, std::int64_t rows,
                       std::int64_t cols) {
  mpi::CallerMatrix view = mpi::caller_matrix(context, x.desc, x.ia - 1, x.ja - 1, rows, cols);
  return {std::move(view.distribution), std::move(view.storage)};
}

}  // namespace hetscal::runtime

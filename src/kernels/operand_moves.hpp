#pragma once
/// @file operand_moves.hpp
/// Internal to kernels::gemm: the operands that a loop needs in another layout than the
/// caller's, moved in one round of messages. Split in two so that a failure can only happen
/// before any rank communicates: the constructor allocates everything (the moved copies and
/// the redistribution's message buffers) without communicating; run() then moves and
/// allocates nothing large.
#include <mpi.h>

#include <optional>
#include <vector>

#include "core/common/error.hpp"
#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "kernels/gemm_operands.hpp"
#include "kernels/move_op.hpp"
#include "kernels/scalar.hpp"
#include "kernels/scalar_buffer.hpp"
#include "mpi/redistribute.hpp"

namespace hetscal::kernels::detail {

/// The operand a loop reads: the caller's data, or a copy moved into the aligned layout.
template <typename T>
struct OperandData {
  ScalarBuffer<T> moved;
  const T* data = nullptr;
};

/// One operand to read: its aligned layout, the caller's matrix, where its data ends up.
template <typename T>
struct OperandMove {
  const OperandLayout* layout;
  const DistributedMatrix<const T>* caller;
  OperandData<T>* out;
};

/// The moves of the operands that need one (every rank moves the same operands, since the
/// choice depends on the distributions only).
template <typename T>
class OperandMoves {
 public:
  /// Points each operand's data at the caller's or at its newly allocated copy, and reserves
  /// the message buffers. Local: no communication.
  /// @param comm the communicator the distributions' ranks refer to; must outlive this.
  /// @throws std::bad_alloc when the memory is not there.
  OperandMoves(const std::vector<OperandMove<T>>& operands, MPI_Comm comm) {
    std::vector<mpi::MatrixMove> moves;
    for (const OperandMove<T>& operand : operands) {
      const OperandLayout& layout = *operand.layout;
      OperandData<T>& out = *operand.out;
      out.data = operand.caller->data;
      if (!layout.moved()) continue;
      out.moved.resize(static_cast<std::size_t>(layout.storage->local_elements()));
      out.data = out.moved.data();
      moves.push_back({operand.caller->distribution, operand.caller->storage, layout.distribution,
                       layout.storage, move_op<T>(layout.transpose)});
      sources_.push_back(operand.caller->data);
      targets_.push_back(out.moved.data());
    }
    if (moves.empty()) return;
    plan_.emplace(comm, moves);
    mpi::reserve_buffers<T>(*plan_);
  }

  /// Moves the operands. Collective over the communicator.
  void run() const {
    if (plan_) mpi::redistribute<T>(*plan_, sources_, targets_);
  }

 private:
  std::optional<mpi::RedistributionPlan> plan_;
  std::vector<const T*> sources_;
  std::vector<T*> targets_;
};

}  // namespace hetscal::kernels::detail

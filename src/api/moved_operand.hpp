#pragma once
/// @file moved_operand.hpp
/// A caller's ScaLAPACK operand computed on in a context's heterogeneous layout for one
/// native API call: a copy in the layout, the data moved in and the result moved back.
#include <mpi.h>

#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "api/hetero_matrix.hpp"
#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "mpi/agreement.hpp"
#include "mpi/caller_matrix.hpp"
#include "mpi/fault_injection.hpp"
#include "mpi/redistribution_plan.hpp"

namespace hetscal::api {

/// Which part of sub(X) the result moved back writes.
enum class Written {
  Whole,
  LowerTriangle,
  UpperTriangle,
  Nothing,  ///< an input only: never moved back (no plan or buffer is made for it)
};

/// The triangle a factorisation with `uplo` writes.
inline Written triangle_of(kernels::Uplo uplo) {
  return uplo == kernels::Uplo::Lower ? Written::LowerTriangle : Written::UpperTriangle;
}

/// @tparam T the element type (float, double, std::complex<float>, std::complex<double>).
template <typename T>
class MovedOperand {
 public:
  /// @param caller sub(X) in the caller's layout (checked), over `comm`'s ranks.
  /// @param target the same rows×cols in the context's layout (cols×rows when transposed).
  /// @param op Transpose: the copy is sub(X)ᵀ, moved back transposed (not for a triangle).
  MovedOperand(MPI_Comm comm, mpi::CallerMatrix caller, HeteroMatrix target, Written written,
               mpi::Op op = mpi::Op::None);
  /// The same from a matrix of any layout (a hetscal matrix copied transposed).
  MovedOperand(MPI_Comm comm, HeteroMatrix caller, HeteroMatrix target, Written written,
               mpi::Op op = mpi::Op::None);

  /// This rank's local part: the copy, the returned image of the caller's array and both
  /// redistribution plans. Communicates nothing: run it inside an agreed stage.
  /// @throws std::bad_alloc when the memory is not there.
  void allocate();
  /// Collective: the caller's sub(X) into the copy.
  void move_in(const T* caller_data);
  /// Collective: the copy back into the caller's array, only the `written` part of sub(X)
  /// (for a triangle, the other triangle and everything outside sub(X) stay bit-identical).
  /// @throws InvalidArgument for an operand of Written::Nothing.
  void move_back(T* caller_data);

  kernels::DistributedMatrix<T> view() { return api::view(target_, copy_.data()); }

 private:
  MPI_Comm comm_;
  HeteroMatrix caller_;
  HeteroMatrix target_;
  Written written_;
  mpi::Op op_;
  std::vector<T> copy_;
  std::vector<T> returned_;  ///< triangles: sub(X) as the caller's array holds it
  std::optional<mpi::RedistributionPlan> in_, out_;
};

/// Allocates the copies of every operand in one agreed stage (mpi::Stage::Allocate, where
/// the fault tests make a rank fail), before the first move.
/// @throws mpi::StageFailed on every rank when any rank's allocation failed.
template <typename T>
void allocate_agreed(MPI_Comm comm, std::initializer_list<MovedOperand<T>*> operands);

/// A factorisation of sub(A) on a copy: sub(A) (rows×cols, the caller's layout) moved into
/// `layout`, compute(copy view, comm) run there, the `written` part moved back. Collective
/// over the context's processes. @return what compute returns.
template <typename T, typename Compute>
auto compute_on_copy(const Context& context, mpi::CallerMatrix caller, const ContextLayout& layout,
                     std::int64_t rows, std::int64_t cols, Written written, T* a,
                     Compute&& compute) {
  const MPI_Comm comm = context.grid.comm;
  // The operand itself (its planned layout) is made inside the agreed allocation as well: a
  // rank short of memory there fails the call with the others.
  std::optional<MovedOperand<T>> copy;
  mpi::run_agreed(comm, mpi::stage_name(mpi::Stage::Allocate), [&] {
    mpi::fault_point(mpi::Stage::Allocate);
    copy.emplace(comm, std::move(caller), hetero_matrix(layout, context.grid.my_rank, rows, cols), written);
    copy->allocate();
  });
  copy->move_in(a);
  auto result = compute(copy->view(), comm);
  copy->move_back(a);  // also after INFO > 0: the partial factors, as ScaLAPACK leaves them
  return result;
}

/// The layout `routine` computes an M×N sub(A) held on ScaLAPACK descriptor `a` in
/// (Context::plan_factorization, deterministic on every process); nullptr when no layout
/// fits (the call's HETSCAL_ERR_NO_PLAN).
std::shared_ptr<const ContextLayout> planned_layout(const Context& context, core::Routine routine,
                                                    std::int64_t rows, std::int64_t cols,
                                                    const layout::MatrixArgument& a);

}  // namespace hetscal::api

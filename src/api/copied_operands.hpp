#pragma once
/// @file copied_operands.hpp
/// A native call on operands the context's layout does not hold (ScaLAPACK descriptors, or a
/// context matrix needed transposed): computed on planned copies through the shim's own
/// take-over sequence (runtime/take_over.hpp), so that both entries allocate, agree, move
/// and write back alike. Every allocation is agreed before the first move, and nothing is
/// written into a caller's array before every rank computed.
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "api/hetero_matrix.hpp"
#include "core/common/error.hpp"
#include "kernels/blas_enums.hpp"
#include "kernels/distributed_matrix.hpp"
#include "mpi/caller_matrix.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::api {

/// Which part of sub(X) the call writes back.
enum class Written {
  Whole,
  LowerTriangle,
  UpperTriangle,
  Nothing,  ///< an input only: never moved back
};

/// The triangle a factorisation with `uplo` writes.
inline Written triangle_of(kernels::Uplo uplo) {
  return uplo == kernels::Uplo::Lower ? Written::LowerTriangle : Written::UpperTriangle;
}

/// sub(X) where the caller keeps it, as the take-over moves it.
inline runtime::CallerView caller_view(mpi::CallerMatrix caller) {
  return {std::move(caller.distribution), std::move(caller.storage)};
}
inline runtime::CallerView caller_view(HeteroMatrix caller) {
  return {std::move(caller.distribution), std::move(caller.storage)};
}

/// One operand of a native call computed on a copy.
template <typename T>
struct CopiedOperand {
  T* data = nullptr;            ///< the caller's local array (only read when Written::Nothing)
  runtime::CallerView caller;   ///< sub(X) where the caller keeps it
  const ContextLayout* layout = nullptr;  ///< the layout the copy follows
  std::int64_t rows = 0, cols = 0;        ///< the copy's shape: op(sub(X))'s
  Written written = Written::Whole;
  /// The copy is op(sub(X)), and goes back transposed (not for a triangle).
  mpi::Op op = mpi::Op::None;
};

namespace detail {

runtime::Role role_of(Written written);
mpi::Part part_of(Written written);
/// Why a take-over did not compute, as the native API reports it (HETSCAL_ERR_INTERNAL).
[[noreturn]] void refused(const runtime::TakeOverOutcome& outcome);

}  // namespace detail

/// Moves the operands `make_operands()` returns (a std::vector<CopiedOperand<T>>) into their
/// planned copies, runs `compute(copies, comm)` there (copies[i] is operand i's; it returns
/// the routine's INFO, 0 or > 0, the same on every process), and
/// moves the written ones back, the partial results too when INFO > 0 (as ScaLAPACK leaves
/// them). Collective over the context's processes. The copies live in the context's
/// workspace, reused by its later calls (runtime/workspace.hpp). make_operands allocates (the
/// list, the views' shared ownership), which one rank can fail alone: it runs inside the
/// agreed allocation, as everything else a rank allocates before the first move.
/// @return INFO.
/// @throws hetscal::Error on every process when a stage failed on any (the caller's arrays
///         untouched unless the failure came while writing back).
template <typename T, typename MakeOperands, typename Compute>
int compute_on_copies(const Context& context, const MakeOperands& make_operands, Compute&& compute) {
  const MPI_Comm comm = context.grid.comm;
  const int me = context.grid.my_rank;
  std::vector<HeteroMatrix> planned;  // the copies' layouts, made in the agreed allocation
  runtime::TakeOverOutcome refusal;
  auto take_over = runtime::agreed_take_over<T>(comm, me, context.resources.workspace, refusal, [&] {
    const std::vector<CopiedOperand<T>> operands = make_operands();
    planned.clear();
    planned.reserve(operands.size());
    std::vector<runtime::TakeOverOperand<T>> list;
    for (const CopiedOperand<T>& x : operands) {
      planned.push_back(hetero_matrix(*x.layout, me, x.rows, x.cols));
      list.push_back({x.data, x.caller, planned.back().distribution.get(), detail::role_of(x.written), x.op,
                      detail::part_of(x.written)});
    }
    return list;
  });
  if (!take_over) detail::refused(refusal);
  if (!take_over->move_in()) detail::refused(take_over->outcome());
  // The views are made before the agreement that lets every rank into the kernel.
  std::vector<kernels::DistributedMatrix<T>> copies;
  std::string failure;
  try {
    for (std::size_t i = 0; i < planned.size(); ++i) copies.push_back(take_over->planned(i));
  } catch (const std::exception& e) {
    failure = e.what();
  }
  if (!take_over->set_up(failure)) detail::refused(take_over->outcome());
  std::int64_t info = 0;
  try {
    info = compute(copies, comm);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  // INFO is at most min(M, N), which the caller passed as an int.
  if (!take_over->computed(failure, static_cast<int>(info))) detail::refused(take_over->outcome());
  const runtime::TakeOverOutcome outcome = take_over->write_back();
  if (!outcome.computed()) detail::refused(outcome);
  return outcome.info;
}

/// The layout `routine` computes an M×N sub(A) held on ScaLAPACK descriptor `a` in
/// (Context::plan_factorization, deterministic on every process); nullptr when no layout
/// fits (the call's HETSCAL_ERR_NO_PLAN).
std::shared_ptr<const ContextLayout> planned_layout(const Context& context, core::Routine routine,
                                                    std::int64_t rows, std::int64_t cols,
                                                    const mpi::CallerMatrix& caller);

}  // namespace hetscal::api

// The solve skeleton of hetero_pdpotrs and hetero_pdgetrs: argument checks agreed on by
// every process, then the factor in place or moved, B in place or moved in and back.
#include "api/factor_solve.hpp"

#include <memory>
#include <utility>

#include "api/copied_operands.hpp"
#include "api/hetero_matrix.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/scalar.hpp"

namespace hetscal::api {
namespace {

/// Checks a ScaLAPACK operand on `grid` (collective); its INFO, or the status of a
/// replicated one in `status`.
int describe(const mpi::ContextInfo& grid, int blacs_context, const layout::MatrixArgument& x,
             mpi::CallerMatrix& caller, int& status) {
  const int info = describe_scalapack_operand(grid, blacs_context, x, caller);
  if (info > 0) status = info;
  return info > 0 ? 0 : info;
}

template <typename T>
int check_more(const FactorSolve<T>& call, const mpi::ContextInfo* grid) {
  return call.check_more ? call.check_more(grid) : 0;
}

template <typename T>
bool nothing_to_solve(const FactorSolve<T>& call) {
  return call.n == 0 || call.nrhs == 0;
}

/// The factor in place: B in place too, or moved in and back.
template <typename T>
LapackOutcome factor_in_place(const FactorSolve<T>& call) {
  const int desc_a = call.arg_a.desc_position, desc_b = call.arg_b.desc_position;
  const Context* context = find_context(call.arg_a.desc[field::kCtxt - 1]);
  if (!context) return LapackOutcome::of_info(field_info(desc_a, field::kCtxt));  // local
  const bool b_in_place = call.arg_b.desc[0] == HETSCAL_DTYPE;
  int info = call.scalar_info;
  if (info == 0) info = check_in_place_operand(call.arg_a, *context);
  if (info == 0 && b_in_place) info = check_in_place_operand(call.arg_b, *context);
  if (info == 0 && !b_in_place && call.arg_b.desc[field::kCtxt - 1] != context->blacs_context)
    info = field_info(desc_b, field::kCtxt);
  info = agreed_info(context->grid.comm, info);
  int status = HETSCAL_SUCCESS;
  mpi::CallerMatrix caller;
  if (info == 0 && !b_in_place)  // collective over the same processes: every one is here
    info = describe(context->grid, context->blacs_context, call.arg_b, caller, status);
  if (status != HETSCAL_SUCCESS) return LapackOutcome::failed(status);
  if (info == 0 && !nothing_to_solve(call))
    info = agreed_info(context->grid.comm, check_more(call, nullptr));
  if (info != 0 || nothing_to_solve(call)) return LapackOutcome::of_info(info);
  const HeteroMatrix a = hetero_matrix(*context, call.arg_a.desc);
  if (b_in_place) {
    const HeteroMatrix b = hetero_matrix(*context, call.arg_b.desc);
    call.solve(view(a, call.a), view(b, call.b), context->grid.comm);
    return LapackOutcome::of_info(0);
  }
  const auto operands = [&] {
    return std::vector<CopiedOperand<T>>{{call.b, caller_view(std::move(caller)), &context->layout, call.n, call.nrhs}};
  };
  compute_on_copies<T>(*context, operands,
                       [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
                         call.solve(view(a, call.a), copies[0], comm);
                         return 0;
                       });
  return LapackOutcome::of_info(0);
}

/// Both on ScaLAPACK descriptors: moved into the layout the factorisation plans for N.
template <typename T>
LapackOutcome both_moved(const FactorSolve<T>& call) {
  const int blacs_context = call.arg_a.desc[field::kCtxt - 1];
  const mpi::ContextInfo* grid = scalapack_grid(blacs_context);
  if (!grid) return LapackOutcome::of_info(field_info(call.arg_a.desc_position, field::kCtxt));
  int status = HETSCAL_SUCCESS;
  mpi::CallerMatrix caller_a, caller_b;
  const int info_a = describe(*grid, blacs_context, call.arg_a, caller_a, status);
  const int info_b = call.arg_b.desc[0] == HETSCAL_DTYPE  // a factor moved in, B in place: no
                         ? field_info(call.arg_b.desc_position, field::kDtype)
                         : describe(*grid, blacs_context, call.arg_b, caller_b, status);
  const int scalars = call.scalar_info;
  int info = agreed_info(grid->comm, scalars != 0 ? scalars : info_a != 0 ? info_a : info_b);
  if (status != HETSCAL_SUCCESS) return LapackOutcome::failed(status);
  if (info == 0 && !nothing_to_solve(call)) info = agreed_info(grid->comm, check_more(call, grid));
  if (info != 0) return LapackOutcome::of_info(info);
  const Context* context = latest_context_of(blacs_context);
  if (!context) return LapackOutcome::failed(HETSCAL_ERR_CONTEXT);
  if (nothing_to_solve(call)) return LapackOutcome::of_info(0);
  const auto planned = planned_layout(*context, call.routine, call.n, call.n, caller_a);
  if (!planned) return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  const auto operands = [&] {
    // The factor is only read: the take-over moves it in and never back.
    return std::vector<CopiedOperand<T>>{
        {const_cast<T*>(call.a), caller_view(std::move(caller_a)), planned.get(), call.n, call.n, Written::Nothing},
        {call.b, caller_view(std::move(caller_b)), planned.get(), call.n, call.nrhs}};
  };
  compute_on_copies<T>(*context, operands,
                       [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
                         const kernels::DistributedMatrix<T>& factor = copies[0];
                         call.solve({factor.distribution, factor.storage, factor.data}, copies[1], comm);
                         return 0;
                       });
  return LapackOutcome::of_info(0);
}

}  // namespace

template <typename T>
LapackOutcome solve_with_factor(const FactorSolve<T>& call) {
  return call.arg_a.desc[0] == HETSCAL_DTYPE ? factor_in_place(call) : both_moved(call);
}

#define HETSCAL_INSTANTIATE_FACTOR_SOLVE(T) \
  template LapackOutcome solve_with_factor<T>(const FactorSolve<T>&);
HETSCAL_FOR_EACH_SCALAR(HETSCAL_INSTANTIATE_FACTOR_SOLVE)
#undef HETSCAL_INSTANTIATE_FACTOR_SOLVE

}  // namespace hetscal::api

// Native API: hetero_pdormqr, PDORMQR's arguments less WORK and LWORK: sub(C) := op(Q)·sub(C)
// or sub(C)·op(Q) with the reflectors hetero_pdgeqrf (or PDGEQRF) left, by
// kernels::qr_multiply. SIDE "R" is computed on sub(C)ᵀ: C·op(Q) = (op(Q)ᵀ·Cᵀ)ᵀ, sub(C) moved
// into the factors' layout transposed and moved back transposed. The argument checks are
// api/ormqr_checks'. sub(A) and TAU are only read.
#include <utility>
#include <vector>

#include "api/hetero_matrix.hpp"
#include "api/lapack_outcome.hpp"
#include "api/moved_operand.hpp"
#include "api/ormqr_checks.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/qr_multiply.hpp"
#include "runtime/scalapack_tau.hpp"

namespace hetscal::api {
namespace {

using kernels::Op;

/// What the kernel applies to the copy of C (sub(C)ᵀ for SIDE "R"): Q for Q·C and for C·Qᵀ.
Op kernel_op(const OrmqrCall& call) {
  const bool q_itself = call.left() == (call.op == Op::NoTrans);
  return q_itself ? Op::NoTrans : Op::ConjTrans;
}

/// A copy of sub(C) with A's tile rows: sub(C) itself (SIDE "L") or its transpose.
MovedOperand moved_c(const OrmqrCall& call, MPI_Comm comm, HeteroMatrix source,
                     const ContextLayout& layout, int rank) {
  const int rows = call.left() ? call.m : call.n, cols = call.left() ? call.n : call.m;
  return MovedOperand(comm, std::move(source), hetero_matrix(layout, rank, rows, cols),
                      Written::Whole, call.left() ? mpi::Op::None : mpi::Op::Transpose);
}

/// C := op(Q)·C on the copy, moved in from and back into the caller's C.
void apply_to_copy(const OrmqrCall& call, kernels::DistributedMatrix<const double> factors,
                   const double* tau, MovedOperand& c, MPI_Comm comm) {
  c.move_in(call.c);
  kernels::qr_multiply<double>(kernel_op(call), factors, call.k, tau, c.view(), comm);
  c.move_back(call.c);
}

/// The factors in place on a hetscal descriptor; C in place, transposed or moved.
LapackOutcome factors_in_place(const OrmqrCall& call) {
  const Context* context = find_context(call.desca[field::kCtxt - 1]);
  if (!context) return LapackOutcome::of_info(field_info(kOrmqrDescA, field::kCtxt));  // local
  const bool c_in_place = call.descc[0] == HETSCAL_DTYPE;
  int info = agreed_info(context->grid.comm, in_place_ormqr_info(call, *context));
  mpi::CallerMatrix caller;
  if (info == 0 && !c_in_place) {  // collective over the context's processes, all here
    info = describe_scalapack_operand(context->grid, context->blacs_context, call.c_argument(),
                                      caller, mpi::CheckRules::Scalapack);
    if (info > 0) return LapackOutcome::failed(info);
  }
  if (info == 0) info = agreed_info(context->grid.comm, ormqr_option_info(call));
  if (info != 0 || call.empty()) return LapackOutcome::of_info(info);
  const HeteroMatrix a = hetero_matrix(*context, call.desca);
  const kernels::DistributedMatrix<const double> factors = view(a, call.a);
  const MPI_Comm comm = context->grid.comm;
  if (c_in_place && call.left()) {
    const HeteroMatrix c = hetero_matrix(*context, call.descc);
    kernels::qr_multiply<double>(kernel_op(call), factors, call.k, call.tau, view(c, call.c), comm);
    return LapackOutcome::of_info(0);
  }
  HeteroMatrix source =
      c_in_place ? hetero_matrix(*context, call.descc)
                 : HeteroMatrix{std::move(caller.distribution), std::move(caller.storage)};
  MovedOperand c = moved_c(call, comm, std::move(source), context->layout, context->grid.my_rank);
  allocate_agreed(comm, {&c});
  apply_to_copy(call, factors, call.tau, c, comm);
  return LapackOutcome::of_info(0);
}

/// Both on ScaLAPACK descriptors: moved into the layout hetero_pdgeqrf plans for Q's order × K.
LapackOutcome both_moved(const OrmqrCall& call) {
  const int blacs_context = call.desca[field::kCtxt - 1];
  const mpi::ContextInfo* grid = scalapack_grid(blacs_context);
  if (!grid) return LapackOutcome::of_info(field_info(kOrmqrDescA, field::kCtxt));
  mpi::CallerMatrix caller_a, caller_c;
  const int info = scalapack_ormqr_info(call, *grid, caller_a, caller_c);
  if (info > 0) return LapackOutcome::failed(info);
  if (info != 0) return LapackOutcome::of_info(info);
  const Context* context = latest_context_of(blacs_context);
  if (!context) return LapackOutcome::failed(HETSCAL_ERR_CONTEXT);
  if (call.empty()) return LapackOutcome::of_info(0);
  std::vector<double> tau(static_cast<std::size_t>(call.k));
  runtime::read_scalapack_tau(*grid, call.desca, call.ja, call.k, call.tau, tau.data());
  const auto planned =
      planned_layout(*context, core::Routine::QR, call.order(), call.k, call.a_argument());
  if (!planned) return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  const MPI_Comm comm = context->grid.comm;
  const int me = context->grid.my_rank;
  MovedOperand a(comm, std::move(caller_a), hetero_matrix(*planned, me, call.order(), call.k),
                 Written::Nothing);
  MovedOperand c = moved_c(
      call, comm, HeteroMatrix{std::move(caller_c.distribution), std::move(caller_c.storage)},
      *planned, me);
  allocate_agreed(comm, {&a, &c});
  a.move_in(call.a);
  const kernels::DistributedMatrix<double> factors = a.view();
  apply_to_copy(call, {factors.distribution, factors.storage, factors.data}, tau.data(), c, comm);
  return LapackOutcome::of_info(0);
}

}  // namespace
}  // namespace hetscal::api

extern "C" int hetero_pdormqr(const char* side, const char* trans, int m, int n, int k,
                              const double* a, int ia, int ja, const int* desca, const double* tau,
                              double* c, int ic, int jc, const int* descc, int* info) {
  using namespace hetscal::api;
  return report(info, [&] {
    const OrmqrCall call(side, trans, m, n, k, a, ia, ja, desca, tau, c, ic, jc, descc);
    return desca[0] == HETSCAL_DTYPE ? factors_in_place(call) : both_moved(call);
  });
}

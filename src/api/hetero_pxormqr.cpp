// Native API: hetero_p{s,d}ormqr and hetero_p{c,z}unmqr, PxORMQR's / PxUNMQR's arguments less
// WORK and LWORK (one implementation over the element type): sub(C) := op(Q)·sub(C) or
// sub(C)·op(Q) with the reflectors hetero_pxgeqrf (or PxGEQRF) left, by kernels::qr_multiply.
// SIDE "R" is computed on sub(C)ᴴ: C·op(Q) = (op(Q)ᴴ·Cᴴ)ᴴ, sub(C) moved into the factors'
// layout conjugate-transposed (transposed for real elements) and moved back the same way. The
// argument checks are api/ormqr_checks'. sub(A) and TAU are only read.
#include <utility>
#include <vector>

#include "api/copied_operands.hpp"
#include "api/hetero_matrix.hpp"
#include "api/lapack_outcome.hpp"
#include "api/ormqr_checks.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/qr_multiply.hpp"
#include "kernels/scalar.hpp"
#include "mpi/agreement.hpp"
#include "runtime/scalapack_tau.hpp"

namespace hetscal::api {
namespace {

using kernels::Op;

/// A call with its arrays of element type T.
template <typename T>
struct TypedOrmqrCall : OrmqrCall {
  TypedOrmqrCall(const char* side_option, const char* trans_option, int rows, int cols,
                 int reflectors, const T* factors, int a_row, int a_col, const int* a_desc,
                 const T* scalar_factors, T* c_data, int c_row, int c_col, const int* c_desc)
      : OrmqrCall(side_option, trans_option,
                  kernels::is_complex_v<T> ? QElements::Complex : QElements::Real, rows, cols,
                  reflectors, a_row, a_col, a_desc, c_row, c_col, c_desc),
        a(factors),
        tau(scalar_factors),
        c(c_data) {}
  const T* a;
  const T* tau;
  T* c;
};

/// How sub(C) is moved for SIDE "R": its conjugate transpose (the transpose for real T).
template <typename T>
constexpr mpi::Op kAdjoint =
    kernels::is_complex_v<T> ? mpi::Op::ConjugateTranspose : mpi::Op::Transpose;

/// What the kernel applies to the copy of C (sub(C)ᵀ for SIDE "R"): Q for Q·C and for C·Qᵀ.
Op kernel_op(const OrmqrCall& call) {
  const bool q_itself = call.left() == (call.op == Op::NoTrans);
  return q_itself ? Op::NoTrans : Op::ConjTrans;
}

/// A copy of sub(C) with A's tile rows: sub(C) itself (SIDE "L") or its adjoint.
template <typename T>
CopiedOperand<T> copied_c(const TypedOrmqrCall<T>& call, runtime::CallerView source, const ContextLayout& layout) {
  const int rows = call.left() ? call.m : call.n, cols = call.left() ? call.n : call.m;
  return {call.c, std::move(source), &layout, rows, cols, Written::Whole,
          call.left() ? mpi::Op::None : kAdjoint<T>};
}

/// The factors in place on a hetscal descriptor; C in place, transposed or moved.
template <typename T>
LapackOutcome factors_in_place(const TypedOrmqrCall<T>& call) {
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
  const kernels::DistributedMatrix<const T> factors = view(a, call.a);
  if (c_in_place && call.left()) {
    const HeteroMatrix c = hetero_matrix(*context, call.descc);
    kernels::qr_multiply<T>(kernel_op(call), factors, call.k, call.tau, view(c, call.c), context->grid.comm);
    return LapackOutcome::of_info(0);
  }
  const auto operands = [&] {
    runtime::CallerView source =
        c_in_place ? caller_view(hetero_matrix(*context, call.descc)) : caller_view(std::move(caller));
    return std::vector<CopiedOperand<T>>{copied_c(call, std::move(source), context->layout)};
  };
  compute_on_copies<T>(*context, operands,
                       [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
                         kernels::qr_multiply<T>(kernel_op(call), factors, call.k, call.tau, copies[0], comm);
                         return 0;
                       });
  return LapackOutcome::of_info(0);
}

/// Both on ScaLAPACK descriptors: moved into the layout hetero_pdgeqrf plans for Q's order × K.
template <typename T>
LapackOutcome both_moved(const TypedOrmqrCall<T>& call) {
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
  std::vector<T> tau;  // agreed: a rank short of memory fails the call with the others
  mpi::run_agreed(grid->comm, "allocate", [&] { tau.resize(static_cast<std::size_t>(call.k)); });
  runtime::read_scalapack_tau(*grid, caller_a.distribution->descriptor(), call.ja, call.k, call.tau, tau.data());
  const auto planned =
      planned_layout(*context, core::Routine::QR, call.order(), call.k, caller_a);
  if (!planned) return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  const auto operands = [&] {
    // The factors are only read: the take-over moves them in and never back.
    return std::vector<CopiedOperand<T>>{{const_cast<T*>(call.a), caller_view(std::move(caller_a)), planned.get(),
                                          call.order(), call.k, Written::Nothing},
                                         copied_c(call, caller_view(std::move(caller_c)), *planned)};
  };
  compute_on_copies<T>(*context, operands,
                       [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
                         const kernels::DistributedMatrix<T>& factors = copies[0];
                         kernels::qr_multiply<T>(kernel_op(call), {factors.distribution, factors.storage, factors.data},
                                                 call.k, tau.data(), copies[1], comm);
                         return 0;
                       });
  return LapackOutcome::of_info(0);
}

template <typename T>
int hetero_pxormqr(const char* side, const char* trans, int m, int n, int k, const T* a, int ia,
                   int ja, const int* desca, const T* tau, T* c, int ic, int jc, const int* descc,
                   int* info) {
  return report(info, [&] {
    const TypedOrmqrCall<T> call(side, trans, m, n, k, a, ia, ja, desca, tau, c, ic, jc, descc);
    return desca[0] == HETSCAL_DTYPE ? factors_in_place(call) : both_moved(call);
  });
}

}  // namespace
}  // namespace hetscal::api

#define HETSCAL_ORMQR_ENTRY(name, T)                                                            \
  extern "C" int name(const char* side, const char* trans, int m, int n, int k, const T* a,     \
                      int ia, int ja, const int* desca, const T* tau, T* c, int ic, int jc,     \
                      const int* descc, int* info) {                                            \
    return hetscal::api::hetero_pxormqr(side, trans, m, n, k, a, ia, ja, desca, tau, c, ic, jc, \
                                        descc, info);                                           \
  }
HETSCAL_ORMQR_ENTRY(hetero_psormqr, float)
HETSCAL_ORMQR_ENTRY(hetero_pdormqr, double)
HETSCAL_ORMQR_ENTRY(hetero_pcunmqr, hetscal_complex_float)
HETSCAL_ORMQR_ENTRY(hetero_pzunmqr, hetscal_complex_double)
#undef HETSCAL_ORMQR_ENTRY

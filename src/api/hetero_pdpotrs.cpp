// Native API: hetero_pdpotrs, PDPOTRS's arguments: sub(A)·X = sub(B) solved with the
// Cholesky factor in sub(A) by two distributed triangular solves (kernels/triangular_solve):
// L·Y = B then Lᴴ·X = Y, or Uᴴ·Y = B then U·X = Y. The factor is used in place on a hetscal
// descriptor, or moved in from a ScaLAPACK one; B in place or moved in and back.
#include <optional>

#include "api/hetero_matrix.hpp"
#include "api/lapack_outcome.hpp"
#include "api/moved_operand.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/triangular_solve.hpp"
#include "mpi/fault_injection.hpp"
#include "runtime/abi_options.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDPOTRS's INFO names them.
enum Position { kUplo = 1, kN = 2, kNrhs = 3, kDescA = 7, kDescB = 11 };

using Uplo = std::optional<kernels::Uplo>;

struct Call {
  Uplo uplo;
  int n = 0, nrhs = 0;
  const double* a = nullptr;
  double* b = nullptr;
  layout::MatrixArgument arg_a, arg_b;
};

int scalar_info(const Call& call) {
  return !call.uplo ? -kUplo : call.n < 0 ? -kN : call.nrhs < 0 ? -kNrhs : 0;
}

/// X := A⁻¹·X with the factor `a` of `uplo` in place.
void solve_with_factor(kernels::Uplo uplo, kernels::DistributedMatrix<const double> a,
                       kernels::DistributedMatrix<double> x, MPI_Comm comm) {
  using kernels::Diag;
  using kernels::Op;
  const Op first = uplo == kernels::Uplo::Lower ? Op::NoTrans : Op::ConjTrans;
  const Op second = uplo == kernels::Uplo::Lower ? Op::ConjTrans : Op::NoTrans;
  kernels::triangular_solve<double>(uplo, first, Diag::NonUnit, a, x, comm);
  kernels::triangular_solve<double>(uplo, second, Diag::NonUnit, a, x, comm);
}

/// Checks a ScaLAPACK operand on `grid` (collective); its INFO, or the status of a
/// replicated one in `status`.
int describe(const mpi::ContextInfo& grid, int blacs_context, const layout::MatrixArgument& x,
             mpi::CallerMatrix& caller, int& status) {
  const int info = describe_scalapack_operand(grid, blacs_context, x, caller);
  if (info > 0) status = info;
  return info > 0 ? 0 : info;
}

/// The factor in place: B in place too, or moved in and back.
LapackOutcome factor_in_place(const Call& call) {
  const Context* context = find_context(call.arg_a.desc[field::kCtxt - 1]);
  if (!context) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));  // local
  const bool b_in_place = call.arg_b.desc[0] == HETSCAL_DTYPE;
  int info = scalar_info(call);
  if (info == 0) info = check_in_place_operand(call.arg_a, *context);
  if (info == 0 && b_in_place) info = check_in_place_operand(call.arg_b, *context);
  if (info == 0 && !b_in_place && call.arg_b.desc[field::kCtxt - 1] != context->blacs_context)
    info = field_info(kDescB, field::kCtxt);
  info = agreed_info(context->grid.comm, info);
  int status = HETSCAL_SUCCESS;
  mpi::CallerMatrix caller;
  if (info == 0 && !b_in_place)  // collective over the same processes: every one is here
    info = describe(context->grid, context->blacs_context, call.arg_b, caller, status);
  if (status != HETSCAL_SUCCESS) return LapackOutcome::failed(status);
  if (info != 0 || call.n == 0 || call.nrhs == 0) return LapackOutcome::of_info(info);
  const HeteroMatrix a = hetero_matrix(*context, call.arg_a.desc);
  const MPI_Comm comm = context->grid.comm;
  if (b_in_place) {
    const HeteroMatrix b = hetero_matrix(*context, call.arg_b.desc);
    solve_with_factor(*call.uplo, view(a, call.a), view(b, call.b), comm);
    return LapackOutcome::of_info(0);
  }
  MovedOperand b(comm, std::move(caller), hetero_matrix(*context, call.n, call.nrhs),
                 Written::Whole);
  mpi::run_agreed(comm, mpi::stage_name(mpi::Stage::Allocate), [&] {
    mpi::fault_point(mpi::Stage::Allocate);
    b.allocate();
  });
  b.move_in(call.b);
  solve_with_factor(*call.uplo, view(a, call.a), b.view(), comm);
  b.move_back(call.b);
  return LapackOutcome::of_info(0);
}

/// Both on ScaLAPACK descriptors: moved into the layout hetero_pdpotrf plans for N.
LapackOutcome both_moved(const Call& call) {
  const int blacs_context = call.arg_a.desc[field::kCtxt - 1];
  const mpi::ContextInfo* grid = nullptr;
  try {
    grid = &mpi::context_info(blacs_context);
  } catch (const std::exception&) {
    return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));
  }
  int status = HETSCAL_SUCCESS;
  mpi::CallerMatrix caller_a, caller_b;
  const int info_a = describe(*grid, blacs_context, call.arg_a, caller_a, status);
  const int info_b = call.arg_b.desc[0] == HETSCAL_DTYPE  // a factor moved in, B in place: no
                         ? field_info(kDescB, field::kDtype)
                         : describe(*grid, blacs_context, call.arg_b, caller_b, status);
  const int scalars = scalar_info(call);
  const int info = agreed_info(grid->comm, scalars != 0 ? scalars : info_a != 0 ? info_a : info_b);
  if (status != HETSCAL_SUCCESS) return LapackOutcome::failed(status);
  if (info != 0) return LapackOutcome::of_info(info);
  const Context* context = latest_context_of(blacs_context);
  if (!context) return LapackOutcome::failed(HETSCAL_ERR_CONTEXT);
  if (call.n == 0 || call.nrhs == 0) return LapackOutcome::of_info(0);
  std::shared_ptr<const ContextLayout> planned;
  try {  // deterministic: every process plans the same layout or fails alike
    planned = context->plan_cholesky(
        call.n, runtime::caller_layout(context->grid, call.arg_a.desc, call.arg_a.ia, call.arg_a.ja));
  } catch (const Error&) {
    return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  }
  const MPI_Comm comm = context->grid.comm;
  const int me = context->grid.my_rank;
  MovedOperand a(comm, std::move(caller_a), hetero_matrix(*planned, me, call.n, call.n),
                 Written::Whole);
  MovedOperand b(comm, std::move(caller_b), hetero_matrix(*planned, me, call.n, call.nrhs),
                 Written::Whole);
  mpi::run_agreed(comm, mpi::stage_name(mpi::Stage::Allocate), [&] {
    mpi::fault_point(mpi::Stage::Allocate);
    a.allocate();
    b.allocate();
  });
  a.move_in(call.a);
  b.move_in(call.b);
  const kernels::DistributedMatrix<double> factor = a.view();
  solve_with_factor(*call.uplo, {factor.distribution, factor.storage, factor.data}, b.view(), comm);
  b.move_back(call.b);
  return LapackOutcome::of_info(0);
}

}  // namespace
}  // namespace hetscal::api

extern "C" int hetero_pdpotrs(const char* uplo, int n, int nrhs, const double* a, int ia, int ja,
                              const int* desca, double* b, int ib, int jb, const int* descb,
                              int* info) {
  using namespace hetscal::api;
  return report(info, [&] {
    Call call;
    call.uplo = hetscal::runtime::parse_uplo(uplo);
    call.n = n;
    call.nrhs = nrhs;
    call.a = a;
    call.b = b;
    call.arg_a = {n, kN, n, kN, ia, ja, desca, kDescA};
    call.arg_b = {n, kN, nrhs, kNrhs, ib, jb, descb, kDescB};
    return desca[0] == HETSCAL_DTYPE ? factor_in_place(call) : both_moved(call);
  });
}

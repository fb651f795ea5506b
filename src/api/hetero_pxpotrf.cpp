// Native API: hetero_p{s,d,c,z}potrf, PxPOTRF's arguments (one implementation over the
// element type; complex: Hermitian, the diagonal's imaginary parts not read), computed by hetscal's
// Cholesky kernel in place on a hetscal descriptor, or on a ScaLAPACK sub(A) moved in and (its
// triangle) back.
#include <optional>

#include "api/copied_operands.hpp"
#include "api/hetero_matrix.hpp"
#include "api/kept_balanced.hpp"
#include "api/lapack_outcome.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/cholesky.hpp"
#include "kernels/local_blas.hpp"
#include "runtime/abi_options.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDPOTRF's INFO names them.
enum Position { kUplo = 1, kN = 2, kDescA = 6 };

using Uplo = std::optional<kernels::Uplo>;

template <typename T>
LapackOutcome in_place(const Uplo& uplo, int n, T* a, const layout::MatrixArgument& arg) {
  Context* context = find_context(arg.desc[field::kCtxt - 1]);
  if (!context) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));  // no grid: local
  int info = !uplo ? -kUplo : n < 0 ? -kN : 0;
  if (info == 0) info = check_in_place_operand(arg, *context);
  info = agreed_info(context->grid.comm, info);
  if (info != 0 || n == 0) return LapackOutcome::of_info(info);
  start_native_call(*context, kernels::potrf_flops<T>(n), {call_operand(a, arg.desc)});
  const HeteroMatrix h = hetero_matrix(*context, arg.desc);
  return LapackOutcome::of_info(
      static_cast<int>(kernels::cholesky<T>(*uplo, view(h, a), context->grid.comm)));
}

template <typename T>
LapackOutcome moved(const Uplo& uplo, int n, T* a, const layout::MatrixArgument& arg) {
  const int blacs_context = arg.desc[field::kCtxt - 1];
  const mpi::ContextInfo* grid = scalapack_grid(blacs_context);
  if (!grid) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));
  mpi::CallerMatrix caller;
  const int described =
      describe_scalapack_operand(*grid, blacs_context, arg, caller);  // collective
  if (described > 0) return LapackOutcome::failed(described);
  const int info = agreed_info(grid->comm, !uplo ? -kUplo : described);
  if (info != 0) return LapackOutcome::of_info(info);
  const Context* context = latest_context_of(blacs_context);
  if (!context) return LapackOutcome::failed(HETSCAL_ERR_CONTEXT);
  if (n == 0) return LapackOutcome::of_info(0);
  const auto planned = planned_layout(*context, core::Routine::Cholesky, n, n, caller);
  if (!planned) return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  const auto operands = [&] {
    return std::vector<CopiedOperand<T>>{{a, caller_view(std::move(caller)), planned.get(), n, n, triangle_of(*uplo)}};
  };
  return LapackOutcome::of_info(compute_on_copies<T>(  // the partial factor too when INFO > 0
      *context, operands, [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
        return kernels::cholesky<T>(*uplo, copies[0], comm);
      }));
}

template <typename T>
int hetero_pxpotrf(const char* uplo, int n, T* a, int ia, int ja, const int* desca, int* info) {
  return report(info, [&] {
    const Uplo parsed = runtime::parse_uplo(uplo);
    const layout::MatrixArgument arg{n, kN, n, kN, ia, ja, desca, kDescA};
    return desca[0] == HETSCAL_DTYPE ? in_place(parsed, n, a, arg) : moved(parsed, n, a, arg);
  });
}

}  // namespace
}  // namespace hetscal::api

#define HETSCAL_POTRF_ENTRY(name, T)                                                   \
  extern "C" int name(const char* uplo, int n, T* a, int ia, int ja, const int* desca, \
                      int* info) {                                                     \
    return hetscal::api::hetero_pxpotrf(uplo, n, a, ia, ja, desca, info);              \
  }
HETSCAL_POTRF_ENTRY(hetero_pspotrf, float)
HETSCAL_POTRF_ENTRY(hetero_pdpotrf, double)
HETSCAL_POTRF_ENTRY(hetero_pcpotrf, hetscal_complex_float)
HETSCAL_POTRF_ENTRY(hetero_pzpotrf, hetscal_complex_double)
#undef HETSCAL_POTRF_ENTRY

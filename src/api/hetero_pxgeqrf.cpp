// Native API: hetero_p{s,d,c,z}geqrf, PxGEQRF's arguments less WORK and LWORK (one
// implementation over the element type; complex reflectors and τ as xLARFG's), computed by
// hetscal's Householder QR kernel in place on a hetscal descriptor (TAU in hetscal's format), or on
// a ScaLAPACK sub(A) moved in and back (TAU in PDGEQRF's, through the shim's
// runtime::write_scalapack_tau).
#include <algorithm>
#include <vector>

#include "api/copied_operands.hpp"
#include "api/hetero_matrix.hpp"
#include "api/kept_balanced.hpp"
#include "api/lapack_outcome.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/qr.hpp"
#include "mpi/agreement.hpp"
#include "runtime/scalapack_tau.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDGEQRF's INFO names them.
enum Position { kM = 1, kN = 2, kDescA = 6 };

template <typename T>
struct Call {
  int m = 0, n = 0;
  T* a = nullptr;
  T* tau = nullptr;
  layout::MatrixArgument arg;

  bool empty() const { return m == 0 || n == 0; }
};

/// kernels::qr on `a` with the panel options `layout` was planned with: τ of the min(M, N)
/// reflectors, the same on every process.
template <typename T>
std::vector<T> factor(kernels::DistributedMatrix<T> a, const ContextLayout& layout,
                      const Call<T>& call, MPI_Comm comm) {
  // Agreed: a rank short of memory for its τ fails the call with the others.
  std::vector<T> tau;
  mpi::run_agreed(comm, "compute", [&] { tau.resize(static_cast<std::size_t>(std::min(call.m, call.n))); });
  kernels::qr<T>(a, tau.data(), comm, layout.lu_options);
  return tau;
}

template <typename T>
LapackOutcome in_place(const Call<T>& call) {
  Context* context = find_context(call.arg.desc[field::kCtxt - 1]);
  if (!context) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));  // local
  int info = call.m < 0 ? -kM : call.n < 0 ? -kN : 0;
  if (info == 0) info = check_in_place_operand(call.arg, *context);
  info = agreed_info(context->grid.comm, info);
  if (info != 0 || call.empty()) return LapackOutcome::of_info(info);
  start_native_call(*context, kernels::geqrf_flops<T>(call.m, call.n),
                    {call_operand(call.a, call.arg.desc)});
  const HeteroMatrix h = hetero_matrix(*context, call.arg.desc);
  const std::vector<T> tau = factor(view(h, call.a), context->layout, call, context->grid.comm);
  std::copy(tau.begin(), tau.end(), call.tau);
  return LapackOutcome::of_info(0);
}

template <typename T>
LapackOutcome moved(const Call<T>& call) {
  const int blacs_context = call.arg.desc[field::kCtxt - 1];
  const mpi::ContextInfo* grid = scalapack_grid(blacs_context);
  if (!grid) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));
  mpi::CallerMatrix caller;  // CHK1MAT's checks, as PDGEQRF makes them
  const int info = describe_scalapack_operand(*grid, blacs_context, call.arg, caller,
                                              mpi::CheckRules::Scalapack);
  if (info > 0) return LapackOutcome::failed(info);
  if (info != 0) return LapackOutcome::of_info(info);  // the same on every process
  const Context* context = latest_context_of(blacs_context);
  if (!context) return LapackOutcome::failed(HETSCAL_ERR_CONTEXT);
  if (call.empty()) return LapackOutcome::of_info(0);
  const auto planned = planned_layout(*context, core::Routine::QR, call.m, call.n, caller);
  const layout::Descriptor desc_a = caller.distribution->descriptor();  // caller moves below
  if (!planned) return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  std::vector<T> tau;
  const auto operands = [&] {
    return std::vector<CopiedOperand<T>>{{call.a, caller_view(std::move(caller)), planned.get(), call.m, call.n}};
  };
  compute_on_copies<T>(*context, operands,
                       [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
                         tau = factor(copies[0], *planned, call, comm);
                         return 0;
                       });
  runtime::write_scalapack_tau(*grid, desc_a, call.arg.ja, call.m, call.n, tau.data(),
                               call.tau);
  return LapackOutcome::of_info(0);
}

template <typename T>
int hetero_pxgeqrf(int m, int n, T* a, int ia, int ja, const int* desca, T* tau, int* info) {
  return report(info, [&] {
    const Call<T> call{m, n, a, tau, {m, kM, n, kN, ia, ja, desca, kDescA}};
    return desca[0] == HETSCAL_DTYPE ? in_place(call) : moved(call);
  });
}

}  // namespace
}  // namespace hetscal::api

#define HETSCAL_GEQRF_ENTRY(name, T)                                                             \
  extern "C" int name(int m, int n, T* a, int ia, int ja, const int* desca, T* tau, int* info) { \
    return hetscal::api::hetero_pxgeqrf(m, n, a, ia, ja, desca, tau, info);                      \
  }
HETSCAL_GEQRF_ENTRY(hetero_psgeqrf, float)
HETSCAL_GEQRF_ENTRY(hetero_pdgeqrf, double)
HETSCAL_GEQRF_ENTRY(hetero_pcgeqrf, hetscal_complex_float)
HETSCAL_GEQRF_ENTRY(hetero_pzgeqrf, hetscal_complex_double)
#undef HETSCAL_GEQRF_ENTRY

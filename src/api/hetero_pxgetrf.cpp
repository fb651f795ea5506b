// Native API: hetero_p{s,d,c,z}getrf, PxGETRF's arguments (one implementation over the element
// type), computed by hetscal's LU kernel in place
// on a hetscal descriptor (pivots in hetscal's format), or on a ScaLAPACK sub(A) moved in
// and back (IPIV in ScaLAPACK's format, through the shim's runtime::write_scalapack_pivots).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "api/copied_operands.hpp"
#include "api/hetero_matrix.hpp"
#include "api/kept_balanced.hpp"
#include "api/lapack_outcome.hpp"
#include "api/pivot_formats.hpp"
#include "api/scalapack_operand.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/lu.hpp"
#include "mpi/agreement.hpp"
#include "layout/block_cyclic.hpp"
#include "runtime/scalapack_pivots.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDGETRF's INFO names them.
enum Position { kM = 1, kN = 2, kIa = 4, kJa = 5, kDescA = 6 };

template <typename T>
struct Call {
  int m = 0, n = 0;
  T* a = nullptr;
  int* ipiv = nullptr;
  layout::MatrixArgument arg;
};

/// kernels::lu on `a` with the panel options `layout` was planned with: the pivots
/// (min(M, N), 0-based) and INFO.
template <typename T>
std::int64_t factor(kernels::DistributedMatrix<T> a, const ContextLayout& layout,
                    const Call<T>& call, MPI_Comm comm, std::vector<std::int64_t>& pivots) {
  // Agreed: a rank short of memory for its pivots fails the call with the others.
  mpi::run_agreed(comm, "compute", [&] { pivots.assign(static_cast<std::size_t>(std::min(call.m, call.n)), 0); });
  return kernels::lu<T>(a, pivots.data(), comm, layout.lu_options);
}

template <typename T>
LapackOutcome in_place(const Call<T>& call) {
  Context* context = find_context(call.arg.desc[field::kCtxt - 1]);
  if (!context) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));  // local
  int info = call.m < 0 ? -kM : call.n < 0 ? -kN : 0;
  if (info == 0) info = check_in_place_operand(call.arg, *context);
  info = agreed_info(context->grid.comm, info);
  if (info != 0 || call.m == 0 || call.n == 0) return LapackOutcome::of_info(info);
  start_native_call(*context, kernels::getrf_flops<T>(call.m, call.n),
                    {call_operand(call.a, call.arg.desc)});
  const HeteroMatrix h = hetero_matrix(*context, call.arg.desc);
  std::vector<std::int64_t> pivots;
  const std::int64_t zero_pivot =
      factor(view(h, call.a), context->layout, call, context->grid.comm, pivots);
  write_hetscal_pivots(pivots, call.ipiv);
  return LapackOutcome::of_info(static_cast<int>(zero_pivot));
}

/// PDGETRF's own refusals once sub(A) passed the common checks: a 9-entry descriptor (else
/// DESCA's DTYPE field), sub(A) starting on a block boundary (else IA's or JA's code) and
/// square blocks (else DESCA's NB field).
int pdgetrf_alignment_info(const mpi::ContextInfo& grid, const layout::MatrixArgument& arg,
                           const layout::Descriptor& d) {
  if (d.type != layout::DescriptorType::BlockCyclic2D) return field_info(kDescA, field::kDtype);
  if (layout::block_remainder(d.row_axis(grid.nprow), arg.ia - 1) != d.mb) return -kIa;
  if (layout::block_remainder(d.col_axis(grid.npcol), arg.ja - 1) != d.nb) return -kJa;
  return d.mb != d.nb ? field_info(kDescA, field::kNb) : 0;
}

template <typename T>
LapackOutcome moved(const Call<T>& call) {
  const int blacs_context = call.arg.desc[field::kCtxt - 1];
  const mpi::ContextInfo* grid = scalapack_grid(blacs_context);
  if (!grid) return LapackOutcome::of_info(field_info(kDescA, field::kCtxt));
  mpi::CallerMatrix caller;
  const int described = describe_scalapack_operand(*grid, blacs_context, call.arg, caller);
  if (described > 0) return LapackOutcome::failed(described);
  const int info = described != 0 ? described : pdgetrf_alignment_info(*grid, call.arg, caller.distribution->descriptor());
  if (info != 0) return LapackOutcome::of_info(info);  // the same on every process
  const Context* context = latest_context_of(blacs_context);
  if (!context) return LapackOutcome::failed(HETSCAL_ERR_CONTEXT);
  if (call.arg.desc[field::kM - 1] == 1) {  // PDGETRF's quick return for a one-row A
    call.ipiv[0] = 1;
    return LapackOutcome::of_info(0);
  }
  if (call.m == 0 || call.n == 0) return LapackOutcome::of_info(0);
  const auto planned = planned_layout(*context, core::Routine::LU, call.m, call.n, caller);
  const layout::Descriptor desc_a = caller.distribution->descriptor();  // caller moves below
  if (!planned) return LapackOutcome::failed(HETSCAL_ERR_NO_PLAN);
  std::vector<std::int64_t> pivots;
  const auto operands = [&] {
    return std::vector<CopiedOperand<T>>{{call.a, caller_view(std::move(caller)), planned.get(), call.m, call.n}};
  };
  const int zero_pivot = compute_on_copies<T>(  // completed even when INFO > 0
      *context, operands, [&](const std::vector<kernels::DistributedMatrix<T>>& copies, MPI_Comm comm) {
        return factor(copies[0], *planned, call, comm, pivots);
      });
  runtime::write_scalapack_pivots(*grid, desc_a, call.arg.ia, call.arg.ja, call.m, call.n,
                                  pivots.data(), call.ipiv);
  return LapackOutcome::of_info(zero_pivot);
}

template <typename T>
int hetero_pxgetrf(int m, int n, T* a, int ia, int ja, const int* desca, int* ipiv, int* info) {
  return report(info, [&] {
    const Call<T> call{m, n, a, ipiv, {m, kM, n, kN, ia, ja, desca, kDescA}};
    return desca[0] == HETSCAL_DTYPE ? in_place(call) : moved(call);
  });
}

}  // namespace
}  // namespace hetscal::api

#define HETSCAL_GETRF_ENTRY(name, T)                                                   \
  extern "C" int name(int m, int n, T* a, int ia, int ja, const int* desca, int* ipiv, \
                      int* info) {                                                     \
    return hetscal::api::hetero_pxgetrf(m, n, a, ia, ja, desca, ipiv, info);           \
  }
HETSCAL_GETRF_ENTRY(hetero_psgetrf, float)
HETSCAL_GETRF_ENTRY(hetero_pdgetrf, double)
HETSCAL_GETRF_ENTRY(hetero_pcgetrf, hetscal_complex_float)
HETSCAL_GETRF_ENTRY(hetero_pzgetrf, hetscal_complex_double)
#undef HETSCAL_GETRF_ENTRY

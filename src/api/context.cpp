// Native API: creating, freeing and querying hetscal contexts (hetscal.h).
#include <mpi.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/context_registry.hpp"
#include "core/common/error.hpp"
#include "hetscal/hetscal.h"
#include "layout/local_storage.hpp"
#include "mpi/agree_on_speeds.hpp"
#include "runtime/config.hpp"
#include "runtime/context_state.hpp"
#include "runtime/pricing.hpp"
#include "runtime/speed_probe.hpp"

namespace hetscal::api {
namespace {

// This process's own speed when the caller passed none: HETSCAL_SPEEDS / HETSCAL_SPEEDS_FILE
// as the shim reads them, else a short local DGEMM. 0 when the configuration is malformed or
// does not cover this process: the agreement then refuses the speeds on every process alike,
// instead of this process leaving the collective.
double configured_speed() {
  std::string problem;
  try {
    const runtime::Configuration& config = runtime::process_configuration();
    if (config.valid() && config.speeds.source == runtime::SpeedSource::None) {
      return runtime::probed_speed();
    }
    return runtime::configured_speed(config, problem);
  } catch (const std::exception&) {
    return 0.0;
  }
}

// Speeds every process of the grid agrees on: the caller's list, or the configured ones.
// @throws InvalidArgument on every process when they differ or a value is not > 0.
std::vector<double> agreed_speeds(const mpi::ContextInfo& grid, const double* speeds) {
  const core::Speeds agreed =
      speeds
          ? mpi::agree_on_speeds(grid.comm, std::vector<double>(speeds, speeds + grid.num_ranks()))
          : mpi::agree_on_speeds(grid.comm, configured_speed());
  return agreed.speeds();
}

// Unknown routine or layout codes (hetscal.h) give nullopt.
std::optional<core::Routine> routine_of(int code) {
  switch (code) {
    case HETSCAL_ROUTINE_GEMM:
      return core::Routine::Gemm;
    case HETSCAL_ROUTINE_GETRF:
      return core::Routine::LU;
    case HETSCAL_ROUTINE_GEQRF:
      return core::Routine::QR;
    case HETSCAL_ROUTINE_POTRF:
      return core::Routine::Cholesky;
    default:
      return std::nullopt;
  }
}
std::optional<LayoutKind> layout_kind_of(int code) {
  switch (code) {
    case HETSCAL_LAYOUT_ANY:
      return LayoutKind::Any;
    case HETSCAL_LAYOUT_CARTESIAN:
      return LayoutKind::Cartesian;
    case HETSCAL_LAYOUT_PATTERN:
      return LayoutKind::Pattern;
    default:
      return std::nullopt;
  }
}

// The request the header's rules accept, or nullopt: GEMM needs M, N, K >= 1; LU and QR
// M, N >= 1 (K unused); Cholesky M = N >= 1 (K unused).
std::optional<LayoutRequest> request_of(int routine, int layout, int m, int n, int k) {
  const std::optional<core::Routine> r = routine_of(routine);
  const std::optional<LayoutKind> kind = layout_kind_of(layout);
  if (!r || !kind || m < 1 || n < 1) return std::nullopt;
  if (*r == core::Routine::Gemm && k < 1) return std::nullopt;
  if (*r == core::Routine::Cholesky && m != n) return std::nullopt;
  return LayoutRequest{*r, *kind, m, n, *r == core::Routine::Gemm ? k : n, core::CallerLayout{}};
}

// Where a context's matrices come from and go back to (hetscal_scatter, hetscal_gather): a
// block-cyclic matrix on the context's BLACS grid, at the model's default block size since
// the caller's is not known yet.
core::CallerLayout block_cyclic_on(const mpi::ContextInfo& grid) {
  core::CallerLayout caller;
  caller.grid_rows = static_cast<std::size_t>(grid.nprow);
  caller.grid_cols = static_cast<std::size_t>(grid.npcol);
  for (const int rank : grid.rank_table) caller.processor_at.push_back(static_cast<std::size_t>(rank));
  return caller;
}

int create(int blacs_context, const double* speeds, const std::optional<LayoutRequest>& request,
           hetscal_context_t* ctx) {
  if (!ctx) return HETSCAL_ERR_ARGUMENT;
  *ctx = HETSCAL_CONTEXT_NULL;
  if (!request) return HETSCAL_ERR_ARGUMENT;
  auto context = std::make_unique<Context>();
  try {
    context->grid = mpi::context_info(blacs_context);
  } catch (const std::exception&) {
    return HETSCAL_ERR_CONTEXT;
  }
  context->blacs_context = blacs_context;
  try {
    context->speeds = agreed_speeds(context->grid, speeds);
  } catch (const InvalidArgument&) {
    return HETSCAL_ERR_SPEEDS;
  }
  try {
    context->resources.machine = runtime::measure_machine(context->grid.comm, context->speeds);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
  context->request = *request;
  context->request.caller = block_cyclic_on(context->grid);
  try {  // deterministic: every process plans the same layout or fails alike
    context->layout =
        plan_context_layout(context->request, context->speeds, context->machine().platform());
  } catch (const Error&) {  // no layout fits the dimensions, or the memory
    return HETSCAL_ERR_NO_PLAN;
  }
  const MPI_Comm blacs_comm = context->grid.comm;
  context->grid.comm = MPI_COMM_NULL;
  if (MPI_Comm_dup(blacs_comm, &context->grid.comm) != MPI_SUCCESS) return HETSCAL_ERR_INTERNAL;
  *ctx = register_context(std::move(context)).handle;
  return HETSCAL_SUCCESS;
}

int guarded_create(int blacs_context, const double* speeds,
                   const std::optional<LayoutRequest>& request, hetscal_context_t* ctx) {
  try {
    return create(blacs_context, speeds, request, ctx);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
}

}  // namespace
}  // namespace hetscal::api

using hetscal::api::Context;
using hetscal::api::find_context;

extern "C" int hetscal_gemm_context_create(int blacs_context, const double* speeds, int m, int n,
                                           int k, hetscal_context_t* ctx) {
  return hetscal::api::guarded_create(
      blacs_context, speeds,
      hetscal::api::request_of(HETSCAL_ROUTINE_GEMM, HETSCAL_LAYOUT_CARTESIAN, m, n, k), ctx);
}

extern "C" int hetscal_context_create(int blacs_context, const double* speeds, int routine,
                                      int layout, int m, int n, int k, hetscal_context_t* ctx) {
  return hetscal::api::guarded_create(blacs_context, speeds,
                                      hetscal::api::request_of(routine, layout, m, n, k), ctx);
}

extern "C" int hetscal_context_free(hetscal_context_t* ctx) {
  if (!ctx || !hetscal::api::erase_context(*ctx)) return HETSCAL_ERR_CONTEXT;
  *ctx = HETSCAL_CONTEXT_NULL;
  return HETSCAL_SUCCESS;
}

extern "C" int hetscal_context_layout(hetscal_context_t ctx) {
  const Context* context = find_context(ctx);
  if (!context) return -1;
  return context->layout.cartesian() ? HETSCAL_LAYOUT_CARTESIAN : HETSCAL_LAYOUT_PATTERN;
}

extern "C" int hetscal_context_grid(hetscal_context_t ctx, int* nprow, int* npcol, int* myrow,
                                    int* mycol) {
  const Context* context = find_context(ctx);
  if (!context) return HETSCAL_ERR_CONTEXT;
  const hetscal::core::Candidate& planned = context->layout.candidate;
  std::optional<hetscal::layout::GridCoord> me;
  if (context->layout.cartesian())
    me = context->layout.grid->grid().coordinates(context->grid.my_rank);
  if (nprow) *nprow = static_cast<int>(planned.rows);
  if (npcol) *npcol = static_cast<int>(planned.cols);
  if (myrow) *myrow = me ? me->row : -1;
  if (mycol) *mycol = me ? me->col : -1;
  return HETSCAL_SUCCESS;
}

extern "C" int hetscal_context_tile(hetscal_context_t ctx) {
  const Context* context = find_context(ctx);
  return context ? static_cast<int>(context->tile()) : -1;
}

extern "C" int hetscal_context_participates(hetscal_context_t ctx) {
  const Context* context = find_context(ctx);
  if (!context) return -1;
  const hetscal::api::LayoutRequest& request = context->request;
  const auto planned = context->layout.distribution(request.m, request.n);
  const auto mine = context->layout.storage(*planned, context->grid.my_rank, 0);
  return mine->owned_tiles().empty() ? 0 : 1;
}

extern "C" int hetscal_context_prediction(hetscal_context_t ctx, double* seconds, double* balance,
                                          double* speedup) {
  const Context* context = find_context(ctx);
  if (!context) return HETSCAL_ERR_CONTEXT;
  namespace api = hetscal::api;
  try {
    const hetscal::core::Platform platform = context->machine().platform();
    const hetscal::core::Problem problem = context->request.problem();
    const double planned_s =
        hetscal::runtime::predicted_compute_seconds(platform, problem, context->layout.candidate);
    if (seconds) *seconds = planned_s;
    if (balance) *balance = api::layout_balance(context->layout, context->request, context->speeds);
    if (speedup) {
      *speedup = hetscal::runtime::predicted_compute_seconds(
                     platform, problem,
                     api::scalapack_candidate(context->layout.candidate, context->speeds.size())) /
                 planned_s;
    }
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
  return HETSCAL_SUCCESS;
}

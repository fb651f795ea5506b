// Native API: creating, freeing and querying hetscal contexts (hetscal.h).
#include <mpi.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "api/context_registry.hpp"
#include "core/error.hpp"
#include "hetscal/hetscal.h"
#include "runtime/config.hpp"
#include "runtime/context_state.hpp"
#include "runtime/pricing.hpp"
#include "runtime/speed_probe.hpp"
#include "layout/local_storage.hpp"
#include "mpi/agree_on_speeds.hpp"

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

int create(int blacs_context, const double* speeds, int m, int n, int k, hetscal_context_t* ctx) {
  if (!ctx) return HETSCAL_ERR_ARGUMENT;
  *ctx = HETSCAL_CONTEXT_NULL;
  if (m < 1 || n < 1 || k < 1) return HETSCAL_ERR_ARGUMENT;
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
  context->m = m;
  context->n = n;
  context->k = k;
  try {  // deterministic: every process plans the same layout or fails alike
    context->plan = context->plan_gemm(m, n, k);
  } catch (const InvalidArgument&) {
    return HETSCAL_ERR_NO_PLAN;
  }
  try {
    context->machine = runtime::measure_machine(context->grid.comm, context->speeds);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
  const MPI_Comm blacs_comm = context->grid.comm;
  context->grid.comm = MPI_COMM_NULL;
  if (MPI_Comm_dup(blacs_comm, &context->grid.comm) != MPI_SUCCESS) return HETSCAL_ERR_INTERNAL;
  *ctx = register_context(std::move(context)).handle;
  return HETSCAL_SUCCESS;
}

}  // namespace
}  // namespace hetscal::api

using hetscal::api::Context;
using hetscal::api::find_context;

extern "C" int hetscal_gemm_context_create(int blacs_context, const double* speeds, int m, int n,
                                           int k, hetscal_context_t* ctx) {
  try {
    return hetscal::api::create(blacs_context, speeds, m, n, k, ctx);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
}

extern "C" int hetscal_context_free(hetscal_context_t* ctx) {
  if (!ctx || !hetscal::api::erase_context(*ctx)) return HETSCAL_ERR_CONTEXT;
  *ctx = HETSCAL_CONTEXT_NULL;
  return HETSCAL_SUCCESS;
}

extern "C" int hetscal_context_grid(hetscal_context_t ctx, int* nprow, int* npcol, int* myrow,
                                    int* mycol) {
  const Context* context = find_context(ctx);
  if (!context) return HETSCAL_ERR_CONTEXT;
  const hetscal::layout::ProcessGrid& grid = context->layout().grid();
  const auto me = grid.coordinates(context->grid.my_rank);
  if (nprow) *nprow = grid.nprow();
  if (npcol) *npcol = grid.npcol();
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
  const hetscal::layout::CartesianLocalLayout mine(context->layout(), context->grid.my_rank);
  return mine.local_rows() > 0 && mine.local_cols() > 0 ? 1 : 0;
}

extern "C" int hetscal_context_prediction(hetscal_context_t ctx, double* seconds, double* balance,
                                          double* speedup) {
  const Context* context = find_context(ctx);
  if (!context) return HETSCAL_ERR_CONTEXT;
  namespace runtime = hetscal::runtime;
  hetscal::core::Problem problem;
  problem.routine = hetscal::core::Routine::Gemm;
  problem.m = static_cast<std::size_t>(context->m);
  problem.n = static_cast<std::size_t>(context->n);
  problem.k = static_cast<std::size_t>(context->k);
  const hetscal::core::Candidate& planned = context->plan->candidate;
  // ScaLAPACK's layout on the same grid: equal shares for every grid row and column.
  hetscal::core::Candidate even = planned;
  std::fill(even.row_share.begin(), even.row_share.end(), 1.0);
  std::fill(even.col_share.begin(), even.col_share.end(), 1.0);
  try {
    const hetscal::core::Platform platform = context->machine.platform();
    const double planned_s = runtime::predicted_compute_seconds(platform, problem, planned);
    if (seconds) *seconds = planned_s;
    if (balance) *balance = runtime::predicted_balance(context->plan->load);
    if (speedup) *speedup = runtime::predicted_compute_seconds(platform, problem, even) / planned_s;
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
  return HETSCAL_SUCCESS;
}

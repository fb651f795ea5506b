// Native API: speeds learnt by the native calls, and a context's registered matrices
// rebalanced automatically when they change (hetscal_context_keep_balanced); see
// api/kept_balanced.hpp.
#include "api/kept_balanced.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "api/context_rebalance.hpp"
#include "core/adaptation/speed_tracking.hpp"
#include "hetscal/hetscal.h"
#include "mpi/mpi_error.hpp"
#include "runtime/adaptation.hpp"
#include "runtime/context_state.hpp"
#include "runtime/report.hpp"

namespace hetscal::api {
namespace {

// The adaptation state of the context's BLACS grid, or nullptr when that grid is gone (the
// context outlives it with its own communicator; the same on every process).
runtime::ContextState* adaptation_state(const Context& context) {
  try {
    return &runtime::context_state(context.blacs_context);
  } catch (const std::exception&) {
    return nullptr;
  }
}

bool registered(const KeptBalance& kept, const CallOperand& operand) {
  return operand.holds_doubles &&
         std::any_of(kept.matrices.begin(), kept.matrices.end(), [&](const KeptMatrix& x) {
           return x.array == operand.array && x.desc == operand.desc;
         });
}

// Whether every operand is a registered matrix on every process (one may have been given a
// copy of a descriptor, which the rebalancing would leave stale).
bool all_registered(const Context& context, std::initializer_list<CallOperand> operands) {
  int all = std::all_of(operands.begin(), operands.end(),
                        [&](const CallOperand& x) { return registered(context.kept_balance, x); });
  mpi::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, context.grid.comm),
                 "MPI_Allreduce");
  return all != 0;
}

std::string context_name(const Context& context) {
  return "context " + std::to_string(context.handle);
}

// Under HETSCAL_VERBOSE=1 once per reason, at 2 every time.
void refuse(Context& context, const runtime::ContextState& state, const std::string& why) {
  context.kept_balance.refusal = why;
  const std::string message = context_name(context) + " not rebalanced automatically: " + why +
                              "; computing on the layout it has";
  runtime::report_once_per_key(state.verbosity, state.is_root(), message, message);
}

void record(Context& context, const runtime::ContextState& state, const std::vector<double>& speeds,
            double gain, const hetscal_rebalance_report& report) {
  KeptBalance& kept = context.kept_balance;
  ++kept.rebalancings;
  kept.last = report;
  kept.refusal.clear();
  char figures[320];
  std::snprintf(figures, sizeof figures,
                " (the old layout took x%.2f the balanced time): moved %lld of %lld elements (%d "
                "column and %d row migrations); a fresh plan would move %lld, a full "
                "redistribution %lld",
                gain, report.moved_elements, report.total_elements, report.column_migrations,
                report.row_migrations, report.fresh_elements, report.total_elements);
  runtime::report_always(state.verbosity, runtime::Verbosity::Once, state.is_root(),
                         context_name(context) + " rebalanced automatically for speeds " +
                             runtime::speeds_text(speeds) + figures);
}

// The speeds the estimates plan with, as the shim plans (nearly uniform ones as uniform).
std::vector<double> planning_speeds(const core::SpeedTracker& tracker) {
  std::vector<double> speeds = tracker.estimates();
  core::plan_nearly_uniform_as_uniform(speeds, tracker.rule().noise_band);
  return speeds;
}

}  // namespace

void start_native_call(Context& context, double call_flops,
                       std::initializer_list<CallOperand> operands) {
  runtime::ContextState* state = adaptation_state(context);
  if (!state || !runtime::adapts(*state)) return;
  // The grid's first adapted call only starts the estimates from the machine's probe: the
  // matrices wait for an observation.
  const bool observing = state->speeds.tracker.has_value();
  runtime::adapt_speeds_or_report(*state, call_flops);
  if (context.kept_balance.matrices.empty() || !observing || !state->speeds.tracker) return;
  const std::vector<double> speeds = planning_speeds(*state->speeds.tracker);
  // Against the speeds the context's layout was made for (see the header).
  const double gain = core::replanning_gain(context.speeds, speeds);
  if (gain < 1.0 + state->speeds.tracker->rule().replan_threshold) return;
  if (!all_registered(context, operands)) {
    refuse(context, *state,
           "an operand of the call is not a matrix registered by hetscal_context_keep_balanced "
           "(the same array and descriptor, double precision)");
    return;
  }
  hetscal_rebalance_report report{};
  const RebalanceOutcome outcome =
      rebalance_context(context, speeds, context.kept_balance.matrices, report);
  if (outcome.status == HETSCAL_SUCCESS)
    record(context, *state, speeds, gain, report);
  else
    refuse(context, *state, outcome.why);
}

namespace {

int keep_balanced(hetscal_context_t ctx, int nmatrices, double* const* arrays,
                  const long long* capacities, int* const* descs) {
  Context* context = find_context(ctx);
  if (!context) return HETSCAL_ERR_CONTEXT;
  if (nmatrices < 0 || (nmatrices > 0 && (!arrays || !capacities || !descs)))
    return HETSCAL_ERR_ARGUMENT;
  std::vector<KeptMatrix> matrices = kept_matrices(nmatrices, arrays, capacities, descs);
  const int status = check_kept_matrices(*context, matrices).status;
  if (status != HETSCAL_SUCCESS) return status;
  context->kept_balance.matrices = std::move(matrices);
  context->kept_balance.refusal.clear();
  return HETSCAL_SUCCESS;
}

}  // namespace
}  // namespace hetscal::api

extern "C" int hetscal_context_keep_balanced(hetscal_context_t ctx, int nmatrices,
                                             double* const* arrays, const long long* capacities,
                                             int* const* descs) {
  try {
    return hetscal::api::keep_balanced(ctx, nmatrices, arrays, capacities, descs);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
}

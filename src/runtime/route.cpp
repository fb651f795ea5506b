#include "runtime/route.hpp"

#include <algorithm>
#include <chrono>

#include "core/error.hpp"
#include "kernels/local_blas.hpp"
#include "runtime/adaptation.hpp"
#include "runtime/report.hpp"

namespace hetscal::runtime {
namespace {

// Whether the call's start observes the ranks and agrees their speeds: only calls the cheap
// rules of decide() let through (all global, so every rank of the context joins the
// collective, or none does); ScaLAPACK's own small and rank-NB PDGEMM calls cost nothing.
bool observes_speeds(const ContextState& state, const RoutedCall& call) {
  if (!state.adapt || state.disabled || !state.configuration_problem.empty() ||
      !state.speeds_problem.empty())
    return false;
  if (!state.allows(call.routine) || !call.unsupported.empty() || call.single_panel_update)
    return false;
  if (state.context->num_ranks() < 2 || call.dims.empty()) return false;
  return *std::min_element(call.dims.begin(), call.dims.end()) >= state.min_n;
}

// The call's flops on real data (LAWN 41's leading terms are enough: they size a probe).
double call_flops(const RoutedCall& call) {
  const std::vector<std::int64_t>& d = call.dims;
  switch (call.routine.routine) {
    case core::Routine::Gemm:
      return kernels::gemm_flops(d.at(0), d.at(1), d.at(2));
    case core::Routine::LU:
      return kernels::getrf_flops(d.at(0), d.at(1));
    case core::Routine::QR:
      return kernels::geqrf_flops(d.at(0), d.at(1));
    case core::Routine::Cholesky:
      return kernels::potrf_flops(d.at(0));
  }
  return 0.0;
}

DecisionInput decision_input(ContextState& state, const RoutedCall& call) {
  DecisionInput in;
  in.disabled = state.disabled;
  in.force = state.force;
  in.routine_allowed = state.allows(call.routine);
  in.min_n = state.min_n;
  in.configuration_problem = state.configuration_problem;
  in.speeds_problem = state.speeds_problem;
  in.routine = call.routine.name();
  in.dims = call.dims;
  in.unsupported = call.unsupported;
  in.single_panel_update = call.single_panel_update;
  in.ranks = state.context->num_ranks();
  in.speeds = state.speeds;
  in.price = [&state, &call] { return call.plan_and_price(state); };
  return in;
}

}  // namespace

TakeOverOutcome::Status route(ContextState& state, const RoutedCall& call) {
  const std::string name = call.routine.name();
  const std::string shape = name + " " + shape_text(call.dims);
  // The decision (the speeds' agreement; on a context's first call the machine's
  // calibration; then the planning) is timed apart from the call's own stages, so that the
  // verbose line shows both.
  const auto deciding = std::chrono::steady_clock::now();
  if (observes_speeds(state, call)) {
    try {
      adapt_speeds(state, call_flops(call));
    } catch (const Error& e) {
      // Every rank fails alike (a stage agreed, or the same values refused): the call is then
      // decided on the speeds already agreed.
      report_once(state.verbosity, Verbosity::Once, state.is_root(),
                  std::string("speed adaptation skipped: ") + e.what());
    }
  }
  Decision decision = decide(decision_input(state, call));
  const double decide_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - deciding).count();
  TakeOverOutcome outcome;
  if (decision.route == Route::Heterogeneous) {
    outcome = call.run();
    if (!outcome.computed()) decision.reason = outcome.reason;
  }
  const bool computed = outcome.computed();
  report_call(state.verbosity, state.is_root(), name, computed,
              shape + (computed ? " computed by hetscal: " : " forwarded: ") + decision.reason);
  if (computed) {
    report_once_per_key(
        state.verbosity, state.is_root(), shape,
        shape + " measured " + seconds_text(outcome.seconds) + " (predicted " +
            seconds_text(decision.heterogeneous_s) + "; rank 0: decide " + seconds_text(decide_s) +
            ", allocate " + seconds_text(outcome.allocate_s) + ", move in " +
            seconds_text(outcome.move_in_s) + ", compute " + seconds_text(outcome.compute_s) +
            ", move out " + seconds_text(outcome.move_out_s) + ")");
  }
  return outcome.status;
}

}  // namespace hetscal::runtime

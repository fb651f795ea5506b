#include "runtime/route.hpp"

#include <chrono>

#include "runtime/report.hpp"

namespace hetscal::runtime {
namespace {

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
  // The decision (on a context's first call: the machine's calibration, then the planning)
  // is timed apart from the call's own stages, so that the verbose line shows both.
  const auto deciding = std::chrono::steady_clock::now();
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
    report_once_per_key(state.verbosity, state.is_root(), shape,
                        shape + " measured " + seconds_text(outcome.seconds) + " (predicted " +
                            seconds_text(decision.heterogeneous_s) + "; rank 0: decide " +
                            seconds_text(decide_s) + ", allocate " +
                            seconds_text(outcome.allocate_s) + ", move in " +
                            seconds_text(outcome.move_in_s) + ", compute " +
                            seconds_text(outcome.compute_s) + ", move out " +
                            seconds_text(outcome.move_out_s) + ")");
  }
  return outcome.status;
}

}  // namespace hetscal::runtime

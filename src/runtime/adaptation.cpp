#include "runtime/adaptation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "mpi/agreement.hpp"
#include "runtime/context_state.hpp"
#include "runtime/report.hpp"

namespace hetscal::runtime {
namespace {

const char* verdict_name(core::Verdict verdict) {
  switch (verdict) {
    case core::Verdict::Unobserved: return "unobserved";
    case core::Verdict::Noise: return "noise";
    case core::Verdict::Suspect: return "suspect";
    case core::Verdict::Confirmed: return "confirmed";
  }
  return "?";
}

std::string verdicts_text(const std::vector<core::Verdict>& verdicts) {
  std::string text;
  for (std::size_t i = 0; i < verdicts.size(); ++i) text += (i ? ", " : "") + std::string(verdict_name(verdicts[i]));
  return text;
}

void report_step(const ContextState& state, const std::vector<double>& planned, const AdaptationStep& step) {
  report_always(state.verbosity, Verbosity::EveryCall, state.is_root(),
                "speeds: estimates " + speeds_text(step.estimates) + " flop/s (verdicts: " +
                    verdicts_text(step.verdicts) + ")");
  if (!step.replan) return;
  char gain[96];
  std::snprintf(gain, sizeof gain, "x%.2f the balanced time (threshold x%.2f)", step.gain,
                1.0 + state.speeds.tracker->rule().replan_threshold);
  report_always(state.verbosity, Verbosity::Once, state.is_root(),
                "speeds changed: observed " + speeds_text(step.estimates) + " flop/s (planned with " +
                    speeds_text(planned) + "): the current plan's slowest rank would take " + gain +
                    "; planning with " + speeds_text(step.speeds));
}

}  // namespace

std::string speeds_text(const std::vector<double>& speeds) {
  std::string text;
  for (std::size_t i = 0; i < speeds.size(); ++i) {
    char value[32];
    std::snprintf(value, sizeof value, "%.3g", speeds[i]);
    text += (i ? ", " : "") + std::string(value);
  }
  return text;
}

int short_probe_order(double share_flops) {
  const double affordable = std::cbrt(kProbeBudget * share_flops / 6.0);
  if (!(affordable >= kMinProbeOrder)) return 0;
  return affordable >= kMaxProbeOrder ? kMaxProbeOrder : static_cast<int>(affordable);
}

namespace {

// The context's first adapted call: the tracker starts from the machine figures (the probe,
// or the given speeds scaled by it), agreed so that every rank has one or none.
void start_tracking(ContextState& state, MachineFigures& machine) {
  try {
    mpi::run_agreed(state.context->comm, "speed tracking", [&] {
      state.speeds.tracker.emplace(machine.flops);
      state.speeds.step = AdaptationStep::for_ranks(machine.flops.size());
      state.speeds.planned = state.speeds.values;
    });
  } catch (const mpi::StageFailed&) {
    state.speeds.tracker.reset();
    throw;
  }
  state.speeds.observed_mark = kernels::compute_tally();
  // Probes of equal ranks never come out equal: within the noise band they are one speed.
  if (state.speeds.probed) {
    core::plan_nearly_uniform_as_uniform(state.speeds.values, state.speeds.tracker->rule().noise_band);
    core::plan_nearly_uniform_as_uniform(machine.flops, state.speeds.tracker->rule().noise_band);
  }
}

// Whether some rank's observation of the call just ended left the band around its estimate
// (an outlier held back, or a change confirmed): that call ran at speeds other than the ones
// it was planned and predicted with.
bool speeds_moved(const AdaptationStep& step) {
  return std::any_of(step.verdicts.begin(), step.verdicts.end(), [](core::Verdict verdict) {
    return verdict == core::Verdict::Suspect || verdict == core::Verdict::Confirmed;
  });
}

// The previous observed call's time, agreed: the slowest rank's (the call ends for the
// program when every rank is done), recorded only when every rank timed it and the speeds
// held during it. A call during which a rank slowed down measures the change of speed, not
// the model's error: charged to the route, it would hand a class to ScaLAPACK just when
// re-planning for the new speeds makes hetscal's route pay most.
void record_pending_call(ContextState& state) {
  PendingMeasurement& pending = state.measurements.pending;
  if (!pending.active) return;
  pending.active = false;
  const std::vector<double>& seconds = state.speeds.step.call_seconds;
  if (std::any_of(seconds.begin(), seconds.end(), [](double s) { return !(s > 0.0); })) return;
  if (speeds_moved(state.speeds.step)) {
    try {
      report_always(state.verbosity, Verbosity::EveryCall, state.is_root(),
                    "speeds moved during the last " + pending.routine +
                        ": its time is held against neither route");
    } catch (const std::exception&) {
      // Only the message is lost (memory); every rank skips the record alike.
    }
    return;
  }
  const double slowest = *std::max_element(seconds.begin(), seconds.end());
  state.measurements.ledger.record(pending.shape_class, pending.route, slowest, pending.predicted_s);
}

}  // namespace

void adapt_speeds(ContextState& state, double call_flops) {
  agree_probed_speeds(state);  // a native API call may be the context's first to need them
  if (!state.speeds.agreed()) return;  // said by the agreement, on every rank alike
  machine_figures(state);
  MachineFigures& machine = *state.resources.machine;
  if (!state.speeds.tracker) {
    start_tracking(state, machine);
    return;
  }
  const double share = call_flops / static_cast<double>(state.context->num_ranks());
  const double mine = observe_self(state.speeds.observed_mark, short_probe_order(share));
  // The speeds in use are kept in the step's room beside the others: copied, not allocated.
  state.speeds.planned = state.speeds.values;
  const PendingMeasurement& pending = state.measurements.pending;
  agree_on_observations(state.context->comm, *state.speeds.tracker, mine,
                        pending.active ? pending.seconds : 0.0, state.speeds.planned, state.speeds.step);
  record_pending_call(state);
  if (state.speeds.step.replan) {
    state.speeds.values = state.speeds.step.speeds;
    ++state.speeds.version;
    machine.flops = state.speeds.step.speeds;
  }
  try {
    report_step(state, state.speeds.planned, state.speeds.step);
  } catch (const std::exception&) {
    // Only the message is lost (memory); the decision stands on every rank.
  }
}

bool adapts(const ContextState& state) {
  return state.speeds.adapt && !state.settings.disabled && state.settings.problem.empty() &&
         state.speeds.problem.empty() && state.context->num_ranks() >= 2;
}

void adapt_speeds_or_report(ContextState& state, double call_flops) {
  try {
    adapt_speeds(state, call_flops);
  } catch (const Error& e) {
    // Every rank fails alike (a stage agreed, or the same values refused): the call is then
    // decided on the speeds already agreed.
    report_once(state.verbosity, Verbosity::Once, state.is_root(),
                std::string("speed adaptation skipped: ") + e.what());
  }
}

}  // namespace hetscal::runtime

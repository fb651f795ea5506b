#include "runtime/adaptation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "mpi/agreement.hpp"
#include "mpi/mpi_error.hpp"
#include "runtime/context_state.hpp"
#include "runtime/report.hpp"
#include "runtime/speed_probe.hpp"

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
                1.0 + state.tracker->rule().replan_threshold);
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

double observe_self(kernels::ComputeTally& mark, int probe_order) {
  const kernels::ComputeTally now = kernels::compute_tally();
  const double flops = now.flops - mark.flops, seconds = now.seconds - mark.seconds;
  mark = now;
  if (seconds >= kMinObservedSeconds && flops > 0.0) return flops / seconds;
  if (probe_order == 0) return 0.0;
  try {
    return short_probed_speed(probe_order);
  } catch (const std::exception&) {
    return 0.0;  // the probe's matrices (memory): this rank observes nothing this time
  }
}

AdaptationStep AdaptationStep::for_ranks(std::size_t ranks) {
  AdaptationStep step;
  step.gathered.resize(2 * ranks);
  step.observations.resize(ranks);
  step.call_seconds.resize(ranks);
  step.verdicts.reserve(ranks);
  step.estimates.reserve(ranks);
  step.speeds.reserve(ranks);
  return step;
}

void agree_on_observations(MPI_Comm comm, core::SpeedTracker& tracker, double my_observation,
                           double my_call_seconds, const std::vector<double>& planned,
                           AdaptationStep& step) {
  int size = 0;
  mpi::check_mpi(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  const auto ranks = static_cast<std::size_t>(size);
  if (planned.size() != ranks || tracker.estimates().size() != ranks || step.observations.size() != ranks ||
      step.call_seconds.size() != ranks || step.gathered.size() != 2 * ranks)
    throw InvalidArgument("speed adaptation: " + std::to_string(planned.size()) + " planned speeds, " +
                          std::to_string(tracker.estimates().size()) + " estimates and room for " +
                          std::to_string(step.observations.size()) + " observations for " +
                          std::to_string(size) + " ranks");
  const double mine[2] = {my_observation, my_call_seconds};
  mpi::check_mpi(MPI_Allgather(mine, 2, MPI_DOUBLE, step.gathered.data(), 2, MPI_DOUBLE, comm), "MPI_Allgather");
  for (std::size_t r = 0; r < ranks; ++r) {
    step.observations[r] = step.gathered[2 * r];
    step.call_seconds[r] = step.gathered[2 * r + 1];
  }
  // From here on every rank computes the same from the same values, in the step's own room.
  tracker.observe(step.observations, step.verdicts);
  step.estimates = tracker.estimates();
  step.gain = core::replanning_gain(planned, step.estimates);
  step.replan = step.gain >= 1.0 + tracker.rule().replan_threshold;
  step.speeds = step.estimates;
  core::plan_nearly_uniform_as_uniform(step.speeds, tracker.rule().noise_band);
}

namespace {

// The context's first adapted call: the tracker starts from the machine figures (the probe,
// or the given speeds scaled by it), agreed so that every rank has one or none.
void start_tracking(ContextState& state, MachineFigures& machine) {
  try {
    mpi::run_agreed(state.context->comm, "speed tracking", [&] {
      state.tracker.emplace(machine.flops);
      state.step = AdaptationStep::for_ranks(machine.flops.size());
      state.planned = state.speeds;
    });
  } catch (const mpi::StageFailed&) {
    state.tracker.reset();
    throw;
  }
  state.observed_mark = kernels::compute_tally();
  // Probes of equal ranks never come out equal: within the noise band they are one speed.
  if (state.speeds_probed) {
    core::plan_nearly_uniform_as_uniform(state.speeds, state.tracker->rule().noise_band);
    core::plan_nearly_uniform_as_uniform(machine.flops, state.tracker->rule().noise_band);
  }
}

// The previous observed call's time, agreed: the slowest rank's (the call ends for the
// program when every rank is done), recorded only when every rank timed it.
void record_pending_call(ContextState& state) {
  PendingMeasurement& pending = state.pending;
  if (!pending.active) return;
  pending.active = false;
  const std::vector<double>& seconds = state.step.call_seconds;
  if (std::any_of(seconds.begin(), seconds.end(), [](double s) { return !(s > 0.0); })) return;
  const double slowest = *std::max_element(seconds.begin(), seconds.end());
  state.ledger.record(pending.shape_class, pending.route, slowest, pending.predicted_s);
}

}  // namespace

void adapt_speeds(ContextState& state, double call_flops) {
  machine_figures(state);
  MachineFigures& machine = *state.machine;
  if (!state.tracker) {
    start_tracking(state, machine);
    return;
  }
  const double share = call_flops / static_cast<double>(state.context->num_ranks());
  const double mine = observe_self(state.observed_mark, short_probe_order(share));
  // The speeds in use are kept in the step's room beside the others: copied, not allocated.
  state.planned = state.speeds;
  agree_on_observations(state.context->comm, *state.tracker, mine, state.pending.active ? state.pending.seconds : 0.0, state.planned,
                        state.step);
  record_pending_call(state);
  if (state.step.replan) {
    state.speeds = state.step.speeds;
    ++state.speeds_version;
    machine.flops = state.step.speeds;
  }
  try {
    report_step(state, state.planned, state.step);
  } catch (const std::exception&) {
    // Only the message is lost (memory); the decision stands on every rank.
  }
}

bool adapts(const ContextState& state) {
  return state.adapt && !state.disabled && state.configuration_problem.empty() &&
         state.speeds_problem.empty() && state.context->num_ranks() >= 2;
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

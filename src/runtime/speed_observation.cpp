#include "runtime/speed_observation.hpp"

#include <exception>
#include <optional>
#include <string>

#include "core/common/error.hpp"
#include "mpi/agreement.hpp"
#include "mpi/mpi_error.hpp"
#include "runtime/speed_probe.hpp"

namespace hetscal::runtime {

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
  if (planned.size() != ranks || tracker.estimates().size() != ranks ||
      step.observations.size() != ranks || step.call_seconds.size() != ranks ||
      step.gathered.size() != 2 * ranks)
    throw InvalidArgument("speed adaptation: " + std::to_string(planned.size()) +
                          " planned speeds, " + std::to_string(tracker.estimates().size()) +
                          " estimates and room for " + std::to_string(step.observations.size()) +
                          " observations for " + std::to_string(size) + " ranks");
  const double mine[2] = {my_observation, my_call_seconds};
  mpi::check_mpi(MPI_Allgather(mine, 2, MPI_DOUBLE, step.gathered.data(), 2, MPI_DOUBLE, comm),
                 "MPI_Allgather");
  for (std::size_t r = 0; r < ranks; ++r) {
    step.observations[r] = step.gathered[2 * r];
    step.call_seconds[r] = step.gathered[2 * r + 1];
  }
  // From here on every rank computes the same from the same values, mostly in the step's own
  // room; what still allocates (the checks' messages, the tracker's next state) is agreed,
  // and the tracker moves on only once every rank has its next state: a rank short of memory
  // leaves every tracker where it was.
  std::optional<core::SpeedTracker> next;
  step.replan = false;
  mpi::run_agreed(comm, "speed adaptation", [&] {
    next.emplace(tracker);
    next->observe(step.observations, step.verdicts);
    step.estimates = next->estimates();
    step.gain = core::replanning_gain(planned, step.estimates);
    step.replan = step.gain >= 1.0 + next->rule().replan_threshold;
    step.speeds = step.estimates;
    core::plan_nearly_uniform_as_uniform(step.speeds, next->rule().noise_band);
  });
  tracker = std::move(*next);
}

}  // namespace hetscal::runtime

#pragma once
/// @file speed_observation.hpp
/// The MPI-only half of the speed adaptation (runtime/adaptation.hpp): a rank's observation of
/// itself and the agreement of every rank's observations under core::SpeedTracker's rule.
/// Apart from adapt_speeds (which needs a BLACS context) so that the simulated programs of
/// SimGrid builds, which have no BLACS, run the very same step (tests/simgrid).
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "core/adaptation/speed_tracking.hpp"
#include "kernels/flop_counter.hpp"

namespace hetscal::runtime {

/// Less computing time than this since the last observation is not timed reliably: the
/// rank probes itself instead.
inline constexpr double kMinObservedSeconds = 2e-3;

/// What one agreement of observations decided (identical on every rank). Kept and reused
/// by the context: made once for its ranks, later steps allocate nothing, so that no rank can
/// fail (memory) after the others have moved on.
struct AdaptationStep {
  std::vector<double> gathered;         ///< per rank: observation, then last call's seconds
  std::vector<double> observations;     ///< per rank, agreed (0: none)
  std::vector<double> call_seconds;     ///< per rank, the previous observed call's time
  std::vector<core::Verdict> verdicts;  ///< what each observation did
  std::vector<double> estimates;        ///< after this step
  double gain = 1.0;                    ///< core::replanning_gain(planned, estimates)
  bool replan = false;                  ///< gain passes the threshold
  std::vector<double> speeds;           ///< to plan with from now on (when replan)

  /// A step with room for `ranks` ranks in every list.
  static AdaptationStep for_ranks(std::size_t ranks);
};

/// This rank's observation of itself: the rate of the kernels' work since `mark` when it took
/// at least kMinObservedSeconds, else a short probe of order `probe_order` (0: none, the
/// observation is 0). Moves `mark` to now. In SimGrid builds the kernels' work is timed in
/// simulated seconds (kernels/flop_counter.hpp), so a host's speed profile shows in it.
double observe_self(kernels::ComputeTally& mark, int probe_order);

/// Collective over `comm`: gathers every rank's observation and its time of the previous
/// observed call (one MPI_Allgather of two doubles per rank), feeds the observations to
/// `tracker` and decides whether to plan again for the estimates.
/// @param my_call_seconds this rank's time of the previous observed call (0: none).
/// @param planned the speeds the current plans were made with (one per rank).
/// @param[in,out] step the outcome; allocates nothing when made by AdaptationStep::for_ranks.
/// @throws InvalidArgument (before the collective, on every rank alike) if `planned`, the
///         tracker or `step` does not have one entry per rank; mpi::StageFailed on every
///         rank when one could not compute the step (memory): every tracker is then unchanged.
void agree_on_observations(MPI_Comm comm, core::SpeedTracker& tracker, double my_observation,
                           double my_call_seconds, const std::vector<double>& planned,
                           AdaptationStep& step);

}  // namespace hetscal::runtime

#pragma once
/// @file speed_tracking.hpp
/// Speeds learnt at run time: each rank's observed rate (flops of its local BLAS/LAPACK work
/// over the seconds that work took, or a short probe) smoothed into an estimate, and the rule
/// that says when the estimates differ enough from the speeds a plan was made with to plan
/// again. Pure and deterministic: every rank feeds the same agreed observations and so holds
/// the same estimates and takes the same decisions.
///
/// The smoothing rule, per rank, for each observation o against the estimate e:
///   - o within e·(1 ± noise_band) is noise: e moves a `smoothing` share of the way to o
///     (an exponential average, which follows slow drifts);
///   - o outside that band is an outlier and is not believed at once: it becomes the rank's
///     suspect, and the estimate stays;
///   - an outlier on the same side as the suspect and within ±noise_band of it confirms a
///     lasting change: e becomes the geometric mean of the two (one spike never moves e, a
///     lasting change is followed from the second call that shows it);
///   - an outlier on the same side as the suspect and further from e confirms a change that
///     began part-way into the suspect's call (which showed only part of it): e becomes o;
///   - any other outlier replaces the suspect; an observation within the band clears it.
/// With the defaults (band 15 %, smoothing 0.3) a rank that turns 3× slower during call c
/// (at its start or part-way into it) is planned for from call c + 2 on.
#include <vector>

namespace hetscal::core {

/// The rule's constants (documented above and in the README).
struct TrackingRule {
  double noise_band = 0.15;        ///< relative deviation still counted as noise
  double smoothing = 0.3;          ///< weight of a noisy observation in the estimate
  double replan_threshold = 0.10;  ///< predicted gain a new plan must bring (10 %)
};

/// What one observation did to a rank's estimate.
enum class Verdict {
  Unobserved,  ///< no observation this time
  Noise,       ///< within the band: smoothed in
  Suspect,     ///< an outlier, held back until confirmed
  Confirmed,   ///< a lasting change: the estimate moved to it
};

/// Per-rank speed estimates under the smoothing rule.
class SpeedTracker {
 public:
  /// @param initial the starting estimate of each rank (probe or given speeds), all > 0.
  /// @throws InvalidArgument if `initial` is empty or holds a value that is not finite and
  ///         > 0, or if the rule's band, smoothing or threshold is out of (0, 1].
  explicit SpeedTracker(std::vector<double> initial, TrackingRule rule = {});

  /// Feeds one observation per rank; a value that is not finite and > 0 means none.
  /// @param[out] verdicts what each rank's observation did; allocates nothing when its
  ///        capacity already holds one per rank (so that ranks cannot fail apart here).
  /// @throws InvalidArgument unless there is one observation per rank.
  void observe(const std::vector<double>& observations, std::vector<Verdict>& verdicts);
  /// The same, returning the verdicts.
  std::vector<Verdict> observe(const std::vector<double>& observations);

  const std::vector<double>& estimates() const { return estimates_; }
  const TrackingRule& rule() const { return rule_; }

 private:
  Verdict observe_rank(std::size_t rank, double observed);

  TrackingRule rule_;
  std::vector<double> estimates_;
  std::vector<double> suspects_;  ///< 0: none
};

/// Makes `speeds` (estimates) the speeds to plan with, in place: unchanged, or all equal to
/// their mean when the fastest is within (1 + noise_band) of the slowest (then nothing but
/// noise tells them apart, and a uniform machine must be seen as uniform). Allocates nothing.
/// @pre speeds non-empty, all > 0.
void plan_nearly_uniform_as_uniform(std::vector<double>& speeds, double noise_band);

/// How much longer than a balanced split a plan made for `planned` speeds takes when the ranks
/// run at `estimated` speeds: max_i (share_i / speed share_i), shares normalised to sum 1 (a
/// rank given p_i/Σp of the work, running at e_i/Σe of the machine's speed, finishes after
/// (p_i/Σp)/(e_i/Σe) of the balanced time). 1 when the plan still fits; a new plan made for
/// the estimates is predicted that much faster in its computation.
/// @throws InvalidArgument if the lists differ in size or hold a value that is not > 0.
double replanning_gain(const std::vector<double>& planned, const std::vector<double>& estimated);

}  // namespace hetscal::core

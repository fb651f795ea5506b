#pragma once
/// @file step_sampling.hpp
/// Long step sequences priced without walking every step. A step model (lu_steps.hpp,
/// qr_steps.hpp, time_model_steps.hpp) sums one cost per step of the right-looking algorithm,
/// K = ⌈N/nb⌉ of them: at N = 10⁶ and nb = 64, 15,625 steps, each visiting every processor.
/// The cost of step k changes slowly with k (the trailing matrix shrinks by one tile) plus a
/// periodic part (the owners of tile column k cycle with the grid), so beyond 2·S steps the
/// sum is estimated from S steps, one per stratum of K/S consecutive steps, each weighted by
/// its stratum's width; the step inside a stratum moves by the golden ratio from one stratum
/// to the next so that the samples meet every phase of the periodic part instead of one.
/// The sampled sum of a smooth cost is within a few per mille of the full sum, and the LU, QR
/// and GEMM models' totals just past the threshold within 2 % of the walked ones
/// (step_sampling_test.cpp): an error shared by the candidates of one call, small next to
/// the differences that decide a plan.
#include <cstddef>
#include <vector>

namespace hetscal::core {

/// Steps priced at most per sequence.
inline constexpr std::size_t kSampledSteps = 96;

/// One step to price and the number of steps it stands for.
struct SampledStep {
  std::size_t step = 0;
  double weight = 1.0;
};

/// Every step with weight 1 when steps <= 2·samples; otherwise one step per stratum, increasing,
/// weights summing to `steps`.
/// @pre samples >= 1.
std::vector<SampledStep> sampled_steps(std::size_t steps, std::size_t samples);

/// sampled_steps with this thread's budget: kSampledSteps, or what a StepSamplingScope set.
std::vector<SampledStep> sampled_steps(std::size_t steps);

/// The samples per sequence of this thread's pricings (kSampledSteps outside any scope).
std::size_t step_sample_budget();

/// Within its lifetime, this thread's step models sample `samples` steps per sequence instead
/// of kSampledSteps: a search's coarse first pass (candidate_search.hpp) prices many candidates
/// on few strata, then only the close ones on kSampledSteps.
class StepSamplingScope {
 public:
  /// @pre samples >= 1.
  explicit StepSamplingScope(std::size_t samples);
  ~StepSamplingScope();
  StepSamplingScope(const StepSamplingScope&) = delete;
  StepSamplingScope& operator=(const StepSamplingScope&) = delete;

 private:
  std::size_t previous_;
};

/// Seconds beyond which this thread's LU and QR step models (lookahead_steps.hpp) may stop
/// summing their steps (+∞ outside any PricingLimitScope): a search that needs a candidate's
/// total only if it is below the best priced so far learns that it is not once the partial
/// sum, with a lower bound of every step still to come (its flops at perfect balance),
/// exceeds the limit. Every step adds at least its bound, so that is a true statement about
/// the whole sum; a whole sum at or below the limit is never stopped.
double pricing_limit();

/// A step model that stopped its sum at pricing_limit() says so here.
void note_pricing_stopped();

/// Within its lifetime, this thread's step models may stop once their sum exceeds `seconds`.
class PricingLimitScope {
 public:
  explicit PricingLimitScope(double seconds);
  ~PricingLimitScope();
  PricingLimitScope(const PricingLimitScope&) = delete;
  PricingLimitScope& operator=(const PricingLimitScope&) = delete;

  /// True if a step model stopped at the limit within this scope: its total is then a
  /// partial sum, of a whole sum above the limit.
  bool stopped() const;

 private:
  double previous_;
  bool previously_stopped_;
};

}  // namespace hetscal::core

#include "core/adaptation/speed_tracking.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"

namespace hetscal::core {
namespace {

bool is_observation(double value) { return std::isfinite(value) && value > 0.0; }

// Whether `a` is within a factor (1 + band) of `b`, either way.
bool within_band(double a, double b, double band) {
  return std::fabs(std::log(a / b)) <= std::log1p(band);
}

void require_fraction(double value, const char* what) {
  if (!(value > 0.0 && value <= 1.0))
    throw InvalidArgument(std::string("speed tracking: ") + what + " " + std::to_string(value) +
                          " is not in (0, 1]");
}

}  // namespace

SpeedTracker::SpeedTracker(std::vector<double> initial, TrackingRule rule)
    : rule_(rule), estimates_(std::move(initial)), suspects_(estimates_.size(), 0.0) {
  if (estimates_.empty()) throw InvalidArgument("speed tracking: no starting speeds");
  require_positive_finite(estimates_, "starting speeds");
  require_fraction(rule_.noise_band, "noise band");
  require_fraction(rule_.smoothing, "smoothing weight");
  require_fraction(rule_.replan_threshold, "re-planning threshold");
}

void SpeedTracker::observe(const std::vector<double>& observations, std::vector<Verdict>& verdicts) {
  if (observations.size() != estimates_.size())
    throw InvalidArgument("speed tracking: " + std::to_string(observations.size()) +
                          " observations for " + std::to_string(estimates_.size()) + " ranks");
  verdicts.clear();
  for (std::size_t rank = 0; rank < observations.size(); ++rank)
    verdicts.push_back(observe_rank(rank, observations[rank]));
}

std::vector<Verdict> SpeedTracker::observe(const std::vector<double>& observations) {
  std::vector<Verdict> verdicts;
  observe(observations, verdicts);
  return verdicts;
}

Verdict SpeedTracker::observe_rank(std::size_t rank, double observed) {
  if (!is_observation(observed)) return Verdict::Unobserved;
  double& estimate = estimates_[rank];
  double& suspect = suspects_[rank];
  if (within_band(observed, estimate, rule_.noise_band)) {
    estimate += rule_.smoothing * (observed - estimate);
    suspect = 0.0;
    return Verdict::Noise;
  }
  const bool same_side = suspect > 0.0 && (suspect > estimate) == (observed > estimate);
  if (same_side && within_band(observed, suspect, rule_.noise_band)) {
    estimate = std::sqrt(observed * suspect);
    suspect = 0.0;
    return Verdict::Confirmed;
  }
  // Further out than the suspect, on its side: the suspect's call held the change only in
  // part (it began during that call), and this call shows all of it.
  if (same_side && std::fabs(std::log(observed / estimate)) > std::fabs(std::log(suspect / estimate))) {
    estimate = observed;
    suspect = 0.0;
    return Verdict::Confirmed;
  }
  suspect = observed;
  return Verdict::Suspect;
}

void plan_nearly_uniform_as_uniform(std::vector<double>& speeds, double noise_band) {
  const auto [slowest, fastest] = std::minmax_element(speeds.begin(), speeds.end());
  if (*fastest > *slowest * (1.0 + noise_band)) return;
  const double mean = std::accumulate(speeds.begin(), speeds.end(), 0.0) / static_cast<double>(speeds.size());
  std::fill(speeds.begin(), speeds.end(), mean);
}

double replanning_gain(const std::vector<double>& planned, const std::vector<double>& estimated) {
  if (planned.size() != estimated.size() || planned.empty())
    throw InvalidArgument("speed tracking: " + std::to_string(planned.size()) + " planned speeds but " +
                          std::to_string(estimated.size()) + " estimates");
  require_positive_finite(planned, "planned speeds");
  require_positive_finite(estimated, "estimated speeds");
  const double planned_total = std::accumulate(planned.begin(), planned.end(), 0.0);
  const double estimated_total = std::accumulate(estimated.begin(), estimated.end(), 0.0);
  double gain = 0.0;
  for (std::size_t i = 0; i < planned.size(); ++i)
    gain = std::max(gain, (planned[i] / planned_total) / (estimated[i] / estimated_total));
  return gain;
}

}  // namespace hetscal::core

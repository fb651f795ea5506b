#include "core/time_models/step_sampling.hpp"

#include <cmath>
#include <limits>

namespace hetscal::core {
namespace {

thread_local std::size_t budget = kSampledSteps;
thread_local double limit = std::numeric_limits<double>::infinity();
thread_local bool stopped_at_limit = false;

}  // namespace

std::size_t step_sample_budget() { return budget; }

StepSamplingScope::StepSamplingScope(std::size_t samples) : previous_(budget) { budget = samples; }

StepSamplingScope::~StepSamplingScope() { budget = previous_; }

std::vector<SampledStep> sampled_steps(std::size_t steps) { return sampled_steps(steps, budget); }

double pricing_limit() { return limit; }

void note_pricing_stopped() { stopped_at_limit = true; }

PricingLimitScope::PricingLimitScope(double seconds) : previous_(limit), previously_stopped_(stopped_at_limit) {
  limit = seconds;
  stopped_at_limit = false;
}

PricingLimitScope::~PricingLimitScope() {
  limit = previous_;
  stopped_at_limit = previously_stopped_;
}

bool PricingLimitScope::stopped() const { return stopped_at_limit; }

std::vector<SampledStep> sampled_steps(std::size_t steps, std::size_t samples) {
  std::vector<SampledStep> picked;
  if (steps <= 2 * samples) {
    for (std::size_t k = 0; k < steps; ++k) picked.push_back({k, 1.0});
    return picked;
  }
  constexpr double kGoldenFraction = 0.6180339887498949;
  for (std::size_t s = 0; s < samples; ++s) {
    const std::size_t first = s * steps / samples, end = (s + 1) * steps / samples;
    const double phase = std::fmod(static_cast<double>(s) * kGoldenFraction, 1.0);
    const auto offset = static_cast<std::size_t>(phase * static_cast<double>(end - first));
    picked.push_back({first + offset, static_cast<double>(end - first)});
  }
  return picked;
}

}  // namespace hetscal::core

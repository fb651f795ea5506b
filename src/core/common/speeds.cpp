#include "core/common/speeds.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"

namespace hetscal::core {

void require_positive_finite(const std::vector<double>& values, const std::string& what) {
  if (values.empty()) throw InvalidArgument(what + ": the list is empty");
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k]) || values[k] <= 0.0) {
      std::ostringstream msg;
      msg << what << ": value " << k + 1 << " of " << values.size() << " is " << values[k]
          << "; every value must be finite and > 0";
      throw InvalidArgument(msg.str());
    }
  }
}

Speeds Speeds::from_speeds(std::vector<double> speeds) {
  require_positive_finite(speeds, "speeds");
  return Speeds(std::move(speeds));
}

Speeds Speeds::from_cycle_times(const std::vector<double>& cycle_times) {
  require_positive_finite(cycle_times, "cycle-times");
  std::vector<double> speeds(cycle_times.size());
  std::transform(cycle_times.begin(), cycle_times.end(), speeds.begin(),
                 [](double t) { return 1.0 / t; });
  return Speeds(std::move(speeds));
}

std::vector<double> Speeds::cycle_times() const {
  std::vector<double> times(speeds_.size());
  std::transform(speeds_.begin(), speeds_.end(), times.begin(), [](double s) { return 1.0 / s; });
  return times;
}

double Speeds::total_speed() const { return std::accumulate(speeds_.begin(), speeds_.end(), 0.0); }

Speeds Speeds::normalised() const {
  const double fastest = *std::max_element(speeds_.begin(), speeds_.end());
  std::vector<double> scaled(speeds_.size());
  std::transform(speeds_.begin(), speeds_.end(), scaled.begin(),
                 [fastest](double s) { return s / fastest; });
  return Speeds(std::move(scaled));
}

void Speeds::require_count(std::size_t expected, const std::string& what) const {
  if (size() != expected) {
    std::ostringstream msg;
    msg << what << ": " << size() << " values given, " << expected << " expected";
    throw InvalidArgument(msg.str());
  }
}

}  // namespace hetscal::core

#include "core/grids/separation.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"

namespace hetscal::core {
namespace {

/// σ_k/(k·x_1) for k = 1…n, with Welford's running mean and sum of squared deviations
/// (stable even when the values are large and close together).
std::vector<double> spread_curve(const std::vector<double>& sorted) {
  std::vector<double> curve(sorted.size());
  const double unit = sorted.front();
  double mean = 0.0;
  double squared_deviations = 0.0;
  for (std::size_t k = 1; k <= sorted.size(); ++k) {
    const double x = sorted[k - 1] / unit;
    const double delta = x - mean;
    mean += delta / static_cast<double>(k);
    squared_deviations += delta * (x - mean);
    const double sigma = std::sqrt(std::max(0.0, squared_deviations) / static_cast<double>(k));
    curve[k - 1] = sigma / static_cast<double>(k);
  }
  return curve;
}

void require_jump_angle(double jump_angle) {
  if (!(jump_angle > 0.0 && jump_angle < 3.14159265358979323846)) {
    std::ostringstream msg;
    msg << "jump angle " << jump_angle << " rad: it must lie in (0, pi)";
    throw InvalidArgument(msg.str());
  }
}

}  // namespace

SortedProcessors sort_processors(const std::vector<double>& cycle_times) {
  require_positive_finite(cycle_times, "cycle-times");
  SortedProcessors sorted;
  sorted.index.resize(cycle_times.size());
  std::iota(sorted.index.begin(), sorted.index.end(), std::size_t{0});
  std::stable_sort(sorted.index.begin(), sorted.index.end(),
                   [&](std::size_t a, std::size_t b) { return cycle_times[a] < cycle_times[b]; });
  sorted.cycle_time.reserve(cycle_times.size());
  for (std::size_t k : sorted.index) sorted.cycle_time.push_back(cycle_times[k]);
  sorted.spread = spread_curve(sorted.cycle_time);
  sorted.turn.assign(sorted.size(), 0.0);
  for (std::size_t k = 2; k + 1 <= sorted.size(); ++k) sorted.turn[k - 1] = spread_turn(sorted.spread, k);
  return sorted;
}

double spread_turn(const std::vector<double>& spread, std::size_t k) {
  // 1-based point k is spread[k-1]; its segments go to points k-1 and k+1.
  const double rise_before = spread[k - 1] - spread[k - 2];
  const double rise_after = spread[k] - spread[k - 1];
  return std::atan(rise_after) - std::atan(rise_before);
}

std::size_t fast_prefix_count(const SortedProcessors& sorted, std::size_t count,
                              double jump_angle) {
  if (count == 0 || count > sorted.size()) {
    std::ostringstream msg;
    msg << "prefix of " << count << " processors: it must be in 1.." << sorted.size();
    throw InvalidArgument(msg.str());
  }
  std::size_t cut = count;
  double largest_turn = jump_angle;
  for (std::size_t k = 2; k + 1 <= count; ++k) {
    const double turn = sorted.turn[k - 1];
    if (turn > largest_turn) {
      largest_turn = turn;
      cut = k;
    }
  }
  return cut;
}

SpeedSeparation separate_slow_processors(const std::vector<double>& cycle_times,
                                         double jump_angle) {
  require_jump_angle(jump_angle);
  SortedProcessors sorted = sort_processors(cycle_times);
  SpeedSeparation separation;
  separation.fast_count = fast_prefix_count(sorted, sorted.size(), jump_angle);
  separation.order = std::move(sorted.index);
  return separation;
}

}  // namespace hetscal::core

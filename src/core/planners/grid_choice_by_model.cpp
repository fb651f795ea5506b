#include "core/planners/grid_choice_by_model.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "core/common/error.hpp"
#include "core/planners/model_candidates.hpp"

namespace hetscal::core {

std::vector<double> platform_cycle_times(const Platform& platform) {
  require_valid(platform);
  double fastest = 0.0;
  for (const auto& processor : platform.processors) fastest = std::max(fastest, processor.speed_flops);
  std::vector<double> cycle_times;
  for (const auto& processor : platform.processors) cycle_times.push_back(fastest / processor.speed_flops);
  return cycle_times;
}

GridScore score_by_predicted_time(const Platform& platform, const Problem& problem,
                                  std::size_t tile, const PlannerOptions& options) {
  if (tile == 0) throw InvalidArgument("score by predicted time: the tile size must be >= 1");
  const std::vector<double> cycle_times = platform_cycle_times(platform);
  return [=](const GridCandidate& shape) {
    const GridChoice plan = plan_grid_shape(cycle_times, shape.rows, shape.cols, options);
    const Candidate candidate = cartesian_candidate(
        "hetero " + std::to_string(shape.rows) + "x" + std::to_string(shape.cols), tile,
        shape.rows, shape.cols, plan.arrangement.processor, plan.shares.r, plan.shares.c);
    const Prediction prediction = predict(platform, problem, candidate);
    if (!prediction.fits_memory()) return -std::numeric_limits<double>::infinity();
    return -prediction.total_s();
  };
}

}  // namespace hetscal::core

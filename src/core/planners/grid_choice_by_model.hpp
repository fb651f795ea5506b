#pragma once
/// @file grid_choice_by_model.hpp
/// The grid planner's shape choice by predicted time. W alone (grid_planner.hpp's default
/// score) ignores communication, so it favours 1×n grids, which balance perfectly but
/// broadcast whole panels to every processor; the time model (time_model.hpp) prices both.
#include <cstddef>
#include <vector>

#include "core/grids/grid_planner.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Relative cycle-times of the platform's processors (the fastest has 1), the planner's input.
std::vector<double> platform_cycle_times(const Platform& platform);

/// A GridScore that replans each candidate shape on the platform's processors and returns
/// minus its predicted time for `problem` with tiles of `tile` elements (so higher is
/// better). Shapes whose data do not fit in some processor's memory score −∞.
/// @throws InvalidArgument on an invalid platform or a zero tile.
GridScore score_by_predicted_time(const Platform& platform, const Problem& problem,
                                  std::size_t tile, const PlannerOptions& options = {});

}  // namespace hetscal::core

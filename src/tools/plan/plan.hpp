#pragma once
/// @file plan.hpp
/// From a checked command line to the report and its picture. Each feature (grid plan,
/// pattern, time model, rebalancing) lives in its own plan_*.cpp; this is the dispatch.
#include "tools/plan/options.hpp"
#include "tools/plan/picture.hpp"
#include "tools/plan/report.hpp"

namespace hetscal::tools::plan {

/// Computes everything the command line asks for.
/// @throws InvalidArgument if core refuses the input (the message names the value).
Report build_report(const Options& options);

/// The picture of the report's distribution over its picture_tiles × picture_tiles matrix.
/// @pre the report has a distribution to draw (a grid, a pattern or a rebalancing).
TilePicture picture_of(const Report& report);

/// Legend entries for every input processor, with the tiles each owns in `picture`.
std::vector<LegendEntry> legend_of(const Report& report, const TilePicture& picture);

}  // namespace hetscal::tools::plan

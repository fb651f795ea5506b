#pragma once
/// @file model_report.hpp
/// Text tables of the time model's predictions, for `hetscal-plan --model`, the benchmark and
/// HETSCAL_VERBOSE. Pure formatting: returns a string, prints nothing.
#include <cstddef>
#include <string>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Which rows to show.
enum class TileListing {
  EveryCandidate,         ///< one row per prediction
  BestTilePerLayout,      ///< per label (family and shape), only its fastest tile size
};

struct ReportOptions {
  TileListing listing = TileListing::BestTilePerLayout;
  std::size_t max_rows = 0;  ///< 0: all rows; otherwise the fastest max_rows (chosen first)
};

/// One line describing the platform: processors (speeds in Mflop/s), network, memory.
std::string describe_platform(const Platform& platform);

/// A table of predictions sorted by predicted time, fastest first: label, tile, processors
/// used, predicted seconds (total, compute, panel, communication, redistribution), memory
/// use of the tightest processor, and "chosen" / "no memory" marks. The header line names
/// the routine and N.
std::string format_predictions(const Problem& problem, const std::vector<Prediction>& predictions,
                               const ReportOptions& options = {});

}  // namespace hetscal::core

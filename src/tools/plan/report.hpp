#pragma once
/// @file report.hpp
/// What hetscal-plan prints, gathered before anything is printed: the text and the JSON
/// renderers show the same report, and a failure while computing it leaves no output.
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/grids/grid_quality.hpp"
#include "core/grids/grid_shares.hpp"
#include "core/grids/panel_plan.hpp"
#include "tools/plan/input.hpp"
#include "tools/plan/options.hpp"
#include "tools/plan/plan_model.hpp"
#include "tools/plan/plan_pattern.hpp"

namespace hetscal::tools::plan {

struct RebalanceReport;  // plan_rebalance.hpp

/// One processor of the input.
struct ProcessorRow {
  std::size_t index = 0;
  double speed = 0.0;       ///< as given (or 1 / cycle-time)
  double cycle_time = 0.0;  ///< as given (or 1 / speed)
};

/// How a grid's arrangement and shares were found.
enum class FoundBy { Heuristic, Exact };

/// "heuristic" or "exact".
std::string to_string(FoundBy method);

/// A heterogeneous p×q grid plan (Boudet, Petitet, Rastello & Robert 1999).
struct GridReport {
  FoundBy found_by = FoundBy::Heuristic;
  bool exact_searched = false;        ///< the exact search ran (and found nothing better)
  core::Arrangement arrangement;
  core::Shares shares;                ///< rational, each vector scaled so its largest is 1
  core::GridFigures figures;          ///< W, W_cyclic, speedup … of the rational shares
  core::PanelPlan panel;              ///< integer counts, orders and periodic maps
  double panel_speedup = 0.0;         ///< W of the integer panel over W_cyclic
  std::vector<core::ProcessorLoad> loads;        ///< rational shares, row-major
  std::vector<core::ProcessorLoad> panel_loads;  ///< integer panel, row-major
  std::vector<std::size_t> unused;    ///< processors left out of the grid
};

/// One grid shape tried and its figures.
struct ShapeRow {
  std::size_t rows = 0;
  std::size_t cols = 0;
  FoundBy found_by = FoundBy::Heuristic;
  core::GridFigures figures;
  double predicted_seconds = 0.0;  ///< the time model's prediction, which chose the shape
  bool chosen = false;
};

/// Everything hetscal-plan reports; each feature fills its own section.
struct Report {
  ValueKind input_kind = ValueKind::Speeds;
  std::vector<ProcessorRow> processors;  ///< empty with --rebalance (it has its own speeds)
  std::vector<ShapeRow> shapes;          ///< every shape tried (empty if --grid was given)
  std::optional<GridReport> grid;
  std::optional<PatternReport> pattern;
  std::optional<ModelReport> model;
  std::shared_ptr<const RebalanceReport> rebalance;
  std::size_t picture_tiles = 0;         ///< n of the n×n tile matrix pictured
  std::optional<std::string> picture_path;
};

/// The report as human-readable text.
std::string render_text(const Report& report);

/// The report as a JSON document (same content as the text).
std::string render_json(const Report& report);

}  // namespace hetscal::tools::plan

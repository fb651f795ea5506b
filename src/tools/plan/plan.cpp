#include "tools/plan/plan.hpp"

#include "tools/plan/plan_grid.hpp"
#include "tools/plan/limits.hpp"
#include "tools/plan/plan_rebalance.hpp"
#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

std::vector<ProcessorRow> processor_rows(const Options& options) {
  std::vector<ProcessorRow> rows;
  const bool speeds_given = options.input_kind == ValueKind::Speeds;
  for (double value : options.given_values)
    rows.push_back(ProcessorRow{rows.size(), speeds_given ? value : 1.0 / value,
                                speeds_given ? 1.0 / value : value});
  return rows;
}

TilePicture grid_plan_picture(const Report& report) {
  const GridReport& grid = *report.grid;
  TilePicture picture;
  picture.title = shape_text(grid.arrangement.rows, grid.arrangement.cols) + " grid, panel " +
                  shape_text(static_cast<std::size_t>(grid.panel.panel_rows),
                             static_cast<std::size_t>(grid.panel.panel_cols)) +
                  ", " + shape_text(report.picture_tiles, report.picture_tiles) +
                  " tiles: predicted speedup " + format("%.2f", grid.panel_speedup) +
                  " over 2D block-cyclic";
  picture.matrices.push_back(grid_matrix(grid, report.picture_tiles));
  return picture;
}

TilePicture pattern_picture(const Report& report) {
  const PatternReport& pattern = *report.pattern;
  TilePicture picture;
  picture.title = to_string(pattern.kind) + " pattern " +
                  shape_text(static_cast<std::size_t>(pattern.pattern->rows()),
                             static_cast<std::size_t>(pattern.pattern->cols())) +
                  ", " + shape_text(pattern.tiles, pattern.tiles) + " tiles, cost T " +
                  format("%.3g", pattern.cost) + ", load max/avg " +
                  format("%.3f", pattern.balance.max_over_average);
  picture.matrices.push_back(pattern_matrix(pattern));
  return picture;
}

}  // namespace

Report build_report(const Options& options) {
  Report report;
  report.picture_path = options.picture_path;
  if (options.mode == Mode::Rebalance) {
    report.rebalance = std::make_shared<const RebalanceReport>(
        rebalance_report(options.old_speeds, options.new_speeds, options.rebalance));
    report.picture_tiles = report.rebalance->summary.blocks;
    return report;
  }
  report.input_kind = options.input_kind;
  report.processors = processor_rows(options);
  // The model first: it refuses an --order it cannot price before the grid plan's work.
  if (options.model) report.model = model_report(options.speeds, *options.model);
  if (options.mode == Mode::Pattern) {
    report.pattern = pattern_report(options.pattern, options.speeds, options.grid,
                                  options.matrix_tiles.value_or(0));
    report.picture_tiles = report.pattern->tiles;
  } else if (!options.model || options.speeds.size() <= kMaxGridWithModelProcessors) {
    // Beyond that the grid plan's shape search, every shape priced by the model, would take
    // minutes: --model alone.
    plan_grid(options, report);
    report.picture_tiles = options.matrix_tiles.value_or(default_grid_picture_tiles(*report.grid));
  }
  return report;
}

std::vector<LegendEntry> legend_of(const Report& report, const TilePicture& picture) {
  std::vector<LegendEntry> legend;
  for (const ProcessorRow& p : report.processors)
    legend.push_back(LegendEntry{p.index, p.speed, p.cycle_time, 0});
  const TileMatrix& shown = picture.matrices.back();
  for (std::size_t owner : shown.owner)
    if (owner < legend.size()) ++legend[owner].tiles;
  return legend;
}

TilePicture picture_of(const Report& report) {
  if (report.rebalance) return rebalance_picture(*report.rebalance);
  TilePicture picture = report.pattern ? pattern_picture(report) : grid_plan_picture(report);
  picture.legend = legend_of(report, picture);
  return picture;
}

}  // namespace hetscal::tools::plan

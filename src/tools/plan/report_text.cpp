// Human-readable rendering of the report. Figures are printed to the precision the paper
// quotes (speedups to 2 decimals, W to 4 significant digits); --json gives full precision.
#include <sstream>

#include "tools/plan/plan_rebalance.hpp"
#include "tools/plan/report.hpp"
#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

template <typename T>
std::string join(const std::vector<T>& values, const char* spec) {
  std::string text;
  for (const T& value : values) {
    if (!text.empty()) text += ' ';
    text += format(spec, static_cast<double>(value));
  }
  return text;
}

void print_processors(std::ostream& out, const Report& report) {
  out << "processors: " << report.processors.size() << " (given as " << to_string(report.input_kind)
      << ")\n";
  for (const ProcessorRow& p : report.processors)
    out << "  P" << p.index << "  speed " << format("%-8.4g", p.speed) << " cycle-time "
        << format("%.4g", p.cycle_time) << '\n';
}

std::string method_text(const GridReport& grid) {
  if (grid.found_by == FoundBy::Exact) return "exact search";
  return grid.exact_searched ? "heuristic, confirmed optimal by the exact search" : "heuristic";
}

void print_shapes(std::ostream& out, const std::vector<ShapeRow>& shapes) {
  out << "\ngrid shapes (W: work per unit of time; W_cyclic: 2D block-cyclic on the same grid;\n"
      << "  efficiency: W / total speed of the grid; words: received per rank-1 update and matrix row;\n"
      << "  time: predicted seconds of the --model problem (default LU, N = 4096, 100 Mb/s Ethernet),\n"
      << "  which chooses the shape)\n"
      << "  shape  found by       W   W_cyclic  speedup  efficiency  words      time\n";
  for (const ShapeRow& row : shapes)
    out << "  " << format("%5s", shape_text(row.rows, row.cols)) << format("  %-9s", to_string(row.found_by))
        << format(" %7.4g", row.figures.work_per_time) << format(" %10.4g", row.figures.cyclic_work_per_time)
        << format(" %8.2f", row.figures.predicted_speedup) << format(" %11.3f", row.figures.efficiency)
        << format(" %6.0f", row.figures.words_per_update) << format(" %9.4g", row.predicted_seconds)
        << (row.chosen ? "  <- chosen" : "") << '\n';
}

void print_arrangement(std::ostream& out, const core::Arrangement& a) {
  out << "arrangement (processor and its cycle-time at each grid position):\n        ";
  for (std::size_t j = 0; j < a.cols; ++j) out << format("col %-10.0f", static_cast<double>(j));
  out << '\n';
  for (std::size_t i = 0; i < a.rows; ++i) {
    out << "  row " << format("%-2.0f", static_cast<double>(i));
    for (std::size_t j = 0; j < a.cols; ++j) {
      const std::string who = "P" + std::to_string(a.at(i, j));
      out << format("%-5s", who) << format("%-9.4g", a.t(i, j));
    }
    out << '\n';
  }
}

void print_panel(std::ostream& out, const GridReport& grid) {
  const core::PanelPlan& panel = grid.panel;
  out << "integer block panel " << shape_text(static_cast<std::size_t>(panel.panel_rows),
                                             static_cast<std::size_t>(panel.panel_cols))
      << (panel.search == core::IntegerSearch::Exhaustive ? " (counts: exhaustive search)"
                                                          : " (counts: alternating search)")
      << ":\n"
      << "  r = " << join(panel.counts.r, "%.0f") << "   (block rows of each grid row)\n"
      << "  c = " << join(panel.counts.c, "%.0f") << "   (block columns of each grid column)\n"
      << "  row map    (panel row I -> grid row):       " << join(panel.row_of_panel_row, "%.0f") << '\n'
      << "  column map (panel column J -> grid column): " << join(panel.col_of_panel_col, "%.0f") << '\n'
      << "  tile (I,J) -> grid position (row map[I mod " << panel.panel_rows << "], column map[J mod "
      << panel.panel_cols << "])\n"
      << "  W = " << format("%.4g", panel.work_per_time) << " (" << format("%.1f", 100.0 * panel.work_per_time / panel.rational_work_per_time)
      << "% of the rational W)   speedup over 2D block-cyclic = " << format("%.2f", grid.panel_speedup) << '\n';
}

void print_loads(std::ostream& out, const GridReport& grid) {
  out << "load per processor (integer panel; busy: time working while the slowest works):\n";
  for (std::size_t k = 0; k < grid.panel_loads.size(); ++k) {
    const core::ProcessorLoad& load = grid.panel_loads[k];
    const std::string who = "P" + std::to_string(load.processor);
    const auto blocks = static_cast<double>(grid.panel.counts.r[load.row] * grid.panel.counts.c[load.col]);
    out << "  " << format("%-4s", who) << " at (" << load.row << ',' << load.col << ")  "
        << format("%5.0f", blocks) << " blocks per panel, busy " << format("%5.1f", 100.0 * load.busy_fraction)
        << "%   (rational shares: busy " << format("%5.1f", 100.0 * grid.loads[k].busy_fraction) << "%)\n";
  }
}

void print_grid(std::ostream& out, const GridReport& grid) {
  const core::Arrangement& a = grid.arrangement;
  out << "\nplan: " << shape_text(a.rows, a.cols) << " grid (" << method_text(grid) << ")\n";
  print_arrangement(out, a);
  out << "rational shares (each scaled so that its largest is 1):\n"
      << "  r = " << join(grid.shares.r, "%.4g") << '\n'
      << "  c = " << join(grid.shares.c, "%.4g") << '\n'
      << "W = " << format("%.4g", grid.figures.work_per_time)
      << "   W_cyclic = " << format("%.4g", grid.figures.cyclic_work_per_time)
      << "   predicted speedup over 2D block-cyclic = " << format("%.2f", grid.figures.predicted_speedup) << '\n'
      << "efficiency = " << format("%.3f", grid.figures.efficiency)
      << "   least busy processor = " << format("%.1f", 100.0 * grid.figures.min_busy_fraction)
      << "%   words per rank-1 update = " << format("%.0f", grid.figures.words_per_update) << " x n\n";
  print_panel(out, grid);
  print_loads(out, grid);
  if (!grid.unused.empty()) {
    out << "unused processors:";
    for (std::size_t p : grid.unused) out << " P" << p;
    out << '\n';
  }
}

}  // namespace

std::string render_text(const Report& report) {
  std::ostringstream out;
  if (!report.processors.empty()) print_processors(out, report);
  if (!report.shapes.empty()) print_shapes(out, report.shapes);
  if (report.grid) print_grid(out, *report.grid);
  if (report.pattern) out << pattern_text(*report.pattern);
  if (report.rebalance) out << rebalance_text(*report.rebalance);
  if (report.model) out << model_text(*report.model);
  if (report.picture_path)
    out << "\npicture: " << *report.picture_path << " (" << report.picture_tiles << 'x'
        << report.picture_tiles << " tiles)\n";
  return out.str();
}

}  // namespace hetscal::tools::plan

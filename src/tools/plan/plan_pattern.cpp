#include "tools/plan/plan_pattern.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/common/error.hpp"
#include "core/patterns/pattern_2dbc.hpp"
#include "core/patterns/pattern_g2dbc.hpp"
#include "core/patterns/pattern_gcrm.hpp"
#include "core/patterns/pattern_hetero.hpp"
#include "core/patterns/pattern_resolve.hpp"
#include "tools/plan/limits.hpp"
#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

using Json = nlohmann::ordered_json;

constexpr int kLargestPrintedSide = 24;      // larger owner tables go to --json only
constexpr std::size_t kTwoPeriodsUpTo = 64;  // the default picture shows two periods up to this

const char* factorization_name(core::Factorization f) {
  return f == core::Factorization::Cholesky ? "Cholesky" : "LU";
}

core::Pattern block_cyclic(const core::Speeds& speeds, const std::optional<Shape>& grid) {
  const int nodes = static_cast<int>(speeds.size());
  if (!grid) return core::best_block_cyclic(nodes, core::Factorization::LU);
  if (grid->rows * grid->cols != speeds.size())
    throw InvalidArgument("--pattern 2dbc --grid " + std::to_string(grid->rows) + "x" +
                          std::to_string(grid->cols) + " must use all " +
                          std::to_string(speeds.size()) + " processors");
  return core::block_cyclic_pattern(static_cast<int>(grid->rows), static_cast<int>(grid->cols));
}

// The hetero pattern's local search costs time per cell and memory per line and processor:
// its size is checked against limits.hpp before it is built.
core::Pattern hetero(const core::Speeds& speeds, const std::optional<Shape>& grid) {
  if (!grid) {
    const double needed = core::hetero_pattern_cells_needed(speeds, core::HeteroPatternOptions{}.min_cells_per_node);
    if (needed > kMaxPatternCells)
      throw InvalidArgument("--pattern hetero: these speeds need a pattern of " + format("%.0f", needed) +
                            " cells, more than the " + format("%.0f", kMaxPatternCells) +
                            " it is built with; give a --grid of at most that many cells");
    return core::hetero_pattern(speeds);
  }
  const bool too_large = std::max(grid->rows, grid->cols) > kMaxPatternSide ||
                         static_cast<double>(grid->rows) * static_cast<double>(grid->cols) > kMaxPatternCells;
  if (too_large)
    throw InvalidArgument("--pattern hetero --grid " + shape_text(grid->rows, grid->cols) +
                          ": at most " + format("%.0f", kMaxPatternCells) + " cells and " +
                          std::to_string(kMaxPatternSide) + " per side");
  return core::hetero_pattern(speeds, static_cast<int>(grid->rows), static_cast<int>(grid->cols));
}

core::Pattern build(PatternKind kind, const core::Speeds& speeds, const std::optional<Shape>& grid) {
  const int nodes = static_cast<int>(speeds.size());
  switch (kind) {
    case PatternKind::BlockCyclic: return block_cyclic(speeds, grid);
    case PatternKind::G2dbc: return core::g2dbc_pattern(nodes);
    case PatternKind::Gcrm: return core::best_gcrm(nodes).pattern;
    case PatternKind::Hetero: return hetero(speeds, grid);
  }
  throw InvalidArgument("--pattern: unknown kind");
}

void print_owners(std::ostream& out, const core::Pattern& pattern) {
  const std::size_t width = std::to_string(pattern.num_nodes() - 1).size();
  for (int i = 0; i < pattern.rows(); ++i) {
    out << ' ';
    for (int j = 0; j < pattern.cols(); ++j) {
      const int owner = pattern.at(i, j);
      const std::string cell = owner == core::Pattern::kUnassigned ? "." : std::to_string(owner);
      out << ' ' << std::string(width - cell.size(), ' ') << cell;
    }
    out << '\n';
  }
}

}  // namespace

std::string to_string(PatternKind kind) {
  switch (kind) {
    case PatternKind::BlockCyclic: return "2dbc";
    case PatternKind::G2dbc: return "g2dbc";
    case PatternKind::Gcrm: return "gcrm";
    case PatternKind::Hetero: return "hetero";
  }
  return "?";
}

PatternKind pattern_kind_from(const std::string& name) {
  for (PatternKind kind : {PatternKind::BlockCyclic, PatternKind::G2dbc, PatternKind::Gcrm,
                           PatternKind::Hetero})
    if (to_string(kind) == name) return kind;
  throw InvalidArgument("--pattern: unknown pattern '" + name + "'; use 2dbc, g2dbc, gcrm or hetero");
}

PatternReport pattern_report(PatternKind kind, const core::Speeds& speeds,
                           const std::optional<Shape>& grid, std::size_t tiles) {
  if (grid && kind != PatternKind::BlockCyclic && kind != PatternKind::Hetero)
    throw InvalidArgument("--grid only applies to --pattern 2dbc and hetero (" + to_string(kind) +
                          " chooses its own shape)");
  PatternReport report;
  report.kind = kind;
  report.factorization = kind == PatternKind::Gcrm ? core::Factorization::Cholesky
                                                   : core::Factorization::LU;
  report.pattern = build(kind, speeds, grid);
  const core::Pattern& pattern = *report.pattern;
  report.cost = core::cost(pattern, report.factorization);
  if (kind == PatternKind::G2dbc)
    report.cost_formula = core::g2dbc_cost_formula(static_cast<int>(speeds.size()));
  const auto period = static_cast<std::size_t>(std::max(pattern.rows(), pattern.cols()));
  const std::size_t default_tiles = period <= kTwoPeriodsUpTo ? 2 * period : period;
  report.tiles = tiles != 0 ? tiles : std::min(default_tiles, kMaxPictureTiles);
  const auto n = static_cast<std::int64_t>(report.tiles);
  report.balance = core::load_balance(pattern, n, n, report.factorization, speeds.speeds());
  return report;
}

std::string pattern_text(const PatternReport& report) {
  const core::Pattern& pattern = *report.pattern;
  std::ostringstream out;
  out << "\npattern: " << to_string(report.kind) << ", " << pattern.rows() << 'x' << pattern.cols()
      << " over " << pattern.num_nodes() << " processors ("
      << (report.kind == PatternKind::Hetero ? "cells in proportion to speed" : "Beaumont et al. 2023")
      << "), judged for "
      << factorization_name(report.factorization) << '\n'
      << "owner table (tile (I,J) -> cell (I mod " << pattern.rows() << ", J mod " << pattern.cols()
      << "); '.' = diagonal cell resolved per replica):\n";
  if (pattern.rows() > kLargestPrintedSide || pattern.cols() > kLargestPrintedSide)
    out << "  (" << pattern.rows() << 'x' << pattern.cols() << " cells: see --json)\n";
  else
    print_owners(out, pattern);
  out << "communication cost T = " << format("%.4g", report.cost)
      << (report.factorization == core::Factorization::LU ? " (x + y: distinct processors per row plus per column)"
                                                          : " (z: distinct processors per colrow)");
  if (report.cost_formula) out << ", closed form " << format("%.4g", *report.cost_formula);
  out << "\nload over " << report.tiles << 'x' << report.tiles << " tiles (max/average of tiles/speed): "
      << format("%.3f", report.balance.max_over_average) << "\n  tiles per processor:";
  for (std::size_t p = 0; p < report.balance.tiles.size(); ++p)
    out << "  P" << p << ' ' << report.balance.tiles[p];
  out << '\n';
  return out.str();
}

Json pattern_json(const PatternReport& report) {
  const core::Pattern& pattern = *report.pattern;
  Json owners = Json::array();
  for (int i = 0; i < pattern.rows(); ++i) {
    Json row = Json::array();
    for (int j = 0; j < pattern.cols(); ++j) {
      const int owner = pattern.at(i, j);
      row.push_back(owner == core::Pattern::kUnassigned ? Json(nullptr) : Json(owner));
    }
    owners.push_back(row);
  }
  return Json{{"kind", to_string(report.kind)},
              {"factorization", factorization_name(report.factorization)},
              {"rows", pattern.rows()},
              {"cols", pattern.cols()},
              {"owners", owners},
              {"cost", report.cost},
              {"cost_formula", report.cost_formula ? Json(*report.cost_formula) : Json(nullptr)},
              {"tiles", report.tiles},
              {"tiles_per_processor", report.balance.tiles},
              {"max_over_average", report.balance.max_over_average}};
}

TileMatrix pattern_matrix(const PatternReport& report) {
  const core::Pattern& pattern = *report.pattern;
  const core::TilePicture tiles = core::tile_picture(
      pattern, static_cast<std::int64_t>(report.tiles), core::region_of(report.factorization));
  TileMatrix matrix;
  matrix.tiles = report.tiles;
  matrix.period_rows = static_cast<std::size_t>(pattern.rows());
  matrix.period_cols = static_cast<std::size_t>(pattern.cols());
  matrix.owner.reserve(tiles.owner.size());
  for (int owner : tiles.owner)
    matrix.owner.push_back(owner < 0 ? TileMatrix::kNoOwner : static_cast<std::size_t>(owner));
  return matrix;
}

}  // namespace hetscal::tools::plan

#pragma once
/// @file options.hpp
/// hetscal-plan's command line: declared with CLI11, then checked and converted into
/// Options. Any problem is a usage error (exit code 2) with one message naming it.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "core/common/speeds.hpp"
#include "tools/plan/input.hpp"
#include "tools/plan/plan_model.hpp"
#include "tools/plan/plan_pattern.hpp"

namespace CLI {
class App;
}

namespace hetscal::tools::plan {

/// How the report is printed.
enum class OutputFormat { Text, Json };

/// What the run plans.
enum class Mode {
  Grid,       ///< a heterogeneous p×q grid (default)
  Pattern,    ///< --pattern KIND
  Rebalance,  ///< --rebalance OLD NEW
};

/// How a grid's arrangement and shares are searched.
enum class GridMethod {
  Planner,  ///< core's planner: the §4.4 heuristic, and the exact search for small grids
  Exact,    ///< --exact: the exact search (§4.2, §4.3) for every grid planned
};

/// How --rebalance prices a row migration (Beaumont et al. 2000 §4.3 and §4.6).
enum class RowMigrationPricing { Constant, Spanned };

/// What --rebalance is asked for (kept free of core types: options.hpp is the command line).
struct RebalanceSettings {
  std::optional<std::size_t> blocks;  ///< N×N blocks; otherwise core's default
  RowMigrationPricing pricing = RowMigrationPricing::Constant;
  bool optimal = false;               ///< --exact: the optimal row plan instead of the greedy
};

/// A checked command line.
struct Options {
  Mode mode = Mode::Grid;
  ValueKind input_kind = ValueKind::Speeds;
  /// The processors' values as typed, of input_kind (what the report shows).
  std::vector<double> given_values;
  /// Speeds relative to the fastest (which has 1): what every plan uses. Unused with
  /// --rebalance.
  core::Speeds speeds = core::Speeds::from_speeds({1.0});
  /// Cycle-times relative to the fastest processor's: divided by the smallest when given as
  /// cycle-times, so that 7.8 stays 7.8 rather than 1/(1/7.8); 1/speed otherwise.
  std::vector<double> cycle_times;
  std::optional<Shape> grid;                ///< --grid; otherwise every shape is tried
  std::optional<Shape> panel;               ///< --panel; otherwise the default panel
  GridMethod method = GridMethod::Planner;
  std::optional<std::size_t> matrix_tiles;  ///< --matrix-tiles
  OutputFormat output = OutputFormat::Text;
  std::optional<std::string> picture_path;
  PictureFormat picture_format = PictureFormat::Svg;
  PatternKind pattern = PatternKind::G2dbc;
  std::optional<ModelSettings> model;       ///< --model and its settings
  core::Speeds old_speeds = core::Speeds::from_speeds({1.0});  ///< --rebalance OLD
  core::Speeds new_speeds = core::Speeds::from_speeds({1.0});  ///< --rebalance NEW
  RebalanceSettings rebalance;
};

/// The raw values of the command line, as CLI11 fills them.
struct CommandLine {
  std::string speeds, cycle_times, file, file_kind, grid, panel, picture, pattern;
  bool exact = false;
  bool json = false;
  bool exhaustive = false;
  long long matrix_tiles = 0;  // signed, so that "-3" is refused as -3 rather than wrapped
  std::string routine, network, caller_grid;
  long long order = 0, caller_block = 0, ranks_per_node = 0;
  double flops = 0.0, memory = 0.0, latency = 0.0, bandwidth = 0.0;
  std::vector<std::string> rebalance;
  std::string row_migration_cost;
};

/// Declares every option of hetscal-plan on `app`, storing into `line`.
void declare_options(CLI::App& app, CommandLine& line);

/// Checks the parsed command line and reads the processor file if one is given.
/// @param app the application `line` was declared on (to see which options were given).
/// @throws InvalidArgument naming the first problem found.
Options check_options(const CLI::App& app, const CommandLine& line);

}  // namespace hetscal::tools::plan

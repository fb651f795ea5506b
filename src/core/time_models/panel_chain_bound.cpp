#include "core/time_models/panel_chain_bound.hpp"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <limits>
#include <numeric>
#include <functional>
#include <vector>

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;  // double precision, as the step models

/// Column classes whose last tile column is at `position`.
struct LastColumns {
  std::size_t position = 0;
  std::size_t classes = 0;
};

/// The fewest distinct ranks in one row class of the owner table.
std::size_t fewest_distinct_per_row(const TileOwnership& layout, std::size_t processors) {
  std::vector<std::size_t> stamp(processors, layout.rows);  // the row that last counted a rank
  std::size_t fewest = layout.cols;
  for (std::size_t a = 0; a < layout.rows; ++a) {
    std::size_t distinct = 0;
    for (std::size_t b = 0; b < layout.cols; ++b)
      if (stamp[layout.at(a, b)] != a) stamp[layout.at(a, b)] = a, ++distinct;
    fewest = std::min(fewest, distinct);
  }
  return fewest;
}

/// The positions of the column classes' last tile columns, latest first, each with the
/// number of classes whose last it is.
std::vector<LastColumns> last_columns(const TileOwnership& layout) {
  std::vector<std::size_t> last(layout.cols, 0);
  std::vector<bool> seen(layout.cols, false);
  for (std::size_t t = 0; t < layout.col_class.size(); ++t) last[layout.col_class[t]] = t, seen[layout.col_class[t]] = true;
  std::vector<std::size_t> present;
  for (std::size_t b = 0; b < layout.cols; ++b)
    if (seen[b]) present.push_back(last[b]);
  std::sort(present.begin(), present.end(), std::greater<>());
  std::vector<LastColumns> runs;
  for (std::size_t position : present) {
    if (runs.empty() || runs.back().position != position) runs.push_back({position, 0});
    ++runs.back().classes;
  }
  return runs;
}

/// What the panel chain depends on, whatever the layout's form.
struct PanelChain {
  std::size_t tile = 0;
  double efficiency = 1.0;    ///< of the update kernel at this tile (KernelRate::update_efficiency)
  std::size_t tile_rows = 0;  ///< tile rows of the matrix
  std::size_t steps = 0;      ///< panels: tile columns over min(M, N)
  std::size_t classes = 0;    ///< column classes of the layout
  std::size_t distinct = 0;   ///< fewest distinct ranks in one row class
  std::vector<LastColumns> last;  ///< the classes present by their last tile column, latest first
};

/// Σ (R − k) over k = a … b − 1: the panel tiles of those steps.
double panel_tiles(std::size_t rows, std::size_t a, std::size_t b) {
  const double count = static_cast<double>(b - a);
  return count * static_cast<double>(rows) - (static_cast<double>(a) + static_cast<double>(b) - 1.0) * count / 2.0;
}

/// Rates of the chain's panels: the fastest processor's factorisation, a tile's bytes.
struct PanelRates {
  double flops_per_second = 0.0;
  double tile_seconds = 0.0;
  double cube = 0.0;
};

PanelRates panel_rates(const Platform& platform, const PanelChain& chain) {
  double fastest = 0.0;
  for (const Processor& p : platform.processors) fastest = std::max(fastest, p.speed_flops);
  const double nb = static_cast<double>(chain.tile);
  return {fastest * chain.efficiency, nb * nb * kBytesPerElement / platform.network.bandwidth_bytes_per_s,
          nb * nb * nb};
}

/// Panel k of the chain alone: its factorisation and its delivery, with `remaining` column
/// classes still holding trailing tiles (as panel_chain_seconds counts each step).
double chain_panel_seconds(Routine routine, const PanelChain& chain, const PanelRates& rates, std::size_t k,
                           std::size_t remaining) {
  const double h = static_cast<double>(chain.tile_rows - k);
  const double flops = routine == Routine::LU ? (h - 1.0 / 3.0) * rates.cube : (3.0 * h - 1.0) * rates.cube;
  const std::size_t gone = chain.classes - remaining;
  const double readers = chain.distinct > gone + 1 ? static_cast<double>(chain.distinct - gone - 1) : 0.0;
  return flops / rates.flops_per_second + (h - 1.0) * readers * rates.tile_seconds;
}

/// The chain's seconds in closed form, one term per run of steps in which the same column
/// classes are left: O(classes) whatever the number of steps.
double panel_chain_seconds(const Platform& platform, Routine routine, const PanelChain& chain) {
  double fastest = 0.0;
  for (const Processor& p : platform.processors) fastest = std::max(fastest, p.speed_flops);
  const double nb = static_cast<double>(chain.tile), cube = nb * nb * nb;
  const double rate = fastest * chain.efficiency;
  const double tile_seconds = nb * nb * kBytesPerElement / platform.network.bandwidth_bytes_per_s;
  const std::size_t steps = std::min(chain.steps, chain.tile_rows);
  // Factorisations: LU (h − 1/3)·nb³ flops per step, QR (3h − 1)·nb³, h = R − k panel tiles.
  const double tiles = panel_tiles(chain.tile_rows, 0, steps), count = static_cast<double>(steps);
  const double flops = routine == Routine::LU ? (tiles - count / 3.0) * cube : (3.0 * tiles - count) * cube;
  double seconds = flops / rate;
  // Deliveries: (h − 1) tiles to each of the row's other ranks still holding trailing tiles.
  // Classes are gone once k reaches their last tile column, a run of them at a time: O(runs),
  // one for a grid's sketch, however many columns it has.
  const std::vector<LastColumns>& last = chain.last;  // latest first
  std::size_t runs = last.size(), remaining = 0, k = 0;
  for (const LastColumns& run : last) remaining += run.classes;
  while (k < steps) {
    while (runs > 0 && last[runs - 1].position <= k) remaining -= last[--runs].classes;
    const std::size_t end = runs > 0 ? std::min(steps, last[runs - 1].position) : steps;
    const std::size_t gone = chain.classes - remaining;
    const double readers = chain.distinct > gone + 1 ? static_cast<double>(chain.distinct - gone - 1) : 0.0;
    seconds += (panel_tiles(chain.tile_rows, k, end) - static_cast<double>(end - k)) * readers * tile_seconds;
    k = end;
  }
  return seconds;
}

std::size_t tiles_over(std::size_t extent, std::size_t tile) { return (extent + tile - 1) / tile; }

/// How many of the last tiles of suffix_balanced_order (or of a cyclic order, equal shares)
/// hold every class's last one: every class's first chunk of the forward greedy comes after
/// at most ⌊t_j/t_k⌋ + 1 chunks of each class k (t = 1/share), so, reversed, its last tile is
/// within the last Σ share / share_j + classes; caps (the classes' counts) only remove chunks
/// before it. 0 when a share is not positive and finite.
double last_tile_window(const std::vector<double>& shares) {
  double total = 0.0, smallest = std::numeric_limits<double>::infinity();
  for (double share : shares) {
    if (!(share > 0.0) || !std::isfinite(share)) return 0.0;
    total += share;
    smallest = std::min(smallest, share);
  }
  return total / smallest + static_cast<double>(shares.size());
}

/// Σ_{j=1}^{J} ⌈j/q⌉ in closed form: the largest column class's trailing tile columns over
/// the steps that leave J, J − 1, …, 1 of them.
double ceiling_sum(std::size_t J, std::size_t q) {
  const double a = static_cast<double>(J / q), r = static_cast<double>(J % q);
  return static_cast<double>(q) * a * (a + 1.0) / 2.0 + r * (a + 1.0);
}

/// The chain of `layout` (LU and QR, tiles present).
PanelChain chain_of(const Platform& platform, const TileOwnership& layout) {
  PanelChain chain;
  chain.tile = layout.tile;
  chain.efficiency = platform.kernel.update_efficiency(static_cast<double>(layout.tile), layout.grouped_updates);
  chain.tile_rows = layout.tiles();
  chain.steps = layout.tile_col_of(std::min(layout.row_extent(), layout.n) - 1) + 1;
  chain.classes = layout.cols;
  chain.distinct = fewest_distinct_per_row(layout, platform.size());
  chain.last = last_columns(layout);
  return chain;
}

}  // namespace

double panel_chain_lower_bound(const Platform& platform, Routine routine, const TileOwnership& layout) {
  if (routine != Routine::LU && routine != Routine::QR) return 0.0;
  if (layout.tiles() == 0 || layout.col_class.empty()) return 0.0;
  return panel_chain_seconds(platform, routine, chain_of(platform, layout));
}

std::vector<double> panel_floors(const Platform& platform, Routine routine, const TileOwnership& layout,
                                 const std::vector<std::size_t>& panels) {
  std::vector<double> floors(panels.size(), 0.0);
  if (routine != Routine::LU && routine != Routine::QR) return floors;
  if (layout.tiles() == 0 || layout.col_class.empty()) return floors;
  const PanelChain chain = chain_of(platform, layout);
  const PanelRates rates = panel_rates(platform, chain);
  const std::size_t steps = std::min(chain.steps, chain.tile_rows);
  const std::vector<LastColumns>& last = chain.last;  // latest first
  std::size_t runs = last.size(), remaining = 0;
  for (const LastColumns& run : last) remaining += run.classes;
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const std::size_t k = panels[i];
    if (k >= steps) continue;
    while (runs > 0 && last[runs - 1].position <= k) remaining -= last[--runs].classes;
    floors[i] = chain_panel_seconds(routine, chain, rates, k, remaining);
  }
  return floors;
}

double cartesian_panel_chain_lower_bound(const Platform& platform, Routine routine, MatrixShape shape,
                                         std::size_t tile, const std::vector<double>& col_shares) {
  if (routine != Routine::LU && routine != Routine::QR) return 0.0;
  if (tile == 0 || col_shares.empty() || shape.rows == 0 || shape.cols == 0) return 0.0;
  const double window = last_tile_window(col_shares);
  const std::size_t tile_cols = tiles_over(shape.cols, tile);
  // Fewer columns than that: a class may have none, and no cheap bound holds.
  if (window == 0.0 || static_cast<double>(tile_cols) < 2.0 * window) return 0.0;
  PanelChain chain;
  chain.tile = tile;
  const double nb = static_cast<double>(tile);  // the faster grouping: a bound for both
  chain.efficiency = std::max(platform.kernel.update_efficiency(nb, true), platform.kernel.update_efficiency(nb, false));
  chain.tile_rows = tiles_over(shape.rows, tile);
  chain.steps = tiles_over(std::min(shape.rows, shape.cols), tile);
  chain.classes = col_shares.size();
  chain.distinct = col_shares.size();  // a grid row's processors are distinct
  chain.last = {{tile_cols - static_cast<std::size_t>(std::ceil(window)), col_shares.size()}};
  return panel_chain_seconds(platform, routine, chain);
}

double cartesian_column_message_lower_bound(const Platform& platform, Routine routine, MatrixShape shape,
                                            std::size_t tile, const std::vector<double>& row_shares,
                                            std::size_t grid_cols) {
  if (routine != Routine::LU && routine != Routine::QR) return 0.0;
  const std::size_t p = row_shares.size(), q = grid_cols;
  const double window = last_tile_window(row_shares);
  if (tile == 0 || p < 2 || window == 0.0 || q == 0 || shape.rows == 0 || shape.cols == 0) return 0.0;
  using Index = std::int64_t;
  const auto tile_rows = static_cast<Index>(tiles_over(shape.rows, tile));
  const auto tile_cols = static_cast<Index>(tiles_over(shape.cols, tile));
  // A row class holds at most ⌊quota⌋ + 1 tile rows (apportioned by largest remainder), so
  // R tile rows below k hold at least ⌈R / most⌉ classes, and all p from R = `everyone` on.
  const double largest = *std::max_element(row_shares.begin(), row_shares.end());
  const double total = std::accumulate(row_shares.begin(), row_shares.end(), 0.0);
  const auto most = static_cast<Index>(std::floor(static_cast<double>(tile_rows) * largest / total)) + 1;
  const auto everyone = static_cast<Index>(std::ceil(window));
  // Steps k < K leave a trailing tile column; their R = tile_rows − 1 − k lie in
  // [tile_rows − K, tile_rows − 1], and J = R + (tile_cols − tile_rows) trailing columns.
  const Index K = std::min(static_cast<Index>(tiles_over(std::min(shape.rows, shape.cols), tile)), tile_cols - 1);
  const Index shift = tile_cols - tile_rows;
  const double nb = static_cast<double>(tile);
  const double tile_seconds = nb * nb * kBytesPerElement / platform.network.bandwidth_bytes_per_s;
  // A switched network carries the column classes' messages side by side: the largest class
  // (⌈J/q⌉ of the J trailing columns) bounds the step. A shared bus carries them one after
  // another: all J columns count, as one class would.
  const std::size_t side_by_side = platform.network.kind == NetworkKind::SharedBus ? 1 : q;
  // Steps whose R lies in [low, high], each with `receivers` besides the rank at row k.
  const auto run = [&](Index low, Index high, Index receivers) {
    low = std::max(low, tile_rows - K);
    high = std::min(high, tile_rows - 1);
    if (low > high || receivers <= 0) return 0.0;
    const double steps = static_cast<double>(high - low + 1);
    const double tiles = ceiling_sum(static_cast<std::size_t>(high + shift), side_by_side) -
                         ceiling_sum(static_cast<std::size_t>(low + shift - 1), side_by_side);
    return static_cast<double>(receivers) * (steps * platform.network.latency_s + tiles * tile_seconds);
  };
  double seconds = run(everyone, tile_rows, static_cast<Index>(p) - 1);
  // Below `everyone`, runs of `most` values of R with m classes: O(min(p, everyone / most)).
  const Index below = std::min({everyone, tile_rows, static_cast<Index>(p) * most + 1});
  for (Index m = 2; (m - 1) * most + 1 < below; ++m)
    seconds += run((m - 1) * most + 1, std::min(m * most, below - 1), m - 1);
  const double messages = routine == Routine::LU ? 1.0 : 2.0;  // U; QR: W there and back
  return kSampledMessageAllowance * messages * seconds;
}

}  // namespace hetscal::core

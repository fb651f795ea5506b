#include "core/time_models/cholesky_work_bound.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "core/time_models/step_sampling.hpp"
#include "core/time_models/time_model_steps.hpp"

namespace hetscal::core {
namespace {

std::vector<char> used_classes(const std::vector<std::size_t>& classes, std::size_t count, std::size_t& used);

/// The distinct owners of the cells that hold tiles (a row class of some tile row, a column
/// class of some tile column), in owner order: the processors with updates. A grid of more
/// rows than the matrix has tile rows (16,384×1 at N = 10⁶) leaves the others idle.
std::vector<std::size_t> working_owners(const TileOwnership& layout, std::size_t processors) {
  std::size_t rows_used = 0, cols_used = 0;
  const std::vector<char> row_used = used_classes(layout.row_class, layout.rows, rows_used);
  const std::vector<char> col_used = used_classes(layout.col_class, layout.cols, cols_used);
  std::vector<char> seen(processors, 0);
  std::vector<std::size_t> working;
  for (std::size_t a = 0; a < layout.rows; ++a)
    for (std::size_t b = 0; b < layout.cols; ++b) {
      const std::size_t x = layout.at(a, b);
      if (row_used[a] && col_used[b] && !seen[x]) seen[x] = 1, working.push_back(x);
    }
  return working;
}

/// The processor of `owners` with the lowest speed (the first such).
std::size_t slowest_of(const Platform& platform, const std::vector<std::size_t>& owners) {
  std::size_t slowest = owners.front();
  for (std::size_t x : owners)
    if (platform.processors[x].speed_flops < platform.processors[slowest].speed_flops) slowest = x;
  return slowest;
}

/// Σ_{m < tiles} m²: every step's SYRK and GEMM units (nb³) over its trailing triangle.
double trailing_update_units(double tiles) { return (tiles - 1.0) * tiles * (2.0 * tiles - 1.0) / 6.0; }

/// Σ over the tiles (i, j), j <= i, of cell (a, b) of j·(1 on the diagonal, 2 below): the nb³
/// units of that cell's updates over the whole factorisation.
double cell_update_units(const TileOwnership& layout, std::size_t a, std::size_t b) {
  const std::size_t tiles = layout.tiles();
  double units = 0.0, rows_of_a_below = 0.0;  // tile rows of class a below the current j
  for (std::size_t j = tiles; j-- > 0;) {
    if (layout.col_class[j] == b)
      units += static_cast<double>(j) * (2.0 * rows_of_a_below + (layout.row_class[j] == a ? 1.0 : 0.0));
    if (layout.row_class[j] == a) rows_of_a_below += 1.0;
  }
  return units;
}

/// The classes that occur in `classes` (per tile), as flags, and their number.
std::vector<char> used_classes(const std::vector<std::size_t>& classes, std::size_t count, std::size_t& used) {
  std::vector<char> flags(count, 0);
  used = 0;
  for (std::size_t c : classes)
    if (!flags[c]) flags[c] = 1, ++used;
  return flags;
}

/// Per cell (a, b): the receivers of a full colrow of that cell, |owners of row class a ∪
/// owners of column class b| − 1 (the sender, in row a), over the classes that occur.
std::vector<double> full_colrow_receivers(const TileOwnership& layout, std::size_t processors) {
  std::size_t rows_used = 0, cols_used = 0;
  const std::vector<char> row_used = used_classes(layout.row_class, layout.rows, rows_used);
  const std::vector<char> col_used = used_classes(layout.col_class, layout.cols, cols_used);
  std::vector<double> receivers(layout.rows * layout.cols, 0.0);
  if (has_distinct_owners(layout)) {  // a grid of distinct processors
    std::fill(receivers.begin(), receivers.end(), static_cast<double>(rows_used + cols_used) - 2.0);
    return receivers;
  }
  std::vector<std::size_t> stamp(processors, 0);
  std::size_t current = 0;
  for (std::size_t a = 0; a < layout.rows; ++a)
    for (std::size_t b = 0; b < layout.cols; ++b) {
      ++current;
      double distinct = 0.0;
      const auto add = [&](std::size_t x) {
        if (stamp[x] != current) stamp[x] = current, distinct += 1.0;
      };
      for (std::size_t c = 0; c < layout.cols; ++c)
        if (col_used[c]) add(layout.at(a, c));
      for (std::size_t r = 0; r < layout.rows; ++r)
        if (row_used[r]) add(layout.at(r, b));
      receivers[a * layout.cols + b] = std::max(0.0, distinct - 1.0);
    }
  return receivers;
}

/// Σ over the steps k of the receivers of step k's full colrows: tile i > k is full when
/// tile columns k+1 … i hold every column class that occurs (i >= first_full(k)) and tile rows
/// i … T−1 every row class that occurs (i <= last_full).
double full_colrow_tiles_received(const TileOwnership& layout, std::size_t processors) {
  const std::size_t tiles = layout.tiles();
  if (tiles < 2) return 0.0;
  const std::vector<double> per_cell = full_colrow_receivers(layout, processors);
  std::vector<double> before(tiles + 1, 0.0);  // before[i]: Σ receivers of tiles 0 … i−1
  for (std::size_t i = 0; i < tiles; ++i)
    before[i + 1] = before[i] + per_cell[layout.row_class[i] * layout.cols + layout.col_class[i]];
  // last_full: the smallest last occurrence over the row classes that occur.
  std::vector<std::size_t> last_row(layout.rows, tiles);
  for (std::size_t i = 0; i < tiles; ++i) last_row[layout.row_class[i]] = i;
  std::size_t last_full = tiles;
  for (std::size_t r : last_row)
    if (r < tiles) last_full = std::min(last_full, r);
  // first_full(k): the shortest window of tile columns k+1 … e holding every column class,
  // swept from the end: as k decreases, e never increases, so the window's right end only
  // drops the columns whose class it holds twice (O(tiles) in all).
  std::size_t cols_used = 0;
  used_classes(layout.col_class, layout.cols, cols_used);
  std::vector<std::size_t> in_window(layout.cols, 0);
  std::size_t classes_in_window = 0, end = tiles - 1;
  double received = 0.0;
  for (std::size_t s = tiles - 1; s >= 1; --s) {  // s = k + 1, the window [s, end]
    if (in_window[layout.col_class[s]]++ == 0) ++classes_in_window;
    while (end > s && in_window[layout.col_class[end]] > 1) --in_window[layout.col_class[end--]];
    if (classes_in_window == cols_used) {
      const std::size_t first_full = end;
      if (first_full <= last_full) received += before[last_full + 1] - before[first_full];
    }
  }
  return received;
}

/// What one step's colrow phase takes at least on a layout whose cells have distinct owners
/// (cholesky_panel_chain_lower_bound), as cholesky_steps.hpp's step k prices it: colrow i's
/// group is the owners of its row's cells in the column classes of tile columns k … i (the
/// sender's included) and of its column's cells in the row classes of tile rows i … K−1.
/// Once tile columns k … i hold every column class, a colrow's group depends on i alone, so
/// its broadcast is summed per row class from the end once (suffix sums): a step costs the
/// tiles until every column class is reached and O((rows + cols) · log tiles), not O(tiles).
class ColrowPhaseBound {
 public:
  ColrowPhaseBound(const Network& network, const TileOwnership& layout)
      : layout_(layout), shared_bus_(network.kind == NetworkKind::SharedBus), rows_after_(layout.tiles() + 1, 0), column_counts_(layout.col_class, layout.cols), column_stamp_(layout.cols, 0),
        row_seconds_(layout.rows, 0.0), row_positions_(positions_by_class(layout.row_class, layout.rows)), row_suffix_s_(layout.rows),
        last_row_diagonal_(layout.cols) {
    const double tile_bytes = static_cast<double>(layout.tile) * static_cast<double>(layout.tile) * 8.0;
    message_s_ = network.message_time(tile_bytes);
    for (std::size_t group = 0; group <= layout.rows + layout.cols; ++group)
      broadcast_s_.push_back(broadcast_time(network, group, tile_bytes));
    const std::size_t tiles = layout.tiles();
    std::vector<char> seen(layout.rows, 0);
    for (std::size_t i = tiles; i-- > 0;) {
      rows_after_[i] = rows_after_[i + 1] + (seen[layout.row_class[i]] ? 0 : 1);
      seen[layout.row_class[i]] = 1;
    }
    const std::vector<char> column_used = used_classes(layout.col_class, layout.cols, columns_used_);
    for (std::size_t b = 0; b < layout.cols; ++b)
      if (column_used[b]) used_columns_.push_back(b);
    for (std::size_t a = 0; a < layout.rows; ++a)
      if (!row_positions_[a].empty()) used_rows_.push_back(a);
    for (std::size_t a = 0; a < layout.rows; ++a) {
      row_suffix_s_[a].assign(row_positions_[a].size() + 1, 0.0);
      for (std::size_t j = row_positions_[a].size(); j-- > 0;)
        row_suffix_s_[a][j] = row_suffix_s_[a][j + 1] + full_broadcast_s(row_positions_[a][j]);
    }
    const std::size_t last_row = layout.row_class[tiles - 1];
    for (std::size_t i = 0; i < tiles; ++i)
      if (layout.row_class[i] == last_row) last_row_diagonal_[layout.col_class[i]].push_back(i);
  }

  /// The larger of the senders' broadcasts (on a shared bus all of them, which add up there;
  /// on a switch the busiest sender's) and the busiest receiver's tiles of step k.
  /// @pre k + 1 < tiles.
  double at(std::size_t k) { return std::max(senders_s(k), busiest_receiver_tiles(k) * message_s_); }

 private:
  /// The index in row_positions_[a] of row class a's first tile row >= s.
  std::size_t first_row_from(std::size_t a, std::size_t s) const {
    const std::vector<std::size_t>& at = row_positions_[a];
    return static_cast<std::size_t>(std::lower_bound(at.begin(), at.end(), s) - at.begin());
  }

  /// Colrow i's broadcast once tile columns k … i hold every column class.
  double full_broadcast_s(std::size_t i) const { return broadcast_s_[columns_used_ + rows_after_[i] - 1]; }

  /// The sender of row class a's colrows is the owner of (a, panel class): per row class,
  /// its colrows' broadcasts; their sum on a shared bus (every colrow's broadcast is one of the
  /// bus's, counted once), else the busiest row class's (a sender's broadcasts, one after another).
  double senders_s(std::size_t k) {
    ++stamp_;
    for (std::size_t a : used_rows_) row_seconds_[a] = 0.0;
    column_stamp_[layout_.col_class[k]] = stamp_;
    std::size_t columns_reached = 1, i = k + 1;
    for (; i < layout_.tiles() && columns_reached < columns_used_; ++i) {
      std::size_t& stamp = column_stamp_[layout_.col_class[i]];
      if (stamp != stamp_) stamp = stamp_, ++columns_reached;
      row_seconds_[layout_.row_class[i]] += broadcast_s_[columns_reached + rows_after_[i] - 1];
    }
    double busiest = 0.0, all = 0.0;
    for (std::size_t a : used_rows_) {  // tiles i … K−1: every column class reached
      row_seconds_[a] += row_suffix_s_[a][first_row_from(a, i)];
      busiest = std::max(busiest, row_seconds_[a]);
      all += row_seconds_[a];
    }
    return shared_bus_ ? all : busiest;
  }

  /// Two receivers whose tiles are known without listing the colrows (neither sends any, or
  /// only tiles it receives less): the owner of (last tile row's class, b) is reached by every
  /// colrow of column class b (by those not on its own diagonal when b is the panel's class,
  /// whose colrows its row sends); the owner of (a, b*), b* the first column class after the
  /// panel's own, by every colrow of row class a from b*'s first tile column on.
  double busiest_receiver_tiles(std::size_t k) const {
    const std::size_t tiles = layout_.tiles(), panel = layout_.col_class[k];
    double busiest = 0.0;
    for (std::size_t b : used_columns_) {
      double reached = static_cast<double>(column_counts_.count(k + 1, b));
      if (b == panel) {
        const std::vector<std::size_t>& own = last_row_diagonal_[b];
        reached -= static_cast<double>(own.end() - std::upper_bound(own.begin(), own.end(), k));
      }
      busiest = std::max(busiest, reached);
    }
    std::size_t first_other = k + 1;
    while (first_other < tiles && layout_.col_class[first_other] == panel) ++first_other;
    if (first_other == tiles) return busiest;
    for (std::size_t a : used_rows_)
      busiest = std::max(busiest, static_cast<double>(row_positions_[a].size() - first_row_from(a, first_other)));
    return busiest;
  }

  const TileOwnership& layout_;
  bool shared_bus_;
  double message_s_ = 0.0;
  std::vector<double> broadcast_s_;         ///< per group size
  std::vector<std::size_t> rows_after_;     ///< distinct row classes among tile rows i … K−1
  std::size_t columns_used_ = 0;            ///< column classes of some tile column
  std::vector<std::size_t> used_rows_, used_columns_;  ///< the classes of some tile row / column
  SuffixClassCounts column_counts_;
  std::vector<std::size_t> column_stamp_;   ///< per column class: the last step that reached it
  std::size_t stamp_ = 0;
  std::vector<double> row_seconds_;         ///< scratch: per row class, its sender's seconds
  std::vector<std::vector<std::size_t>> row_positions_;  ///< per row class, its tile rows
  std::vector<std::vector<double>> row_suffix_s_;        ///< [a][j]: full_broadcast_s from its j-th on
  /// Per column class b, the diagonal tiles (i, i) in cell (last tile row's class, b).
  std::vector<std::vector<std::size_t>> last_row_diagonal_;
};

}  // namespace

double cholesky_panel_chain_lower_bound(const Platform& platform, const TileOwnership& layout, double enough) {
  const std::size_t tiles = layout.tiles();
  if (tiles < 2 || !has_distinct_owners(layout)) return 0.0;
  // The model adds the same seconds in another order: rounding must not lift the bound above it.
  constexpr double kRounding = 1.0 - 1e-12;
  ColrowPhaseBound phase(platform.network, layout);
  double chain = 0.0;
  for (const SampledStep& sample : sampled_steps(tiles, kSampledSteps)) {
    if (sample.step + 1 >= tiles) continue;
    chain += sample.weight * phase.at(sample.step);
    if (chain * kRounding > enough) break;  // the rest only adds
  }
  return chain * kRounding;
}

std::vector<double> cholesky_colrow_phase_lower_bounds(const Network& network, const TileOwnership& layout,
                                                       const std::vector<std::size_t>& steps) {
  if (layout.tiles() < 2 || !has_distinct_owners(layout)) return {};
  ColrowPhaseBound phase(network, layout);
  std::vector<double> phases;
  for (std::size_t k : steps) phases.push_back(phase.at(k));
  return phases;
}

double cholesky_message_lower_bound(const Platform& platform, const TileOwnership& layout) {
  if (layout.owner.empty() || layout.tiles() == 0) return 0.0;
  double fastest = 0.0;
  for (std::size_t x : layout.owner) fastest = std::max(fastest, platform.processors[x].speed_flops);
  const double nb = static_cast<double>(layout.tile), t = static_cast<double>(layout.tiles());
  const double tile_bytes = nb * nb * 8.0;  // double precision, as the step model
  const double receives_s = full_colrow_tiles_received(layout, platform.size()) *
                            platform.network.message_time(tile_bytes);
  const double units = trailing_update_units(t);
  const double updates_s = units * nb * nb * nb / (fastest * platform.kernel.update_efficiency(nb, layout.grouped_updates));
  return (receives_s + updates_s) / static_cast<double>(distinct_owner_count(layout));
}

double cholesky_update_lower_bound(const Platform& platform, const TileOwnership& layout) {
  if (layout.owner.empty() || layout.tiles() == 0) return 0.0;
  const std::vector<std::size_t> working = working_owners(layout, platform.size());
  const std::size_t x = slowest_of(platform, working);
  double units = 0.0, working_speed = 0.0;
  for (std::size_t a = 0; a < layout.rows; ++a)
    for (std::size_t b = 0; b < layout.cols; ++b)
      if (layout.at(a, b) == x) units += cell_update_units(layout, a, b);
  for (std::size_t w : working) working_speed += platform.processors[w].speed_flops;
  const double nb = static_cast<double>(layout.tile), cube = nb * nb * nb;
  const double efficiency = platform.kernel.update_efficiency(nb, layout.grouped_updates);
  // The slowest working owner's updates, and all of them at perfect balance over the working
  // owners (the busiest one's take at least their average).
  const double slowest_s = units * cube / (platform.processors[x].speed_flops * efficiency);
  const double balanced_s = trailing_update_units(static_cast<double>(layout.tiles())) * cube / (working_speed * efficiency);
  return std::max(slowest_s, balanced_s);
}

}  // namespace hetscal::core

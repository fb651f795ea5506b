#include "core/time_models/cholesky_work_bound.hpp"

#include <algorithm>
#include <limits>
#include <vector>

namespace hetscal::core {
namespace {

/// The processor of the layout with the lowest speed (the first such in owner order).
std::size_t slowest_owner(const Platform& platform, const TileOwnership& layout) {
  std::size_t slowest = layout.owner.front();
  for (std::size_t x : layout.owner)
    if (platform.processors[x].speed_flops < platform.processors[slowest].speed_flops) slowest = x;
  return slowest;
}

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
  std::vector<std::size_t> sorted(layout.owner);
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) {  // a grid of distinct processors
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

}  // namespace

double cholesky_message_lower_bound(const Platform& platform, const TileOwnership& layout) {
  if (layout.owner.empty() || layout.tiles() == 0) return 0.0;
  std::vector<std::size_t> owners(layout.owner);
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  double fastest = 0.0;
  for (std::size_t x : owners) fastest = std::max(fastest, platform.processors[x].speed_flops);
  const double nb = static_cast<double>(layout.tile), t = static_cast<double>(layout.tiles());
  const double tile_bytes = nb * nb * 8.0;  // double precision, as the step model
  const double receives_s = full_colrow_tiles_received(layout, platform.size()) *
                            platform.network.message_time(tile_bytes);
  // Every step's SYRK and GEMM units over the trailing triangle: Σ m² for m < T, in nb³.
  const double units = (t - 1.0) * t * (2.0 * t - 1.0) / 6.0;
  const double updates_s = units * nb * nb * nb / (fastest * platform.kernel.update_efficiency(nb, layout.grouped_updates));
  return (receives_s + updates_s) / static_cast<double>(owners.size());
}

double cholesky_update_lower_bound(const Platform& platform, const TileOwnership& layout) {
  if (layout.owner.empty() || layout.tiles() == 0) return 0.0;
  const std::size_t x = slowest_owner(platform, layout);
  double units = 0.0;
  for (std::size_t a = 0; a < layout.rows; ++a)
    for (std::size_t b = 0; b < layout.cols; ++b)
      if (layout.at(a, b) == x) units += cell_update_units(layout, a, b);
  const double nb = static_cast<double>(layout.tile);
  const double rate = platform.processors[x].speed_flops * platform.kernel.update_efficiency(nb, layout.grouped_updates);
  return units * nb * nb * nb / rate;
}

}  // namespace hetscal::core

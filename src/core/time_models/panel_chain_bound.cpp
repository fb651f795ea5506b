#include "core/time_models/panel_chain_bound.hpp"

#include <algorithm>
#include <functional>
#include <vector>

namespace hetscal::core {
namespace {

constexpr double kBytesPerElement = 8.0;  // double precision, as the step models

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

/// Per column class, the position of its last tile column, latest first.
std::vector<std::size_t> last_columns(const TileOwnership& layout) {
  std::vector<std::size_t> last(layout.cols, 0);
  std::vector<bool> seen(layout.cols, false);
  for (std::size_t t = 0; t < layout.col_class.size(); ++t) last[layout.col_class[t]] = t, seen[layout.col_class[t]] = true;
  std::vector<std::size_t> present;
  for (std::size_t b = 0; b < layout.cols; ++b)
    if (seen[b]) present.push_back(last[b]);
  std::sort(present.begin(), present.end(), std::greater<>());
  return present;
}

}  // namespace

double panel_chain_lower_bound(const Platform& platform, Routine routine, const TileOwnership& layout) {
  if (routine != Routine::LU && routine != Routine::QR) return 0.0;
  if (layout.tiles() == 0 || layout.col_class.empty()) return 0.0;
  double fastest = 0.0;
  for (const Processor& p : platform.processors) fastest = std::max(fastest, p.speed_flops);
  const double nb = static_cast<double>(layout.tile), cube = nb * nb * nb;
  const double rate = fastest * platform.kernel.update_efficiency(nb, layout.grouped_updates);
  const double tile_seconds = nb * nb * kBytesPerElement / platform.network.bandwidth_bytes_per_s;
  const std::size_t tile_rows = layout.tiles();
  const std::size_t steps = layout.tile_col_of(std::min(layout.row_extent(), layout.n) - 1) + 1;
  const std::size_t classes = layout.cols, distinct = fewest_distinct_per_row(layout, platform.size());
  const std::vector<std::size_t> last = last_columns(layout);

  double seconds = 0.0;
  std::size_t remaining = last.size();  // column classes with a tile column after k
  for (std::size_t k = 0; k < steps && k < tile_rows; ++k) {
    while (remaining > 0 && last[remaining - 1] <= k) --remaining;
    const double h = static_cast<double>(tile_rows - k);  // panel tiles, i >= k
    const double flops = routine == Routine::LU ? (h - 1.0 / 3.0) * cube : (3.0 * h - 1.0) * cube;
    const std::size_t gone = classes - remaining;
    const double readers = distinct > gone + 1 ? static_cast<double>(distinct - gone - 1) : 0.0;
    seconds += flops / rate + (h - 1.0) * readers * tile_seconds;
  }
  return seconds;
}

}  // namespace hetscal::core

#include "core/time_models/cholesky_work_bound.hpp"

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

}  // namespace

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

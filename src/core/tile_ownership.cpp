#include "core/tile_ownership.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>
#include <string>

#include "core/error.hpp"

namespace hetscal::core {
namespace {

std::size_t tile_count(std::size_t n, std::size_t tile) { return (n + tile - 1) / tile; }

void require_sizes(std::size_t n, std::size_t tile, std::size_t rows, std::size_t cols,
                   std::size_t owners, const char* what) {
  std::ostringstream msg;
  if (n == 0 || tile == 0 || rows == 0 || cols == 0)
    msg << what << ": n = " << n << ", tile = " << tile << ", " << rows << " x " << cols
        << " classes; every size must be >= 1";
  else if (owners != rows * cols)
    msg << what << ": " << owners << " owners for a " << rows << " x " << cols << " table";
  else return;
  throw InvalidArgument(msg.str());
}

std::vector<std::size_t> cyclic_classes(std::size_t count, std::size_t classes) {
  std::vector<std::size_t> out(count);
  for (std::size_t t = 0; t < count; ++t) out[t] = t % classes;
  return out;
}

/// joint[u * to_classes + i] = elements e in [0, n) with from class u and to class i.
std::vector<double> joint_counts(std::size_t n, std::size_t from_tile,
                                 const std::vector<std::size_t>& from_class, std::size_t from_classes,
                                 std::size_t to_tile, const std::vector<std::size_t>& to_class,
                                 std::size_t to_classes) {
  std::vector<double> joint(from_classes * to_classes, 0.0);
  // Walk e in runs where neither tile index changes.
  std::size_t e = 0;
  while (e < n) {
    const std::size_t tf = e / from_tile, tt = e / to_tile;
    const std::size_t end = std::min({n, (tf + 1) * from_tile, (tt + 1) * to_tile});
    joint[from_class[tf] * to_classes + to_class[tt]] += static_cast<double>(end - e);
    e = end;
  }
  return joint;
}

}  // namespace

std::vector<std::size_t> proportional_sequence(std::size_t count, const std::vector<double>& shares) {
  if (shares.empty()) throw InvalidArgument("proportional_sequence: no share");
  for (double s : shares)
    if (!std::isfinite(s) || s <= 0.0)
      throw InvalidArgument("proportional_sequence: share " + std::to_string(s) +
                            " must be finite and > 0");
  std::vector<double> dealt(shares.size(), 0.0);
  std::vector<std::size_t> out(count);
  for (std::size_t t = 0; t < count; ++t) {
    std::size_t best = 0;
    for (std::size_t a = 1; a < shares.size(); ++a)
      if ((dealt[a] + 1.0) / shares[a] < (dealt[best] + 1.0) / shares[best]) best = a;
    out[t] = best;
    dealt[best] += 1.0;
  }
  return out;
}

TileOwnership block_cyclic_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                     std::size_t grid_cols, std::vector<std::size_t> processor_at) {
  if (processor_at.empty()) {
    processor_at.resize(grid_rows * grid_cols);
    std::iota(processor_at.begin(), processor_at.end(), std::size_t{0});
  }
  require_sizes(n, tile, grid_rows, grid_cols, processor_at.size(), "block-cyclic layout");
  const std::size_t k = tile_count(n, tile);
  return {n, tile, grid_rows, grid_cols, std::move(processor_at), cyclic_classes(k, grid_rows),
          cyclic_classes(k, grid_cols)};
}

TileOwnership cartesian_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                  std::size_t grid_cols, std::vector<std::size_t> processor_at,
                                  const std::vector<double>& row_share,
                                  const std::vector<double>& col_share) {
  require_sizes(n, tile, grid_rows, grid_cols, processor_at.size(), "Cartesian grid");
  if (row_share.size() != grid_rows || col_share.size() != grid_cols) {
    std::ostringstream msg;
    msg << "Cartesian grid " << grid_rows << " x " << grid_cols << ": " << row_share.size()
        << " row shares and " << col_share.size() << " column shares";
    throw InvalidArgument(msg.str());
  }
  const std::size_t k = tile_count(n, tile);
  return {n, tile, grid_rows, grid_cols, std::move(processor_at),
          proportional_sequence(k, row_share), proportional_sequence(k, col_share)};
}

TileOwnership pattern_ownership(std::size_t n, std::size_t tile, std::size_t rows, std::size_t cols,
                                std::vector<std::size_t> owner) {
  require_sizes(n, tile, rows, cols, owner.size(), "pattern");
  const std::size_t k = tile_count(n, tile);
  return {n, tile, rows, cols, std::move(owner), cyclic_classes(k, rows), cyclic_classes(k, cols)};
}

std::vector<double> elements_held(const TileOwnership& layout, std::size_t processors) {
  return elements_kept(layout, layout, processors);
}

std::vector<double> elements_kept(const TileOwnership& from, const TileOwnership& to,
                                  std::size_t processors) {
  if (from.n != to.n) {
    std::ostringstream msg;
    msg << "elements_kept: matrix orders differ (" << from.n << " and " << to.n << ")";
    throw InvalidArgument(msg.str());
  }
  const auto rows = joint_counts(from.n, from.tile, from.row_class, from.rows, to.tile,
                                 to.row_class, to.rows);
  const auto cols = joint_counts(from.n, from.tile, from.col_class, from.cols, to.tile,
                                 to.col_class, to.cols);
  std::vector<double> kept(processors, 0.0);
  for (std::size_t u = 0; u < from.rows; ++u)
    for (std::size_t v = 0; v < from.cols; ++v) {
      const std::size_t x = from.at(u, v);
      for (std::size_t i = 0; i < to.rows; ++i) {
        const double r = rows[u * to.rows + i];
        if (r == 0.0) continue;
        for (std::size_t j = 0; j < to.cols; ++j)
          if (to.at(i, j) == x) kept.at(x) += r * cols[v * to.cols + j];
      }
    }
  return kept;
}

std::vector<std::vector<std::size_t>> suffix_class_counts(const std::vector<std::size_t>& classes,
                                                          std::size_t num_classes) {
  std::vector<std::vector<std::size_t>> count(classes.size() + 1,
                                              std::vector<std::size_t>(num_classes, 0));
  for (std::size_t s = classes.size(); s-- > 0;) {
    count[s] = count[s + 1];
    ++count[s][classes[s]];
  }
  return count;
}

}  // namespace hetscal::core

/// @file pattern_distribution.cpp
#include "layout/pattern_distribution.hpp"

#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

namespace {
std::string tile_name(GlobalTile t) {
  return "(" + std::to_string(t.row) + ", " + std::to_string(t.col) + ")";
}
}  // namespace

PatternDistribution::PatternDistribution(TileSplit rows, TileSplit cols, int pattern_rows,
                                         int pattern_cols, std::vector<int> table, int num_ranks,
                                         const OwnerResolver& resolver)
    : Distribution(rows, cols, num_ranks),
      pattern_rows_(pattern_rows),
      pattern_cols_(pattern_cols),
      table_(std::move(table)) {
  if (pattern_rows < 1 || pattern_cols < 1) {
    throw InvalidArgument("PatternDistribution: pattern shape " + std::to_string(pattern_rows) +
                          "x" + std::to_string(pattern_cols) + " must be at least 1x1");
  }
  const std::size_t cells =
      static_cast<std::size_t>(pattern_rows) * static_cast<std::size_t>(pattern_cols);
  if (table_.size() != cells) {
    throw InvalidArgument("PatternDistribution: table has " + std::to_string(table_.size()) +
                          " entries, pattern has " + std::to_string(cells) + " cells");
  }
  bool any_unassigned = false;
  for (std::size_t k = 0; k < cells; ++k) {
    const int r = table_[k];
    if (r == kUnassigned) {
      any_unassigned = true;
    } else if (r < 0 || r >= num_ranks) {
      throw InvalidArgument("PatternDistribution: table entry " + std::to_string(k) + " = " +
                            std::to_string(r) + " is outside [0, " + std::to_string(num_ranks) +
                            ")");
    }
  }
  if (!any_unassigned) return;
  if (!resolver) {
    throw InvalidArgument(
        "PatternDistribution: the table leaves cells unassigned but no "
        "resolver was given");
  }
  // Resolve eagerly: owner() stays a cheap, pure lookup and a bad answer fails here.
  for (std::int64_t j = 0; j < cols.count(); ++j) {
    for (std::int64_t i = 0; i < rows.count(); ++i) {
      const GlobalTile t{i, j};
      if (cell(static_cast<int>(i % pattern_rows), static_cast<int>(j % pattern_cols)) !=
          kUnassigned) {
        continue;
      }
      const int r = resolver(t);
      if (r < 0 || r >= num_ranks) {
        throw InvalidArgument("PatternDistribution: resolver gave rank " + std::to_string(r) +
                              " for tile " + tile_name(t) + ", outside [0, " +
                              std::to_string(num_ranks) + ")");
      }
      resolved_.emplace(tile_key(t), r);
    }
  }
}

int PatternDistribution::owner(GlobalTile t) const {
  const int r =
      cell(static_cast<int>(t.row % pattern_rows_), static_cast<int>(t.col % pattern_cols_));
  if (r != kUnassigned) return r;
  return resolved_.at(tile_key(t));
}

OwnerClasses PatternDistribution::owner_classes() const {
  static_assert(kUnassigned == kOwnerPerTile, "an unassigned cell is resolved per tile");
  OwnerClasses classes;
  for (std::int64_t i = 0; i < rows().count(); ++i)
    classes.row_class.push_back(static_cast<int>(i % pattern_rows_));
  for (std::int64_t j = 0; j < cols().count(); ++j)
    classes.col_class.push_back(static_cast<int>(j % pattern_cols_));
  classes.class_rows = pattern_rows_;
  classes.class_cols = pattern_cols_;
  classes.cells = table_;
  return classes;
}

PatternDistribution lay_over(const core::Pattern& pattern, TileSplit rows, TileSplit cols,
                             core::TileRegion region) {
  if (!pattern.has_unassigned()) {
    return PatternDistribution(rows, cols, pattern.rows(), pattern.cols(), pattern.owners(),
                               pattern.num_nodes());
  }
  const core::OwnerMap map = core::resolve(pattern, rows.count(), cols.count(), region);
  return PatternDistribution(rows, cols, pattern.rows(), pattern.cols(), pattern.owners(),
                             pattern.num_nodes(),
                             [&map](GlobalTile t) { return map.owner(t.row, t.col); });
}

}  // namespace hetscal::layout

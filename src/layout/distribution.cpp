/// @file distribution.cpp
/// TileSplit arithmetic and the generic (brute-force) row/column groups of a Distribution.
#include "layout/distribution.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

TileSplit::TileSplit(std::int64_t extent, std::int64_t block, std::int64_t first)
    : extent_(extent), block_(block), first_(first) {
  if (extent < 0) {
    throw InvalidArgument("TileSplit: extent " + std::to_string(extent) + " is negative");
  }
  if (block < 1) {
    throw InvalidArgument("TileSplit: block " + std::to_string(block) + " must be >= 1");
  }
  if (first < 1) {
    throw InvalidArgument("TileSplit: first tile size " + std::to_string(first) + " must be >= 1");
  }
  // Clipped like PB_Cfirstnb, so that one geometry has one representation.
  if (extent > 0) first_ = std::min(first, extent);
}

std::int64_t TileSplit::count() const {
  if (extent_ == 0) return 0;
  if (extent_ <= first_) return 1;
  return 1 + (extent_ - first_ + block_ - 1) / block_;
}

std::int64_t TileSplit::offset(std::int64_t tile) const {
  if (tile <= 0) return 0;
  return std::min(extent_, first_ + (tile - 1) * block_);
}

std::int64_t TileSplit::size(std::int64_t tile) const {
  const std::int64_t begin = offset(tile);
  const std::int64_t end =
      tile == 0 ? std::min(extent_, first_) : std::min(extent_, begin + block_);
  return end - begin;
}

std::int64_t TileSplit::tile_of(std::int64_t element) const {
  if (element < first_) return 0;
  return 1 + (element - first_) / block_;
}

Distribution::Distribution(TileSplit rows, TileSplit cols, int num_ranks)
    : rows_(rows), cols_(cols), num_ranks_(num_ranks) {
  if (num_ranks < 1) {
    throw InvalidArgument("Distribution: num_ranks " + std::to_string(num_ranks) + " must be >= 1");
  }
}

namespace {
std::vector<int> sorted_unique(std::vector<int> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}
}  // namespace

std::vector<int> Distribution::row_group(std::int64_t tile_row) const {
  std::vector<int> ranks;
  for (std::int64_t j = 0; j < cols_.count(); ++j) ranks.push_back(owner({tile_row, j}));
  return sorted_unique(std::move(ranks));
}

std::vector<int> Distribution::col_group(std::int64_t tile_col) const {
  std::vector<int> ranks;
  for (std::int64_t i = 0; i < rows_.count(); ++i) ranks.push_back(owner({i, tile_col}));
  return sorted_unique(std::move(ranks));
}

OwnerClasses Distribution::owner_classes() const {
  OwnerClasses classes;
  classes.row_class.assign(static_cast<std::size_t>(rows_.count()), 0);
  classes.col_class.assign(static_cast<std::size_t>(cols_.count()), 0);
  return classes;
}

}  // namespace hetscal::layout

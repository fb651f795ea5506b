#include "core/patterns/pattern_resolve.hpp"

#include <string>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

void require_tile_count(std::int64_t count, const char* what) {
  if (count < 0) {
    throw InvalidArgument(std::string("resolve: ") + what + " " + std::to_string(count) +
                          " must be >= 0");
  }
}

}  // namespace

TileRegion region_of(Factorization f) {
  return f == Factorization::LU ? TileRegion::Full : TileRegion::LowerTriangle;
}

OwnerMap::OwnerMap(Pattern pattern, std::int64_t tile_rows, std::int64_t tile_cols,
                   TileRegion region)
    : pattern_(std::move(pattern)), tile_rows_(tile_rows), tile_cols_(tile_cols), region_(region) {
  cell_slot_.assign(pattern_.owners().size(), -1);
  for (std::size_t cell = 0; cell < cell_slot_.size(); ++cell) {
    if (pattern_.owners()[cell] == Pattern::kUnassigned) cell_slot_[cell] = unassigned_cells_++;
  }
  replica_cols_ = ceil_div(tile_cols, pattern_.cols());
  const std::int64_t replicas = ceil_div(tile_rows, pattern_.rows()) * replica_cols_;
  replica_owner_.assign(static_cast<std::size_t>(replicas * unassigned_cells_),
                        Pattern::kUnassigned);
}

std::size_t OwnerMap::replica_slot(std::int64_t tile_row, std::int64_t tile_col) const {
  const int i = static_cast<int>(tile_row % pattern_.rows());
  const int j = static_cast<int>(tile_col % pattern_.cols());
  const std::int64_t replica =
      (tile_row / pattern_.rows()) * replica_cols_ + tile_col / pattern_.cols();
  return static_cast<std::size_t>(replica * unassigned_cells_ +
                                  cell_slot_[static_cast<std::size_t>(i) * pattern_.cols() + j]);
}

int OwnerMap::owner(std::int64_t tile_row, std::int64_t tile_col) const {
  const int cell_owner = pattern_.at(static_cast<int>(tile_row % pattern_.rows()),
                                     static_cast<int>(tile_col % pattern_.cols()));
  if (cell_owner != Pattern::kUnassigned) return cell_owner;
  return replica_owner_[replica_slot(tile_row, tile_col)];
}

std::vector<std::int64_t> OwnerMap::tiles_per_node(TileRegion region) const {
  std::vector<std::int64_t> count(pattern_.num_nodes(), 0);
  for (std::int64_t row = 0; row < tile_rows_; ++row) {
    for (std::int64_t col = 0; col < tile_cols_; ++col) {
      const int node = owner(row, col);
      if (node != Pattern::kUnassigned && in_region(region, row, col)) ++count[node];
    }
  }
  return count;
}

OwnerMap resolve(const Pattern& pattern, std::int64_t tile_rows, std::int64_t tile_cols,
                 TileRegion region) {
  require_tile_count(tile_rows, "tile_rows");
  require_tile_count(tile_cols, "tile_cols");
  OwnerMap map(pattern, tile_rows, tile_cols, region);
  if (map.unassigned_cells_ == 0) return map;

  std::vector<std::int64_t> load = map.tiles_per_node(region);  // unresolved replicas skipped
  std::vector<std::vector<int>> colrow(pattern.rows());
  for (int i = 0; i < pattern.rows(); ++i) {
    if (pattern.at(i, i) == Pattern::kUnassigned) colrow[i] = pattern.colrow_nodes(i);
  }
  for (std::int64_t row = 0; row < tile_rows; ++row) {
    for (std::int64_t col = 0; col < tile_cols; ++col) {
      const int i = static_cast<int>(row % pattern.rows());
      if (pattern.at(i, static_cast<int>(col % pattern.cols())) != Pattern::kUnassigned) continue;
      int best = colrow[i].front();  // colrow_nodes is sorted: ties go to the lowest id
      for (int node : colrow[i]) {
        if (load[node] < load[best]) best = node;
      }
      map.replica_owner_[map.replica_slot(row, col)] = best;
      if (in_region(region, row, col)) ++load[best];
    }
  }
  return map;
}

TilePicture tile_picture(const Pattern& pattern, std::int64_t n, TileRegion region) {
  const OwnerMap map = resolve(pattern, n, n, region);
  TilePicture picture;
  picture.n = n;
  picture.num_nodes = pattern.num_nodes();
  picture.owner.resize(static_cast<std::size_t>(n * n));
  for (std::int64_t row = 0; row < n; ++row) {
    for (std::int64_t col = 0; col < n; ++col) {
      picture.owner[static_cast<std::size_t>(row * n + col)] =
          in_region(region, row, col) ? map.owner(row, col) : TilePicture::kOutsideRegion;
    }
  }
  return picture;
}

}  // namespace hetscal::core

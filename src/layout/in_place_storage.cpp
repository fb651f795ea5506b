/// @file in_place_storage.cpp
#include "layout/in_place_storage.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

InPlaceLocalLayout::InPlaceLocalLayout(const Distribution& planned, const Distribution& caller,
                                       CartesianLocalLayout caller_storage, StoredTiles stored)
    : LocalLayout(planned.rows(), planned.cols(), caller_storage.rank()), caller_(std::move(caller_storage)) {
  if (planned.rows() != caller.rows() || planned.cols() != caller.cols() || caller_.rows() != caller.rows() ||
      caller_.cols() != caller.cols())
    throw InvalidArgument("InPlaceLocalLayout: the planned and the caller's layouts have different tiles");
  const int me = rank();
  slot_.assign(static_cast<std::size_t>(rows().count() * cols().count()), kNotMine);
  column_ld_.assign(static_cast<std::size_t>(cols().count()), 1);
  for (std::int64_t j = 0; j < cols().count(); ++j) {
    std::int64_t row = 0;  // the column's received rows so far
    for (std::int64_t i = 0; i < rows().count(); ++i) {
      const GlobalTile t{i, j};
      const bool mine = planned.owner(t) == me, held = caller.owner(t) == me;
      if (!is_stored(stored, t)) {
        if (mine) slot_[index(t)] = kNotStored;
        continue;
      }
      if (held && !mine) given_.push_back(t);
      if (!mine) continue;
      if (held) {
        slot_[index(t)] = kKept;
        continue;
      }
      slot_[index(t)] = overflow_elements_ + row;
      received_.push_back(t);
      row += rows().size(i);
    }
    column_ld_[static_cast<std::size_t>(j)] = std::max<std::int64_t>(1, row);
    overflow_elements_ += row * cols().size(j);
  }
}

bool InPlaceLocalLayout::owns(GlobalTile t) const {
  require_inside(t);
  return slot_[index(t)] != kNotMine;
}

TileLocation InPlaceLocalLayout::tile_location(GlobalTile t) const {
  require_inside(t);
  const std::int64_t slot = slot_[index(t)];
  if (slot == kKept) return caller_.tile_location(t);
  if (slot >= 0) return {slot, column_ld_[static_cast<std::size_t>(t.col)], TileBase::Overflow};
  throw InvalidArgument("InPlaceLocalLayout: rank " + std::to_string(rank()) +
                        (slot == kNotStored ? " does not store tile (" : " does not own tile (") +
                        std::to_string(t.row) + ", " + std::to_string(t.col) + ")");
}

}  // namespace hetscal::layout

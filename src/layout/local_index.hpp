#pragma once
/// @file local_index.hpp
/// Indices into one rank's local column-major array, typed apart from global ones. Mixing
/// a global index (of a tile or element of the whole matrix) with a local one (of a rank's
/// array) is the classic bug of block-cyclic code; as DLA-Future's GlobalTileIndex and
/// LocalTileIndex do, a local row or column here is its own type: it is made explicitly
/// from an integer, never converts back silently, and only moves by a count of rows or
/// columns. Global tile and element indices stay plain integers (and GlobalTile), so passing
/// one where the other is expected does not compile.
#include <cstdint>

namespace hetscal::layout {

/// A row (Axis = LocalRowAxis) or column (LocalColumnAxis) of a rank's local array, as
/// ScaLAPACK's local indices but 0-based: the first local row of a submatrix is its
/// row_base.
template <class Axis>
class LocalIndex {
 public:
  constexpr LocalIndex() = default;
  constexpr explicit LocalIndex(std::int64_t value) : value_(value) {}

  /// The index as an integer, for arithmetic on a local buffer.
  constexpr std::int64_t value() const { return value_; }

  /// `count` rows (columns) further on, or back.
  constexpr LocalIndex operator+(std::int64_t count) const { return LocalIndex(value_ + count); }
  constexpr LocalIndex operator-(std::int64_t count) const { return LocalIndex(value_ - count); }
  /// The number of rows (columns) from `b` to `a`.
  friend constexpr std::int64_t operator-(LocalIndex a, LocalIndex b) { return a.value_ - b.value_; }

  friend constexpr bool operator==(LocalIndex a, LocalIndex b) { return a.value_ == b.value_; }
  friend constexpr bool operator!=(LocalIndex a, LocalIndex b) { return a.value_ != b.value_; }
  friend constexpr bool operator<(LocalIndex a, LocalIndex b) { return a.value_ < b.value_; }
  friend constexpr bool operator<=(LocalIndex a, LocalIndex b) { return a.value_ <= b.value_; }
  friend constexpr bool operator>(LocalIndex a, LocalIndex b) { return a.value_ > b.value_; }
  friend constexpr bool operator>=(LocalIndex a, LocalIndex b) { return a.value_ >= b.value_; }

 private:
  std::int64_t value_ = 0;
};

struct LocalRowAxis;
struct LocalColumnAxis;
using LocalRow = LocalIndex<LocalRowAxis>;
using LocalCol = LocalIndex<LocalColumnAxis>;

/// Offset of element (row, col) in a column-major local array of leading dimension `ld`.
constexpr std::int64_t local_offset(LocalRow row, LocalCol col, std::int64_t ld) {
  return row.value() + col.value() * ld;
}

}  // namespace hetscal::layout

#pragma once
/// @file gather_layout.hpp
/// Where tiles land in the buffer of one MPI_Allgatherv when every rank contributes the
/// tiles it owns of a sequence that every rank enumerates in the same order: rank r's tiles
/// one after the other (each contiguous, column-major), from displacement r. Every rank
/// computes the layout alone, so the gather needs no size exchange.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

class GatherLayout {
 public:
  /// Allocates the per-rank tables (nothing is allocated afterwards).
  explicit GatherLayout(int ranks)
      : elements_(static_cast<std::size_t>(ranks)),
        counts_(static_cast<std::size_t>(ranks)),
        displs_(static_cast<std::size_t>(ranks)),
        cursor_(static_cast<std::size_t>(ranks)) {}

  /// Lays out the tiles `for_each_tile` enumerates: it calls its argument with (owner,
  /// elements) for each tile, in the gather's order.
  /// @throws InvalidArgument when the gathered buffer would exceed MPI's int count.
  template <typename ForEachTile>
  void lay_out(ForEachTile&& for_each_tile) {
    std::fill(elements_.begin(), elements_.end(), 0);
    for_each_tile([&](int owner, std::int64_t elements) {
      elements_[static_cast<std::size_t>(owner)] += elements;
    });
    std::int64_t total = 0;
    for (std::size_t r = 0; r < elements_.size(); ++r) {
      displs_[r] = static_cast<int>(total);
      total += elements_[r];
      mpi::mpi_count(total,
                     "gathered panel");  // the prefix fits, so this count and displacement do
      counts_[r] = static_cast<int>(elements_[r]);
    }
    total_ = total;
    rewind();
  }

  /// Starts enumerating the tiles again for place().
  void rewind() { std::copy(displs_.begin(), displs_.end(), cursor_.begin()); }
  /// Position in the gathered buffer of the next tile of `owner` (tiles enumerated in the
  /// order lay_out saw them).
  std::int64_t place(int owner, std::int64_t elements) {
    const std::int64_t position = cursor_[static_cast<std::size_t>(owner)];
    cursor_[static_cast<std::size_t>(owner)] += elements;
    return position;
  }

  std::int64_t total() const { return total_; }
  std::int64_t elements_of(int rank) const { return elements_[static_cast<std::size_t>(rank)]; }
  const int* counts() const { return counts_.data(); }
  const int* displs() const { return displs_.data(); }

 private:
  std::vector<std::int64_t> elements_;
  std::vector<int> counts_, displs_;
  std::vector<std::int64_t> cursor_;
  std::int64_t total_ = 0;
};

}  // namespace hetscal::kernels::detail

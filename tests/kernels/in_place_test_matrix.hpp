#pragma once
// A matrix on an in-place take-over's storage (layout/in_place_storage.hpp), as the LU, QR and
// Cholesky kernel tests factorise it: a block-cyclic caller array on a near-square grid
// (padded, NaN in the padding and wherever nothing was given) holding the tiles the planned
// layout leaves with their caller owner, an overflow holding the others. The plan moves every
// third tile row to the next grid row and every third tile column to the next grid column, so
// that tiles are kept, given and received, and the kernels' paths meet both buffers.
#include <mpi.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "kernel_test_support.hpp"
#include "kernels/distributed_matrix.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/in_place_storage.hpp"

namespace hetscal::kernels::test {

template <typename T>
class InPlaceTestMatrix {
 public:
  InPlaceTestMatrix(const layout::TileSplit& rows, const layout::TileSplit& cols,
                    layout::StoredTiles stored)
      : rows_(rows),
        cols_(cols),
        stored_(stored),
        grid_(layout::ProcessGrid::row_major(near_square(world_size()).first,
                                             near_square(world_size()).second)),
        caller_(rows, cols, identity(grid_.nprow()), identity(grid_.npcol()), grid_),
        planned_(rows, cols, moved(rows, grid_.nprow()), moved(cols, grid_.npcol()), grid_),
        array_(caller_, world_rank(), layout::CartesianLocalLayout(caller_, world_rank()).ld() + 3),
        storage_(planned_, caller_, array_, stored),
        data_(static_cast<std::size_t>(array_.local_elements()), quiet_nan<T>()),
        overflow_(static_cast<std::size_t>(storage_.overflow_elements())) {}

  /// An M×N sub(A) in tiles of `block` after a first one of `first`.
  InPlaceTestMatrix(std::int64_t m, std::int64_t n, std::int64_t block, std::int64_t first,
                    layout::StoredTiles stored)
      : InPlaceTestMatrix(layout::TileSplit(m, block, first), layout::TileSplit(n, block, first),
                          stored) {}

  /// Gives every element of sub(A)'s stored tiles its value(i, j), in the caller's array (the
  /// tiles given away included) and in the overflow, and remembers the caller's array.
  template <typename Value>
  void fill(Value&& value) {
    const auto given = [&](std::int64_t i, std::int64_t j, T& x) { x = value(i, j); };
    for_each(array_, given);
    for_each(storage_, given);
    before_ = data_;
  }

  DistributedMatrix<T> matrix() { return {&planned_, &storage_, data_.data(), overflow_.data()}; }

  /// Calls f(i, j, element) for every element of the stored tiles the plan gives this rank.
  template <typename F>
  void for_each_planned(F&& f) {
    for_each(storage_, f);
  }

  /// True on every rank when nothing of the caller's array but its kept stored tiles changed
  /// since fill(), bit for bit (the padding, the tiles given away, the tiles not stored).
  bool untouched_but_kept() {
    std::vector<char> kept(data_.size(), 0);
    for_each(storage_, [&](std::int64_t, std::int64_t, T& x) {
      if (&x >= data_.data() && &x < data_.data() + data_.size())
        kept[static_cast<std::size_t>(&x - data_.data())] = 1;
    });
    bool untouched = true;
    for (std::size_t e = 0; e < data_.size(); ++e)
      untouched =
          untouched && (kept[e] != 0 || std::memcmp(&data_[e], &before_[e], sizeof(T)) == 0);
    return on_all_ranks(untouched);
  }

  /// sub(A) gathered on every rank (M×N column-major), the elements keep(i, j) selects of the
  /// stored tiles; zeros elsewhere.
  template <typename Keep>
  std::vector<std::complex<double>> gathered(Keep&& keep) {
    const std::int64_t m = rows_.extent();
    std::vector<std::complex<double>> mine(static_cast<std::size_t>(m * cols_.extent())),
        all(mine.size());
    for_each(storage_, [&](std::int64_t i, std::int64_t j, T& x) {
      if (keep(i, j)) mine[static_cast<std::size_t>(i + j * m)] = widened(x);
    });
    MPI_Allreduce(mine.data(), all.data(), static_cast<int>(all.size()), MPI_C_DOUBLE_COMPLEX,
                  MPI_SUM, MPI_COMM_WORLD);
    return all;
  }
  std::vector<std::complex<double>> gathered() {
    return gathered([](std::int64_t, std::int64_t) { return true; });
  }

 private:
  // Tile line l to grid line l, every third one to the next.
  static std::vector<int> moved(const layout::TileSplit& split, int groups) {
    std::vector<int> map(static_cast<std::size_t>(std::max<std::int64_t>(split.count(), 1)));
    for (std::size_t l = 0; l < map.size(); ++l)
      map[l] = static_cast<int>((l + (l % 3 == 2 ? 1 : 0)) % static_cast<std::size_t>(groups));
    return map;
  }

  // Calls f(i, j, element) for every element of the stored tiles of `layout`.
  template <typename F>
  void for_each(const layout::LocalLayout& layout, F&& f) {
    for (const layout::GlobalTile t : layout.owned_tiles()) {
      if (!layout::is_stored(stored_, t)) continue;
      const layout::TileLocation where = layout.tile_location(t);
      T* base = (where.base == layout::TileBase::Overflow ? overflow_.data() : data_.data()) +
                where.offset;
      for (std::int64_t c = 0; c < cols_.size(t.col); ++c)
        for (std::int64_t r = 0; r < rows_.size(t.row); ++r)
          f(rows_.offset(t.row) + r, cols_.offset(t.col) + c, base[r + c * where.ld]);
    }
  }

  layout::TileSplit rows_, cols_;
  layout::StoredTiles stored_;
  layout::ProcessGrid grid_;
  layout::CartesianDistribution caller_, planned_;
  layout::CartesianLocalLayout array_;
  layout::InPlaceLocalLayout storage_;
  std::vector<T> data_, overflow_, before_;
};

}  // namespace hetscal::kernels::test

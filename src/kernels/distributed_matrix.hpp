#pragma once
/// @file distributed_matrix.hpp
/// A rank's view of a distributed matrix: who owns which tile (Distribution), where this
/// rank keeps its tiles (LocalLayout) and the local buffer. Kernels take these views, so
/// they work on every Distribution: block-cyclic, heterogeneous Cartesian grids, patterns.
#include "layout/distribution.hpp"
#include "layout/local_storage.hpp"

namespace hetscal::kernels {

/// Non-owning view; T may be const for inputs. Ranks of `distribution` are ranks of the
/// communicator the kernel is called with.
template <typename T>
struct DistributedMatrix {
  const layout::Distribution* distribution = nullptr;
  const layout::LocalLayout* storage = nullptr;  ///< this rank's storage
  T* data = nullptr;                              ///< storage->local_elements() elements
  /// The second buffer of a storage of kind KeptAndOverflow (layout/in_place_storage.hpp):
  /// the tiles an in-place take-over moved to this rank. Null for the other kinds.
  T* overflow = nullptr;

  /// The first element of the tile at `where`, in whichever buffer holds it.
  T* at(const layout::TileLocation& where) const {
    return (where.base == layout::TileBase::Overflow ? overflow : data) + where.offset;
  }
  std::int64_t rows() const { return distribution->rows().extent(); }
  std::int64_t cols() const { return distribution->cols().extent(); }
};

}  // namespace hetscal::kernels

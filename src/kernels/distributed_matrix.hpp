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

  std::int64_t rows() const { return distribution->rows().extent(); }
  std::int64_t cols() const { return distribution->cols().extent(); }
};

}  // namespace hetscal::kernels

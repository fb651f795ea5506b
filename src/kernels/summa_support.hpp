#pragma once
/// @file summa_support.hpp
/// Internal to the SUMMA loops: MPI types per scalar, owned communicators, panel copies.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.hpp"
#include "layout/distribution.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels::detail {

template <typename T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<float>() { return MPI_FLOAT; }
template <>
inline MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }

/// A panel's element count as MPI's int. @throws InvalidArgument when it does not fit.
inline int mpi_count(std::int64_t elements) {
  if (elements > INT_MAX)
    throw InvalidArgument("gemm: panel of " + std::to_string(elements) +
                          " elements exceeds MPI's int count");
  return static_cast<int>(elements);
}

/// A communicator freed on destruction (MPI_COMM_NULL on ranks outside it).
class OwnedComm {
 public:
  OwnedComm() = default;
  explicit OwnedComm(MPI_Comm comm) : comm_(comm) {}
  ~OwnedComm() {
    if (comm_ != MPI_COMM_NULL && mpi::mpi_usable()) MPI_Comm_free(&comm_);
  }
  OwnedComm(const OwnedComm&) = delete;
  OwnedComm& operator=(const OwnedComm&) = delete;
  MPI_Comm get() const { return comm_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

/// Collective over `parent`: the ranks with the same `color` (MPI_UNDEFINED: none), ordered
/// by `key`.
inline MPI_Comm split_comm(MPI_Comm parent, int color, int key) {
  MPI_Comm comm = MPI_COMM_NULL;
  mpi::check_mpi(MPI_Comm_split(parent, color, key, &comm), "MPI_Comm_split");
  return comm;
}

/// Copies a rows×cols column-major block (leading dimensions ld_src, ld_dst).
template <typename T>
void copy_matrix(const T* src, std::int64_t ld_src, T* dst, std::int64_t ld_dst,
                 std::int64_t rows, std::int64_t cols) {
  if (rows <= 0) return;
  for (std::int64_t j = 0; j < cols; ++j)
    std::memcpy(dst + j * ld_dst, src + j * ld_src, static_cast<std::size_t>(rows) * sizeof(T));
}

/// Largest tile of a split (0 when empty): the first or the second (the others are no larger).
inline std::int64_t largest_tile(const layout::TileSplit& split) {
  std::int64_t largest = 0;
  for (std::int64_t t = 0; t < std::min<std::int64_t>(split.count(), 2); ++t)
    largest = std::max(largest, split.size(t));
  return largest;
}

}  // namespace hetscal::kernels::detail

#pragma once
/// @file summa_cartesian.hpp
/// Internal to kernels::gemm: the C-stationary SUMMA loop on a Cartesian grid. C, op(A) and
/// op(B) sit on one grid, op(A)'s tile rows in C's grid rows and op(B)'s tile columns in
/// C's grid columns, each rank's part in one column-major local array. Step k: the grid
/// column holding panel k of op(A) broadcasts its local rows of it along every grid row, the
/// grid row holding panel k of op(B) its local columns down every grid column, and each rank
/// makes ONE local GEMM of LOCr(C) × LOCc(C) × kb. The next step's broadcasts are posted
/// before the current step is computed (double buffering).
#include <mpi.h>

#include <array>
#include <optional>
#include <vector>

#include "kernels/local_blas.hpp"
#include "kernels/summa_support.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/grid_communicators.hpp"
#include "mpi/mpi_type.hpp"

namespace hetscal::kernels::detail {

/// One matrix of the Cartesian loop on this rank.
template <typename T>
struct CartesianOperand {
  const layout::CartesianDistribution* distribution = nullptr;
  const layout::CartesianLocalLayout* storage = nullptr;
  T* data = nullptr;
};

/// C += alpha·A·B with A M×K and B K×N aligned with C as described above (A's and B's K
/// splits equal). Collective over the grid rows and columns of `comms`.
/// @pre comms are the grid rows and columns of C's grid (GridCommunicators::serves).
template <typename T>
void summa_cartesian(T alpha, const CartesianOperand<const T>& a,
                     const CartesianOperand<const T>& b, const CartesianOperand<T>& c,
                     const mpi::GridCommunicators& comms) {
  const std::optional<layout::GridCoord>& me = comms.coordinates();
  if (!me) return;  // outside the grid: no tile of C, op(A) or op(B) lives here
  // A member's rank in its grid row is its grid column, in its grid column its grid row.
  const MPI_Comm row_comm = comms.row(), col_comm = comms.col();

  const layout::TileSplit& k_split = a.distribution->cols();
  const std::int64_t rows = c.storage->local_rows(), cols = c.storage->local_cols();
  const std::int64_t widest = largest_tile(k_split);
  // Every member of a grid row has the same LOCr (and of a grid column the same LOCc), so
  // skipping an empty broadcast is decided alike by all of them.
  mpi::mpi_count(rows * widest, "gemm: panel");
  mpi::mpi_count(widest * cols, "gemm: panel");
  std::array<std::vector<T>, 2> a_panel, b_panel;
  for (int slot = 0; slot < 2; ++slot) {
    a_panel[slot].resize(static_cast<std::size_t>(rows * widest));
    b_panel[slot].resize(static_cast<std::size_t>(widest * cols));
  }
  std::array<std::array<MPI_Request, 2>, 2> requests;
  for (auto& slot : requests) slot.fill(MPI_REQUEST_NULL);

  const auto post = [&](std::int64_t k, int slot) {
    const std::int64_t kb = k_split.size(k);
    if (rows > 0) {
      const int root = a.distribution->grid_col(k);
      if (root == me->col) {
        const auto& s = *a.storage;
        copy_matrix(a.data + s.row_base() + s.local_col_of_tile(k) * s.ld(), s.ld(),
                    a_panel[slot].data(), rows, rows, kb);
      }
      MPI_Ibcast(a_panel[slot].data(), static_cast<int>(rows * kb), mpi::mpi_type<T>(), root,
                 row_comm, &requests[slot][0]);
    }
    if (cols > 0) {
      const int root = b.distribution->grid_row(k);
      if (root == me->row) {
        const auto& s = *b.storage;
        copy_matrix(b.data + s.local_row_of_tile(k) + s.col_base() * s.ld(), s.ld(),
                    b_panel[slot].data(), kb, kb, cols);
      }
      MPI_Ibcast(b_panel[slot].data(), static_cast<int>(kb * cols), mpi::mpi_type<T>(), root,
                 col_comm, &requests[slot][1]);
    }
  };

  // Nothing of C here when a local extent is 0 (the buffer may then be empty).
  T* c_local = rows > 0 && cols > 0
                   ? c.data + c.storage->row_base() + c.storage->col_base() * c.storage->ld()
                   : nullptr;
  const std::int64_t steps = k_split.count();
  if (steps > 0) post(0, 0);
  for (std::int64_t k = 0; k < steps; ++k) {
    const int slot = static_cast<int>(k % 2);
    if (k + 1 < steps) post(k + 1, 1 - slot);  // travels while step k is multiplied
    MPI_Waitall(2, requests[slot].data(), MPI_STATUSES_IGNORE);
    const std::int64_t kb = k_split.size(k);
    gemm<T>(Op::NoTrans, Op::NoTrans, rows, cols, kb, alpha, a_panel[slot].data(),
            std::max<std::int64_t>(rows, 1), b_panel[slot].data(), kb, T(1), c_local,
            c.storage->ld());
  }
}

}  // namespace hetscal::kernels::detail

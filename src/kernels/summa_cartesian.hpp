#pragma once
/// @file summa_cartesian.hpp
/// Internal to kernels::gemm: the C-stationary SUMMA loop on a Cartesian grid. C, op(A) and
/// op(B) sit on one grid, op(A)'s tile rows in C's grid rows and op(B)'s tile columns in
/// C's grid columns, each rank's part in one column-major local array. Step k: the grid
/// column holding panel k of op(A) broadcasts its local rows of it along every grid row, the
/// grid row holding panel k of op(B) its local columns down every grid column, and each rank
/// makes ONE local GEMM of LOCr(C) × LOCc(C) × kb. The next step's broadcasts are posted
/// before the current step is computed (double buffering). All panels are allocated before
/// the first message (see kernels/gemm.cpp: all or nothing).
#include <mpi.h>

#include <array>
#include <optional>
#include <vector>

#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"
#include "kernels/summa_support.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/grid_communicators.hpp"
#include "mpi/mpi_type.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::kernels::detail {

/// One matrix of the Cartesian loop on this rank.
template <typename T>
struct CartesianOperand {
  const layout::CartesianDistribution* distribution = nullptr;
  const layout::CartesianLocalLayout* storage = nullptr;
  T* data = nullptr;
};

/// C += alpha·A·B with A M×K and B K×N aligned with C as described above (A's and B's K
/// splits equal), in two parts: the constructor allocates the panels, run() communicates.
template <typename T>
class CartesianSumma {
 public:
  /// Allocates the double-buffered panels. Local: no communication. The operands' data
  /// need not hold their values yet (they are read by run()).
  /// @throws InvalidArgument when a panel exceeds MPI's int count; std::bad_alloc.
  CartesianSumma(const CartesianOperand<const T>& a, const CartesianOperand<const T>& b,
                 const CartesianOperand<T>& c)
      : a_(a), b_(b), c_(c) {
    // Outside the grid no tile of C, op(A) or op(B) lives here: no panel either.
    if (!c.distribution->grid().coordinates(c.storage->rank())) return;
    rows_ = c.storage->local_rows();
    cols_ = c.storage->local_cols();
    const std::int64_t widest = largest_tile(a.distribution->cols());
    for (int slot = 0; slot < 2; ++slot) {
      a_panel_[slot].resize(static_cast<std::size_t>(mpi::mpi_count(rows_ * widest, "gemm: panel")));
      b_panel_[slot].resize(static_cast<std::size_t>(mpi::mpi_count(widest * cols_, "gemm: panel")));
    }
  }

  /// C += alpha·A·B. Collective over the grid rows and columns of `comms`; allocates nothing.
  /// @pre comms are the grid rows and columns of C's grid (GridCommunicators::serves).
  void run(T alpha, const mpi::GridCommunicators& comms) {
    const std::optional<layout::GridCoord>& me = comms.coordinates();
    if (!me) return;
    // A member's rank in its grid row is its grid column, in its grid column its grid row.
    const MPI_Comm row_comm = comms.row(), col_comm = comms.col();
    const layout::TileSplit& k_split = a_.distribution->cols();
    std::array<std::array<MPI_Request, 2>, 2> requests;
    for (auto& slot : requests) slot.fill(MPI_REQUEST_NULL);

    // Every member of a grid row has the same LOCr (and of a grid column the same LOCc), so
    // skipping an empty broadcast is decided alike by all of them.
    const auto post = [&](std::int64_t k, int slot) {
      const std::int64_t kb = k_split.size(k);
      if (rows_ > 0) {
        const int root = a_.distribution->grid_col(k);
        if (root == me->col) {
          const auto& s = *a_.storage;
          copy_matrix(a_.data + s.offset(s.row_base(), *s.local_col_of_tile(k)), s.ld(),
                      a_panel_[slot].data(), rows_, rows_, kb);
        }
        mpi::check_mpi(MPI_Ibcast(a_panel_[slot].data(), static_cast<int>(rows_ * kb), mpi::mpi_type<T>(), root,
                                  row_comm, &requests[slot][0]), "MPI_Ibcast");
      }
      if (cols_ > 0) {
        const int root = b_.distribution->grid_row(k);
        if (root == me->row) {
          const auto& s = *b_.storage;
          copy_matrix(b_.data + s.offset(*s.local_row_of_tile(k), s.col_base()), s.ld(),
                      b_panel_[slot].data(), kb, kb, cols_);
        }
        mpi::check_mpi(MPI_Ibcast(b_panel_[slot].data(), static_cast<int>(kb * cols_), mpi::mpi_type<T>(), root,
                                  col_comm, &requests[slot][1]), "MPI_Ibcast");
      }
    };

    // Nothing of C here when a local extent is 0 (the buffer may then be empty).
    const auto& c_array = *c_.storage;
    T* c_local = rows_ > 0 && cols_ > 0
                     ? c_.data + c_array.offset(c_array.row_base(), c_array.col_base())
                     : nullptr;
    const std::int64_t steps = k_split.count();
    if (steps > 0) post(0, 0);
    for (std::int64_t k = 0; k < steps; ++k) {
      const int slot = static_cast<int>(k % 2);
      if (k + 1 < steps) post(k + 1, 1 - slot);  // travels while step k is multiplied
      mpi::check_mpi(MPI_Waitall(2, requests[slot].data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
      const std::int64_t kb = k_split.size(k);
      gemm<T>(Op::NoTrans, Op::NoTrans, rows_, cols_, kb, alpha, a_panel_[slot].data(),
              std::max<std::int64_t>(rows_, 1), b_panel_[slot].data(), kb, T(1), c_local,
              c_.storage->ld());
    }
  }

 private:
  CartesianOperand<const T> a_, b_;
  CartesianOperand<T> c_;
  std::int64_t rows_ = 0, cols_ = 0;  ///< LOCr(C), LOCc(C); 0 outside the grid
  std::array<ScalarBuffer<T>, 2> a_panel_, b_panel_;
};

}  // namespace hetscal::kernels::detail

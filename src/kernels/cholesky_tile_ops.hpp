#pragma once
/// @file cholesky_tile_ops.hpp
/// Internal to kernels::cholesky: the local operations of one step on tiles, written once for
/// both triangles. The driver thinks in the lower triangle: logical tile (i, j), i >= j, is
/// the physical tile (i, j) of A for Uplo::Lower and (j, i) for Uplo::Upper, where A holds
/// its transpose. The panel tile of line i at step k is then L_ik (m_i×kb) for Lower and
/// L_ikᴴ = U_ki (kb×m_i) for Upper.
///
/// Every transpose here is the conjugate transpose (Op::ConjTrans, a plain transpose on real
/// data), and diagonal tiles are updated with HERK (SYRK on real data), so one template
/// serves the four scalar types. HERK and POTRF ignore the imaginary parts of the diagonal
/// and leave them zero, as LAPACK's xPOTRF does.
#include <cstdint>

#include "kernels/blas_enums.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/summa_support.hpp"

namespace hetscal::kernels::detail {

/// Panel tiles of consecutive lines stacked as one block: `lines` logical rows of L (or of
/// L's panel) in the storage orientation of the triangle: lines×kb column-major for Lower,
/// kb×lines for Upper, leading dimension `ld`.
template <typename T>
struct PanelBlock {
  const T* data = nullptr;
  std::int64_t ld = 1;
  std::int64_t lines = 0;
};

/// The local operations of a Cholesky step on one triangle.
template <typename T>
class TriangleOps {
 public:
  explicit TriangleOps(Uplo uplo) : uplo_(uplo) {}

  Uplo uplo() const { return uplo_; }

  /// Leading dimension of a contiguous panel tile of `lines` lines and kb columns of L.
  std::int64_t panel_ld(std::int64_t lines, std::int64_t kb) const {
    return uplo_ == Uplo::Lower ? lines : kb;
  }
  /// Offset of line `line` (0-based) within a contiguous panel block of leading dimension ld.
  std::int64_t line_offset(std::int64_t line, std::int64_t ld) const {
    return uplo_ == Uplo::Lower ? line : line * ld;
  }
  /// Copies a panel tile of `lines` lines (leading dimension src_ld) into a block.
  void copy_lines(const T* src, std::int64_t src_ld, T* dst, std::int64_t dst_ld,
                  std::int64_t lines, std::int64_t kb) const {
    if (uplo_ == Uplo::Lower) {
      copy_matrix(src, src_ld, dst, dst_ld, lines, kb);
    } else {
      copy_matrix(src, src_ld, dst, dst_ld, kb, lines);
    }
  }

  /// Factorises the kb×kb diagonal tile in place; LAPACK's INFO.
  int factor_diagonal(T* a, std::int64_t ld, std::int64_t kb) const {
    return potrf<T>(uplo_, kb, a, ld);
  }
  /// The same, column by column (xPOTF2): stops where ScaLAPACK's PxPOTF2 stops, leaving what
  /// it leaves.
  int factor_diagonal_unblocked(T* a, std::int64_t ld, std::int64_t kb) const {
    return potf2<T>(uplo_, kb, a, ld);
  }

  /// Panel tile := L_ik = A_ik·L_kk⁻ᴴ (Lower, m×kb) or U_ki = U_kk⁻ᴴ·A_ki (Upper, kb×m).
  void solve_panel_tile(const T* diagonal, std::int64_t diagonal_ld, std::int64_t kb, T* tile,
                        std::int64_t ld, std::int64_t lines) const {
    if (uplo_ == Uplo::Lower) {
      trsm<T>(Side::Right, Uplo::Lower, Op::ConjTrans, Diag::NonUnit, lines, kb, T(1), diagonal,
              diagonal_ld, tile, ld);
    } else {
      trsm<T>(Side::Left, Uplo::Upper, Op::ConjTrans, Diag::NonUnit, kb, lines, T(1), diagonal,
              diagonal_ld, tile, ld);
    }
  }

  /// Diagonal tile A_jj −= L_jk·L_jkᴴ (its `uplo` triangle only).
  void update_diagonal(const PanelBlock<T>& line, std::int64_t kb, T* a, std::int64_t ld) const {
    const Op op = uplo_ == Uplo::Lower ? Op::NoTrans : Op::ConjTrans;
    herk<T>(uplo_, op, line.lines, kb, real_of_t<T>(-1), line.data, line.ld, real_of_t<T>(1), a,
            ld);
  }

  /// Off-diagonal block of logical rows `rows` and logical columns `cols` (rows below cols):
  /// A −= L_rows·L_colsᴴ, stored as physical rows×cols (Lower) or cols×rows (Upper).
  void update_off_diagonal(const PanelBlock<T>& rows, const PanelBlock<T>& cols, std::int64_t kb,
                           T* a, std::int64_t ld) const {
    if (uplo_ == Uplo::Lower) {
      gemm<T>(Op::NoTrans, Op::ConjTrans, rows.lines, cols.lines, kb, T(-1), rows.data, rows.ld,
              cols.data, cols.ld, T(1), a, ld);
    } else {
      gemm<T>(Op::ConjTrans, Op::NoTrans, cols.lines, rows.lines, kb, T(-1), cols.data, cols.ld,
              rows.data, rows.ld, T(1), a, ld);
    }
  }

 private:
  Uplo uplo_;
};

}  // namespace hetscal::kernels::detail

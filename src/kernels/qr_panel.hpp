#pragma once
/// @file qr_panel.hpp
/// Internal to kernels::qr: the panel rank's work on a gathered panel (factorization_panel.hpp
/// gathers and scatters it): LAPACK's xGEQRF, then xLARFT for the compact WY form's T. Every
/// rank receives τ and T; the ranks that update receive V with the factored tile rows.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/factorization_panel.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/local_blas.hpp"
#include "kernels/scalar_buffer.hpp"

namespace hetscal::kernels::detail {

/// The QR's Factor of GatheredPanel: broadcasts τ (r = reflectors of the step), then T
/// (r×r, column-major, leading dimension r).
template <typename T>
class QrPanelFactor {
 public:
  /// Never factorised where A holds it: the QR writes its copy of the diagonal tile's V.
  static constexpr bool kFactorsInA = false;
  /// W = Vᴴ·A sums over the panel's rows, and a GEMM spans rows as far as they follow one
  /// another in memory: read in A, the panel rank's own rows would group otherwise than in its
  /// gathered panel, and round otherwise (factorization_panel.hpp).
  static constexpr bool kReadsOwnRowsInA = false;

  using Shared = T;

  /// Reflectors of step k: min(panel rows, width), as xGEQRF makes them.
  static std::int64_t reflectors(const FactorizationTiles& tiles, std::int64_t k) {
    return tiles.pivot_count(k);
  }
  static std::int64_t shared_size(const FactorizationTiles& tiles, std::int64_t k) {
    const std::int64_t r = reflectors(tiles, k);
    return r + r * r;
  }

  /// xGEQRF's workspace for every panel this rank factorises, in elements.
  static std::int64_t work_size(const FactorizationTiles& tiles) {
    std::int64_t work = 1;
    for (std::int64_t k = 0; k < tiles.steps(); ++k)
      if (tiles.panel_rank(k) == tiles.my_rank())
        work = std::max(work, geqrf_work_size<T>(tiles.panel_rows(k), tiles.width(k)));
    return work;
  }
  void allocate(const FactorizationTiles& tiles) { work_.resize(static_cast<std::size_t>(work_size(tiles))); }

  void factorise(const FactorizationTiles& tiles, std::int64_t k, T* panel, std::int64_t ld,
                 Shared* shared) {
    const std::int64_t r = reflectors(tiles, k);
    geqrf<T>(ld, tiles.width(k), panel, ld, shared, work_.data(),
             static_cast<std::int64_t>(work_.size()));
    larft<T>(ld, r, panel, ld, shared, shared + r, r);
  }

 private:
  ScalarBuffer<T> work_;  ///< xGEQRF's workspace
};

template <typename T>
using QrPanel = GatheredPanel<T, QrPanelFactor<T>>;

/// Step k's τ (reflectors(k) entries) and T (reflectors(k)², leading dimension
/// reflectors(k)). @pre finish(k) of the panel.
template <typename T>
const T* qr_panel_tau(const QrPanel<T>& panel, std::int64_t k) {
  return panel.shared(k);
}
template <typename T>
const T* qr_panel_t(const QrPanel<T>& panel, const FactorizationTiles& tiles, std::int64_t k) {
  return panel.shared(k) + QrPanelFactor<T>::reflectors(tiles, k);
}

/// Makes the rows×r tile `v` (leading dimension ld) of V's diagonal explicitly unit lower:
/// ones on the diagonal, zeros above (R's place, already written back into A), so that the
/// update multiplies by V with plain GEMMs.
template <typename T>
void make_unit_lower(T* v, std::int64_t ld, std::int64_t rows, std::int64_t r) {
  for (std::int64_t c = 0; c < r; ++c) {
    std::fill(v + c * ld, v + c * ld + std::min(c, rows), T(0));
    if (c < rows) v[c + c * ld] = T(1);
  }
}

/// Makes this rank's received step k's diagonal V tile (when it received it) explicitly unit
/// lower, where the panel's slot holds it. @pre finish(k) of the panel, which was not read
/// tile by tile (allocate's by_tile: the panel rank's slot is then still being sent from).
template <typename T>
void make_diagonal_v_explicit(QrPanel<T>& panel, const FactorizationTiles& tiles, std::int64_t k) {
  T* v = panel.l_tile(k, k);
  if (v != nullptr) make_unit_lower(v, panel.l_ld(k), tiles.rows().size(k), QrPanelFactor<T>::reflectors(tiles, k));
}

/// The same in a copy: `diagonal` (room for the tile, leading dimension its rows) receives
/// step k's diagonal V tile, explicitly unit lower; returns it, or nullptr when this rank did
/// not receive the tile. @pre finish(k) of the panel.
template <typename T>
T* explicit_diagonal_v(const QrPanel<T>& panel, const FactorizationTiles& tiles, std::int64_t k, T* diagonal) {
  const BlockPartner<const T> v = panel.l_rows(k, k);
  if (v.at == nullptr) return nullptr;
  const std::int64_t rows = tiles.rows().size(k), r = QrPanelFactor<T>::reflectors(tiles, k);
  copy_matrix(v.at, v.ld, diagonal, rows, rows, r);
  make_unit_lower(diagonal, rows, rows, r);
  return diagonal;
}

}  // namespace hetscal::kernels::detail

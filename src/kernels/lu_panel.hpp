#pragma once
/// @file lu_panel.hpp
/// Internal to kernels::lu: the panel rank's work on a gathered panel (factorization_panel.hpp
/// gathers and scatters it): LAPACK's xGETRF, whose INFO and pivots every rank receives.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "kernels/factorization_panel.hpp"
#include "kernels/factorization_tiles.hpp"
#include "kernels/local_blas.hpp"

namespace hetscal::kernels::detail {

/// The LU's Factor of GatheredPanel: broadcasts INFO, then the step's pivots (global 0-based
/// rows).
template <typename T>
class LuPanelFactor {
 public:
  using Shared = std::int64_t;

  static std::int64_t shared_size(const FactorizationTiles& tiles, std::int64_t k) {
    return tiles.pivot_count(k) + 1;
  }

  void allocate(const FactorizationTiles& tiles) {
    std::int64_t widest = 0;
    for (std::int64_t k = 0; k < tiles.steps(); ++k) widest = std::max(widest, tiles.width(k));
    ipiv_.resize(static_cast<std::size_t>(widest));
  }

  /// The panel may be factorised where A holds it (factorization_panel.hpp): xGETRF writes its
  /// L rows once, and the LU reads them only.
  static constexpr bool kFactorsInA = true;
  /// The update's GEMMs sum over the panel's columns only: the panel rank may read its own rows
  /// in A (factorization_panel.hpp), however they then group.
  static constexpr bool kReadsOwnRowsInA = true;

  void factorise(const FactorizationTiles& tiles, std::int64_t k, T* panel, std::int64_t ld,
                 Shared* shared) {
    const std::int64_t origin = tiles.rows().offset(k);
    shared[0] = getrf<T>(tiles.panel_rows(k), tiles.width(k), panel, ld, ipiv_.data());
    for (std::int64_t p = 0; p < tiles.pivot_count(k); ++p)
      shared[p + 1] = origin + ipiv_[static_cast<std::size_t>(p)] - 1;
  }

 private:
  std::vector<int> ipiv_;  ///< xGETRF's pivots
};

template <typename T>
using LuPanel = GatheredPanel<T, LuPanelFactor<T>>;

/// Step k's INFO of xGETRF on the panel (0, or 1-based within the panel) and its pivots.
template <typename T>
int panel_info(const LuPanel<T>& panel, std::int64_t k) {
  return static_cast<int>(panel.shared(k)[0]);
}
template <typename T>
const std::int64_t* panel_pivots(const LuPanel<T>& panel, std::int64_t k) {
  return panel.shared(k) + 1;
}

}  // namespace hetscal::kernels::detail

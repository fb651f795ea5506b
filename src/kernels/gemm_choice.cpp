/// @file gemm_choice.cpp
#include "kernels/gemm_choice.hpp"

#include <algorithm>
#include <cmath>

#include "layout/cartesian_distribution.hpp"

namespace hetscal::kernels {
namespace {

constexpr double kCombineRatio = 1.3;  // PBLAS's CBRATIO
constexpr double kClearWin = 1.3;      // how much cheaper another algorithm must look

double share(std::int64_t extent, int parts) {
  return std::ceil(static_cast<double>(extent) / static_cast<double>(parts));
}

}  // namespace

Stationary choose_stationary(std::int64_t m, std::int64_t n, std::int64_t k, int nprow, int npcol) {
  const double rows_c = share(m, nprow), cols_c = share(n, npcol);
  const double k_rows = share(k, nprow), k_cols = share(k, npcol);
  const double across_rows = npcol > 1 ? 1.0 : 0.0;  // a grid row has someone to talk to
  const double across_cols = nprow > 1 ? 1.0 : 0.0;
  const double keep_c = static_cast<double>(k) * (rows_c * across_rows + cols_c * across_cols);
  const double keep_b = static_cast<double>(m) * (k_rows * across_rows + std::max(k_rows, k_cols) +
                                                  kCombineRatio * cols_c * across_cols);
  const double keep_a = static_cast<double>(n) * (kCombineRatio * rows_c * across_rows +
                                                  k_cols * across_cols + std::max(k_cols, k_rows));
  if (keep_c <= kClearWin * keep_a && keep_c <= kClearWin * keep_b) return Stationary::C;
  if (keep_a <= keep_b && kClearWin * keep_a <= keep_c) return Stationary::A;
  return Stationary::B;
}

Stationary resolve_stationary(Stationary requested, std::int64_t m, std::int64_t n,
                              std::int64_t k, const layout::Distribution& c) {
  if (requested != Stationary::Automatic) return requested;
  if (const auto* cartesian = dynamic_cast<const layout::CartesianDistribution*>(&c))
    return choose_stationary(m, n, k, cartesian->grid().nprow(), cartesian->grid().npcol());
  int nprow = static_cast<int>(std::sqrt(static_cast<double>(c.num_ranks())));
  while (c.num_ranks() % nprow != 0) --nprow;
  return choose_stationary(m, n, k, nprow, c.num_ranks() / nprow);
}

}  // namespace hetscal::kernels

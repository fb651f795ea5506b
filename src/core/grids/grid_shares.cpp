#include "core/grids/grid_shares.hpp"

#include <algorithm>
#include <numeric>

namespace hetscal::core {

double slowest_time(const Arrangement& a, const Shares& s) {
  double slowest = 0.0;
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) slowest = std::max(slowest, s.r[i] * a.t(i, j) * s.c[j]);
  return slowest;
}

double work_per_time(const Arrangement& a, const Shares& s) {
  const double rows = std::accumulate(s.r.begin(), s.r.end(), 0.0);
  const double cols = std::accumulate(s.c.begin(), s.c.end(), 0.0);
  return rows * cols / slowest_time(a, s);
}

double cyclic_work_per_time(const Arrangement& a) {
  const double slowest = *std::max_element(a.cycle_time.begin(), a.cycle_time.end());
  return static_cast<double>(a.rows * a.cols) / slowest;
}

}  // namespace hetscal::core

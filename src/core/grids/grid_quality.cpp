#include "core/grids/grid_quality.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

void require_matching(const Arrangement& a, const Shares& s) {
  if (s.r.size() != a.rows || s.c.size() != a.cols) {
    std::ostringstream msg;
    msg << "shares: " << s.r.size() << " row and " << s.c.size() << " column values for a "
        << a.rows << "x" << a.cols << " grid";
    throw InvalidArgument(msg.str());
  }
}

}  // namespace

std::vector<ProcessorLoad> processor_loads(const Arrangement& a, const Shares& s) {
  require_matching(a, s);
  const double total = std::accumulate(s.r.begin(), s.r.end(), 0.0) *
                       std::accumulate(s.c.begin(), s.c.end(), 0.0);
  const double slowest = slowest_time(a, s);
  std::vector<ProcessorLoad> loads;
  loads.reserve(a.rows * a.cols);
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) {
      ProcessorLoad load;
      load.processor = a.processor.empty() ? i * a.cols + j : a.at(i, j);
      load.row = i;
      load.col = j;
      load.work_fraction = s.r[i] * s.c[j] / total;
      load.busy_fraction = s.r[i] * a.t(i, j) * s.c[j] / slowest;
      loads.push_back(load);
    }
  }
  return loads;
}

double words_per_rank1_update(std::size_t p, std::size_t q, double n) {
  return n * static_cast<double>((q - 1) + (p - 1));
}

GridFigures grid_figures(const Arrangement& a, const Shares& s) {
  require_matching(a, s);
  GridFigures f;
  const double slowest = slowest_time(a, s);
  f.work_per_time = std::accumulate(s.r.begin(), s.r.end(), 0.0) *
                    std::accumulate(s.c.begin(), s.c.end(), 0.0) / slowest;
  f.cyclic_work_per_time = cyclic_work_per_time(a);
  f.predicted_speedup = f.work_per_time / f.cyclic_work_per_time;
  f.words_per_update = words_per_rank1_update(a.rows, a.cols);
  double total_speed = 0.0;
  f.min_busy_fraction = 1.0;
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) {
      total_speed += 1.0 / a.t(i, j);
      f.min_busy_fraction = std::min(f.min_busy_fraction, s.r[i] * a.t(i, j) * s.c[j] / slowest);
    }
  }
  f.efficiency = f.work_per_time / total_speed;
  return f;
}

}  // namespace hetscal::core

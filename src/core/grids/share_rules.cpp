#include "core/grids/share_rules.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"

namespace hetscal::core {

Arrangement transposed(const Arrangement& a) {
  Arrangement t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.cycle_time.resize(a.cycle_time.size());
  t.processor.resize(a.processor.size());
  for (std::size_t i = 0; i < a.rows; ++i) {
    for (std::size_t j = 0; j < a.cols; ++j) {
      t.cycle_time[j * a.rows + i] = a.t(i, j);
      if (!a.processor.empty()) t.processor[j * a.rows + i] = a.at(i, j);
    }
  }
  return t;
}

namespace {

/// Column share that makes the slowest of rows [0, known_rows) in column j exactly busy.
double column_share(const Arrangement& a, const std::vector<double>& r, std::size_t j,
                    std::size_t known_rows) {
  double slowest = 0.0;
  for (std::size_t i = 0; i < known_rows; ++i) slowest = std::max(slowest, r[i] * a.t(i, j));
  return 1.0 / slowest;
}

/// Same for row i over columns [0, known_cols).
double row_share(const Arrangement& a, const std::vector<double>& c, std::size_t i,
                 std::size_t known_cols) {
  double slowest = 0.0;
  for (std::size_t j = 0; j < known_cols; ++j) slowest = std::max(slowest, c[j] * a.t(i, j));
  return 1.0 / slowest;
}

/// The r/c rule when the first column of the fast block is the faster line.
Shares rule_from_first_column(const Arrangement& a, std::size_t fast_rows) {
  Shares s{std::vector<double>(a.rows), std::vector<double>(a.cols)};
  for (std::size_t i = 0; i < fast_rows; ++i) s.r[i] = 1.0 / a.t(i, 0);
  // The block's columns, then the columns outside the block, all from the rows known so far
  // (every row when the fast region is made of columns); then the rows outside the block
  // (a fast region made of rows) from every column.
  for (std::size_t j = 0; j < a.cols; ++j) s.c[j] = column_share(a, s.r, j, fast_rows);
  for (std::size_t i = fast_rows; i < a.rows; ++i) s.r[i] = row_share(a, s.c, i, a.cols);
  return s;
}

void require_shares(const Arrangement& a, const Shares& s) {
  if (s.r.size() != a.rows || s.c.size() != a.cols) {
    std::ostringstream msg;
    msg << "shares: " << s.r.size() << " row and " << s.c.size() << " column values for a "
        << a.rows << "x" << a.cols << " grid";
    throw InvalidArgument(msg.str());
  }
  require_positive_finite(s.r, "row shares");
  require_positive_finite(s.c, "column shares");
}

}  // namespace

double harmonic_cycle_time(const std::vector<double>& values) {
  double speed = 0.0;
  for (double t : values) speed += 1.0 / t;
  return static_cast<double>(values.size()) / speed;
}

Shares harmonic_rule_shares(const Arrangement& a, std::size_t fast_rows, std::size_t fast_cols) {
  if (fast_rows == 0 || fast_cols == 0 || fast_rows > a.rows || fast_cols > a.cols) {
    std::ostringstream msg;
    msg << "fast block " << fast_rows << "x" << fast_cols << " on a " << a.rows << "x"
        << a.cols << " grid: it must be non-empty and fit";
    throw InvalidArgument(msg.str());
  }
  std::vector<double> first_column(fast_rows);
  std::vector<double> first_row(fast_cols);
  for (std::size_t i = 0; i < fast_rows; ++i) first_column[i] = a.t(i, 0);
  for (std::size_t j = 0; j < fast_cols; ++j) first_row[j] = a.t(0, j);
  const double column_time = harmonic_cycle_time(first_column);
  const double row_time = harmonic_cycle_time(first_row);
  // Equal speeds up to rounding: the longer line wins (§4.4.3), the column if equally long.
  const bool equal = std::abs(column_time - row_time) <= 1e-12 * std::max(column_time, row_time);
  const bool column_first = equal ? fast_rows >= fast_cols : column_time < row_time;
  if (column_first) return rule_from_first_column(a, fast_rows);
  Shares s = rule_from_first_column(transposed(a), fast_cols);
  std::swap(s.r, s.c);
  return s;
}

std::vector<double> best_columns_for_rows(const Arrangement& a, const std::vector<double>& r) {
  std::vector<double> slowest(a.cols, 0.0);
  for (std::size_t i = 0; i < a.rows; ++i) {
    const double* row = &a.cycle_time[i * a.cols];
    for (std::size_t j = 0; j < a.cols; ++j) slowest[j] = std::max(slowest[j], r[i] * row[j]);
  }
  for (double& k : slowest) k = 1.0 / k;
  return slowest;
}

std::vector<double> best_rows_for_columns(const Arrangement& a, const std::vector<double>& c) {
  std::vector<double> r(a.rows);
  for (std::size_t i = 0; i < a.rows; ++i) r[i] = row_share(a, c, i, a.cols);
  return r;
}

Refinement refine_shares(const Arrangement& a, const Shares& start,
                         const RefinementOptions& options) {
  require_shares(a, start);
  Refinement best{start, work_per_time(a, start), 0};
  Shares current = start;
  bool fix_rows = true;  // the paper starts with r fixed, computing c
  std::size_t half_steps_without_gain = 0;
  while (half_steps_without_gain < 2 && best.half_steps < options.max_half_steps) {
    if (fix_rows)
      current.c = best_columns_for_rows(a, current.r);
    else
      current.r = best_rows_for_columns(a, current.c);
    fix_rows = !fix_rows;
    ++best.half_steps;
    // A best response makes max r_i·t_ij·c_j = 1 (up to rounding), so W = (Σr)(Σc).
    const double w = std::accumulate(current.r.begin(), current.r.end(), 0.0) *
                     std::accumulate(current.c.begin(), current.c.end(), 0.0);
    if (w > best.work_per_time * (1.0 + options.relative_tolerance)) {
      half_steps_without_gain = 0;
    } else {
      ++half_steps_without_gain;
    }
    // Each half-step is optimal for its side, so `current` is never worse than the best
    // seen up to rounding; keep the larger W.
    if (w >= best.work_per_time) {
      best.shares = current;
      best.work_per_time = w;
    }
  }
  best.work_per_time = work_per_time(a, best.shares);
  return best;
}

}  // namespace hetscal::core

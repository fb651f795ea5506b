#include "core/time_models/model_rauber_runger.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "core/common/error.hpp"

namespace hetscal::core::rauber_runger {
namespace {

double real(std::size_t v) { return static_cast<double>(v); }

void require_valid(std::size_t n, const Distribution& d) {
  std::ostringstream msg;
  if (n < 1) msg << "matrix order n = " << n << " must be >= 1";
  else if (d.m0 == 0 || d.m1 == 0 || d.b0 == 0 || d.b1 == 0)
    msg << "distribution ((" << d.m0 << "," << d.b0 << "),(" << d.m1 << "," << d.b1
        << ")) has a zero entry";
  else if (d.b0 * d.m0 > n || d.b1 * d.m1 > n)
    msg << "block sizes b0 = " << d.b0 << ", b1 = " << d.b1 << " exceed n/m_i (n = " << n
        << ", m0 = " << d.m0 << ", m1 = " << d.m1 << ")";
  else return;
  throw InvalidArgument(msg.str());
}

/// Number of indices e in [first, n) with floor(e / block) mod groups == group.
std::vector<std::size_t> counts_per_group(std::size_t first, std::size_t n, std::size_t block,
                                          std::size_t groups) {
  std::vector<std::size_t> count(groups, 0);
  for (std::size_t e = first; e < n; ++e) ++count[(e / block) % groups];
  return count;
}

/// Minimises f over x in [lo, hi] for a unimodal f (golden-section search).
double golden_section_minimiser(const std::function<double(double)>& f, double lo, double hi) {
  const double inv_phi = (std::sqrt(5.0) - 1.0) / 2.0;
  double a = lo, b = hi;
  double c = b - inv_phi * (b - a), d = a + inv_phi * (b - a);
  double fc = f(c), fd = f(d);
  for (int it = 0; it < 200 && b - a > 1e-12 * (1.0 + std::fabs(a)); ++it) {
    if (fc <= fd) {
      b = d; d = c; fd = fc;
      c = b - inv_phi * (b - a); fc = f(c);
    } else {
      a = c; c = d; fc = fd;
      d = a + inv_phi * (b - a); fd = f(d);
    }
  }
  return (a + b) / 2.0;
}

}  // namespace

double broadcast_time(const MachineParameters& machine, double processors, double words) {
  return (1.0 + std::log2(processors)) * (words * machine.t_c + machine.tau);
}

double lu_time_exact(const MachineParameters& machine, std::size_t n, const Distribution& d) {
  require_valid(n, d);
  double total = 0.0;
  // Step m (1-based) eliminates with pivot row m; its 0-based index is s = m - 1.
  for (std::size_t s = 0; s + 1 < n; ++s) {
    // 1. Each q in Ro(m) broadcasts its part {(m, j) : j >= m} of the pivot row in its
    //    column group (m0 processors); processors of Ro(m) differ only by column group.
    const auto pivot_row = counts_per_group(s, n, d.b1, d.m1);
    // 2./3. Each q in Co(m) computes and broadcasts its factors {(i, m) : i > m} in its row
    //    group (m1 processors); they differ only by row group.
    const auto factors = counts_per_group(s + 1, n, d.b0, d.m0);
    // 4. Every q updates {(i, j) in I_q : i > m, j > m}. Lemma 7 writes this count as
    //    #{(i, m) in I_q | i > m} · #{(m, j) in I_q | j > m}, which read literally is zero
    //    for every q outside Ro(m) ∩ Co(m); we read it, as Lemma 8's bound does, as q's rows
    //    below m times q's columns right of m (its row group's and column group's counts).
    const auto update_cols = counts_per_group(s + 1, n, d.b1, d.m1);
    const std::size_t max_pivot = *std::max_element(pivot_row.begin(), pivot_row.end());
    const std::size_t max_factors = *std::max_element(factors.begin(), factors.end());
    const std::size_t max_cols = *std::max_element(update_cols.begin(), update_cols.end());
    total += broadcast_time(machine, real(d.m0), real(max_pivot));
    total += real(max_factors) * machine.t_op;
    total += broadcast_time(machine, real(d.m1), real(max_factors));
    total += real(max_factors) * real(max_cols) * 2.0 * machine.t_op;
  }
  return total;
}

double lu_time_bounded(const MachineParameters& machine, std::size_t n, const Distribution& d) {
  require_valid(n, d);
  const double nn = real(n), m0 = real(d.m0), m1 = real(d.m1), b0 = real(d.b0),
               b1 = real(d.b1);
  double total = 0.0;
  for (std::size_t step = 1; step < n; ++step) {
    const double m = real(step);
    const double pivot_row = (nn - m + 1.0) / m1 + b1;
    const double factors = (nn - m) / m0 + b0;
    const double update_cols = (nn - m) / m1 + b1;
    total += broadcast_time(machine, m0, pivot_row) + factors * machine.t_op +
             broadcast_time(machine, m1, factors) + factors * update_cols * 2.0 * machine.t_op;
  }
  return total;
}

double lu_time_closed_form(const MachineParameters& machine, double n, double m0, double b0,
                           double m1, double b1) {
  const double half = n * (n - 1.0) / 2.0;                  // sum of m, m = 1..n-1
  const double squares = n * (n - 1.0) * (2.0 * n - 1.0) / 6.0;  // sum of m^2
  const double p = m0 * m1;
  const double pivot_row_bcast =
      (1.0 + std::log2(m0)) *
      ((half / m1 + (n - 1.0) / m1 + (n - 1.0) * b1) * machine.t_c + (n - 1.0) * machine.tau);
  const double factor_work = (half / m0 + (n - 1.0) * b0) * machine.t_op;
  const double factor_bcast =
      (1.0 + std::log2(m1)) * ((half / m0 + (n - 1.0) * b0) * machine.t_c + (n - 1.0) * machine.tau);
  const double update =
      (squares / p + half * (b1 / m0 + b0 / m1) + (n - 1.0) * b0 * b1) * 2.0 * machine.t_op;
  return pivot_row_bcast + factor_work + factor_bcast + update;
}

double lu_time_closed_form(const MachineParameters& machine, std::size_t n, const Distribution& d) {
  require_valid(n, d);
  return lu_time_closed_form(machine, real(n), real(d.m0), real(d.b0), real(d.m1), real(d.b1));
}

double row_minus_column_cyclic(const MachineParameters& machine, double n, double p) {
  return (n - 1.0) * ((1.0 + std::log2(p)) * machine.t_c + n / (2.0 * p) * machine.t_op -
                      machine.t_c / p - n / 2.0 * machine.t_op);
}

double lemma10_threshold(const MachineParameters& machine, double p) {
  return machine.t_c / machine.t_op * 2.0 * (p * (1.0 + std::log2(p)) - 1.0) / (p - 1.0);
}

CyclicDirection faster_cyclic_direction(const MachineParameters& machine, std::size_t n,
                                        std::size_t p) {
  const double row = lu_time_closed_form(machine, n, Distribution{p, 1, 1, 1});
  const double column = lu_time_closed_form(machine, n, Distribution{1, 1, p, 1});
  return row <= column ? CyclicDirection::RowCyclic : CyclicDirection::ColumnCyclic;
}

TimeParts time_parts(const MachineParameters& machine, double n, double m0, double m1) {
  const double half = n * (n - 1.0) / 2.0;
  const double squares = n * (n - 1.0) * (2.0 * n - 1.0) / 6.0;
  const double p = m0 * m1;
  const double tct = machine.t_c + machine.tau;
  TimeParts parts;
  parts.constant = 2.0 * (n - 1.0) * tct + 3.0 * (n - 1.0) * machine.t_op +
                   (n - 1.0) * tct * (std::log2(m0) + std::log2(m1)) +
                   squares / p * 2.0 * machine.t_op;
  parts.symmetric = half * (machine.t_c + 2.0 * machine.t_op) * (1.0 / m0 + 1.0 / m1) +
                    half * machine.t_c * (std::log2(m0) / m1 + std::log2(m1) / m0);
  parts.asymmetric = (n - 1.0) * machine.t_c * (1.0 / m1 + std::log2(m0) / m1) +
                     half / m0 * machine.t_op;
  return parts;
}

double symmetric_part_minimiser(const MachineParameters& machine, double n, double p) {
  // T_S(e^x, p e^-x) is convex in x = ln m0 (sums of e^x, e^-x and x·e^{±x} terms with
  // positive weights on [0, ln p]), so golden section finds the minimum.
  const auto symmetric = [&](double x) {
    const double m0 = std::exp(x);
    return time_parts(machine, n, m0, p / m0).symmetric;
  };
  return std::exp(golden_section_minimiser(symmetric, 0.0, std::log(p)));
}

double full_formula_minimiser(const MachineParameters& machine, double n, double p) {
  // T_A adds c1·(1 + log2 m0)·m0 + c2/m0 (m1 = p/m0), also convex in ln m0.
  const auto full = [&](double x) {
    const double m0 = std::exp(x);
    return lu_time_closed_form(machine, n, m0, 1.0, p / m0, 1.0);
  };
  return std::exp(golden_section_minimiser(full, 0.0, std::log(p)));
}

Distribution optimal_distribution(const MachineParameters& machine, std::size_t n, std::size_t p) {
  if (n < 1 || p < 1 || p > n * n) {
    std::ostringstream msg;
    msg << "optimal_distribution: need n >= 1 and 1 <= p <= n^2 (n = " << n << ", p = " << p
        << ")";
    throw InvalidArgument(msg.str());
  }
  Distribution best;
  double best_time = std::numeric_limits<double>::infinity();
  for (std::size_t m0 = 1; m0 <= p; ++m0) {
    if (p % m0 != 0 || m0 > n || p / m0 > n) continue;
    const std::size_t m1 = p / m0;
    for (std::size_t b0 = 1; b0 * m0 <= n; ++b0) {
      for (std::size_t b1 = 1; b1 * m1 <= n; ++b1) {
        const Distribution d{m0, b0, m1, b1};
        const double t = lu_time_closed_form(machine, n, d);
        if (t < best_time) {
          best_time = t;
          best = d;
        }
      }
    }
  }
  if (!std::isfinite(best_time)) {
    std::ostringstream msg;
    msg << "optimal_distribution: no m0·m1 = " << p << " with m0, m1 <= n = " << n;
    throw InvalidArgument(msg.str());
  }
  return best;
}

}  // namespace hetscal::core::rauber_runger

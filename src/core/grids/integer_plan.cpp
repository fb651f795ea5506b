#include "core/grids/integer_plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>
#include <sstream>
#include <utility>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"
#include "core/grids/share_rules.hpp"

namespace hetscal::core {
namespace {

double as_double(std::int64_t n) { return static_cast<double>(n); }

void require_total(std::int64_t total, std::size_t parts, const char* what) {
  if (total < static_cast<std::int64_t>(parts)) {
    std::ostringstream msg;
    msg << what << " = " << total << ": at least " << parts << " needed (one per grid line)";
    throw InvalidArgument(msg.str());
  }
}

/// C(n, k), or cap + 1 as soon as it exceeds cap.
std::uint64_t binomial_capped(std::uint64_t n, std::uint64_t k, std::uint64_t cap) {
  k = std::min(k, n - k);
  long double value = 1.0L;
  for (std::uint64_t i = 1; i <= k; ++i) {
    value = value * static_cast<long double>(n - k + i) / static_cast<long double>(i);
    if (value > static_cast<long double>(cap)) return cap + 1;
  }
  return static_cast<std::uint64_t>(std::llround(static_cast<double>(value)));
}

/// k_i = max_j t_ij·c_j: the time per block row of grid row i.
std::vector<double> row_loads(const Arrangement& a, const std::vector<std::int64_t>& c) {
  std::vector<double> k(a.rows, 0.0);
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j) k[i] = std::max(k[i], a.t(i, j) * as_double(c[j]));
  return k;
}

/// max(max_i k_i, B_p / Σ_i 1/k_i): no integer r >= 1 with Σr = B_p does better than this
/// for row loads k (every r_i >= 1, and the rational optimum is a relaxation).
double rows_time_lower_bound(const std::vector<double>& k, std::int64_t panel_rows) {
  double largest = 0.0;
  double speed = 0.0;
  for (double load : k) {
    largest = std::max(largest, load);
    speed += 1.0 / load;
  }
  return std::max(largest, as_double(panel_rows) / speed);
}

/// Best integer r for row loads k, and the resulting panel time.
std::pair<std::vector<std::int64_t>, double> best_rows_for_loads(const std::vector<double>& k,
                                                                  std::int64_t panel_rows) {
  std::vector<std::int64_t> r = allocation_at_least_one(k, panel_rows);
  double time = 0.0;
  for (std::size_t i = 0; i < k.size(); ++i) time = std::max(time, as_double(r[i]) * k[i]);
  return {std::move(r), time};
}

/// Best integer r for fixed integer c, and the resulting panel time.
std::pair<std::vector<std::int64_t>, double> best_rows(const Arrangement& a,
                                                        const std::vector<std::int64_t>& c,
                                                        std::int64_t panel_rows) {
  return best_rows_for_loads(row_loads(a, c), panel_rows);
}

/// Row loads of the columns before each position of a composition: loads_before(j)[i] =
/// max_{j' < j} t_ij'·c_j'. The composition walk changes its last columns most often, so the
/// loads of a leaf come from the shared prefix in O(rows) instead of row_loads' O(rows·cols)
/// (GEMM's planner at 1,024 processors spent 40 % of its time in row_loads). max is exact,
/// so the loads are row_loads' to the bit.
class PrefixRowLoads {
 public:
  explicit PrefixRowLoads(const Arrangement& a) : a_(a), loads_(a.cols + 1, std::vector<double>(a.rows, 0.0)) {}

  /// Column j now holds c_j columns: the loads before j + 1 follow from those before j.
  void set(std::size_t j, std::int64_t c_j) {
    for (std::size_t i = 0; i < a_.rows; ++i) loads_[j + 1][i] = std::max(loads_[j][i], a_.t(i, j) * as_double(c_j));
  }

  /// The loads of every column set so far (row_loads of a whole composition after set(cols − 1, …)).
  const std::vector<double>& through(std::size_t j) const { return loads_[j + 1]; }

 private:
  const Arrangement& a_;
  std::vector<std::vector<double>> loads_;
};

/// Exact: every composition c of panel_cols (parts >= 1) with its best r.
IntegerPlan exhaustive_over_columns(const Arrangement& a, std::int64_t panel_rows,
                                    std::int64_t panel_cols) {
  IntegerPlan best;
  best.search = IntegerSearch::Exhaustive;
  double best_time = 0.0;
  std::vector<std::int64_t> c(a.cols, 1);
  PrefixRowLoads prefix(a);
  std::function<void(std::size_t, std::int64_t)> visit = [&](std::size_t j, std::int64_t left) {
    if (j + 1 == a.cols) {
      c[j] = left;
      prefix.set(j, left);
      const std::vector<double>& k = prefix.through(j);
      // Most compositions lose to the best so far already on the bound: skip the greedy.
      if (!best.counts.r.empty() && rows_time_lower_bound(k, panel_rows) >= best_time) return;
      auto [r, time] = best_rows_for_loads(k, panel_rows);
      if (best.counts.r.empty() || time < best_time) {
        best_time = time;
        best.counts = PanelCounts{std::move(r), c};
      }
      return;
    }
    const std::int64_t later = static_cast<std::int64_t>(a.cols - j - 1);  // >= 1 each
    for (std::int64_t part = 1; part <= left - later; ++part) {
      c[j] = part;
      prefix.set(j, part);
      visit(j + 1, left - part);
    }
  };
  visit(0, panel_cols);
  return best;
}

PanelCounts transposed_counts(PanelCounts counts) {
  std::swap(counts.r, counts.c);
  return counts;
}

/// Alternating best-response search from the largest-remainder rounding.
IntegerPlan alternating(const Arrangement& a, const Shares& rational, std::int64_t panel_rows,
                        std::int64_t panel_cols, std::size_t max_rounds) {
  IntegerPlan best;
  best.search = IntegerSearch::Alternating;
  best.counts = PanelCounts{largest_remainder_round(rational.r, panel_rows),
                            largest_remainder_round(rational.c, panel_cols)};
  double best_time = panel_time(a, best.counts);
  const Arrangement at = transposed(a);
  PanelCounts current = best.counts;
  for (std::size_t round = 0; round < max_rounds; ++round) {
    current.r = best_rows(a, current.c, panel_rows).first;
    // The best c for this r is never slower than the current c, so `time` is the panel
    // time after the whole round.
    auto [c, time] = best_rows(at, current.r, panel_cols);
    current.c = std::move(c);
    if (!(time < best_time)) break;
    best_time = time;
    best.counts = current;
  }
  return best;
}

}  // namespace

double panel_time(const Arrangement& a, const PanelCounts& counts) {
  double slowest = 0.0;
  for (std::size_t i = 0; i < a.rows; ++i)
    for (std::size_t j = 0; j < a.cols; ++j)
      slowest = std::max(slowest, as_double(counts.r[i]) * a.t(i, j) * as_double(counts.c[j]));
  return slowest;
}

double panel_work_per_time(const Arrangement& a, const PanelCounts& counts) {
  const std::int64_t rows = std::accumulate(counts.r.begin(), counts.r.end(), std::int64_t{0});
  const std::int64_t cols = std::accumulate(counts.c.begin(), counts.c.end(), std::int64_t{0});
  return as_double(rows) * as_double(cols) / panel_time(a, counts);
}

namespace {

/// The largest j with j·t <= time as the greedy computes j·t (0 when none).
std::int64_t multiples_within(double t, double time) {
  auto j = static_cast<std::int64_t>(std::floor(time / t));
  while (j > 0 && as_double(j) * t > time) --j;
  while (as_double(j + 1) * t <= time) ++j;
  return j;
}

}  // namespace

std::vector<std::int64_t> allocation_at_least_one_start(const std::vector<double>& cycle_times,
                                                        std::int64_t chunks) {
  double speed = 0.0;
  for (double t : cycle_times) speed += 1.0 / t;
  const double time = as_double(chunks) / speed;
  std::vector<std::int64_t> counts(cycle_times.size(), 1);
  std::int64_t given = 0;
  for (std::size_t k = 0; k < cycle_times.size(); ++k) {
    counts[k] = std::max<std::int64_t>(1, multiples_within(cycle_times[k], time));
    given += counts[k];
  }
  if (given > chunks) std::fill(counts.begin(), counts.end(), 1);
  return counts;
}

std::vector<std::int64_t> allocation_at_least_one(const std::vector<double>& cycle_times,
                                                  std::int64_t chunks) {
  require_positive_finite(cycle_times, "cycle-times");
  require_total(chunks, cycle_times.size(), "chunks");
  std::vector<std::int64_t> counts = allocation_at_least_one_start(cycle_times, chunks);
  // Min-heap on (finish time with one more chunk, index): lowest index among equals. Its top
  // is unique (indices differ), so the heap's layout does not change the picks.
  using Entry = std::pair<double, std::size_t>;
  std::vector<Entry> entries;
  entries.reserve(cycle_times.size());
  std::int64_t given = 0;
  for (std::size_t k = 0; k < cycle_times.size(); ++k) {
    entries.push_back({as_double(counts[k] + 1) * cycle_times[k], k});
    given += counts[k];
  }
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> next(std::greater<Entry>(), std::move(entries));
  for (std::int64_t left = chunks - given; left > 0; --left) {
    const std::size_t k = next.top().second;
    next.pop();
    ++counts[k];
    next.push({as_double(counts[k] + 1) * cycle_times[k], k});
  }
  return counts;
}

std::vector<std::int64_t> largest_remainder_round(const std::vector<double>& shares,
                                                  std::int64_t total) {
  require_positive_finite(shares, "shares");
  require_total(total, shares.size(), "total");
  const double sum = std::accumulate(shares.begin(), shares.end(), 0.0);
  std::vector<double> exact(shares.size());
  std::vector<std::int64_t> counts(shares.size());
  std::int64_t assigned = 0;
  for (std::size_t k = 0; k < shares.size(); ++k) {
    exact[k] = shares[k] / sum * as_double(total);
    counts[k] = std::max<std::int64_t>(1, static_cast<std::int64_t>(std::floor(exact[k])));
    assigned += counts[k];
  }
  // Excess of each entry over its exact share: the next unit goes to the smallest excess,
  // a unit is taken back from the largest excess among entries above 1.
  auto excess = [&](std::size_t k) { return as_double(counts[k]) - exact[k]; };
  for (; assigned < total; ++assigned) {
    std::size_t pick = 0;
    for (std::size_t k = 1; k < counts.size(); ++k)
      if (excess(k) < excess(pick)) pick = k;
    ++counts[pick];
  }
  for (; assigned > total; --assigned) {
    std::size_t pick = counts.size();
    for (std::size_t k = 0; k < counts.size(); ++k)
      if (counts[k] > 1 && (pick == counts.size() || excess(k) > excess(pick))) pick = k;
    --counts[pick];
  }
  return counts;
}

IntegerPlan plan_panel_counts(const Arrangement& a, const Shares& rational,
                              std::int64_t panel_rows, std::int64_t panel_cols,
                              const IntegerPlanOptions& options) {
  require_total(panel_rows, a.rows, "panel rows B_p");
  require_total(panel_cols, a.cols, "panel columns B_q");
  if (rational.r.size() != a.rows || rational.c.size() != a.cols) {
    std::ostringstream msg;
    msg << "shares: " << rational.r.size() << " row and " << rational.c.size()
        << " column values for a " << a.rows << "x" << a.cols << " grid";
    throw InvalidArgument(msg.str());
  }
  const std::uint64_t budget = options.exhaustive_budget;
  const std::uint64_t column_choices =
      binomial_capped(static_cast<std::uint64_t>(panel_cols - 1), a.cols - 1, budget);
  const std::uint64_t row_choices =
      binomial_capped(static_cast<std::uint64_t>(panel_rows - 1), a.rows - 1, budget);
  IntegerPlan plan;
  if (column_choices <= budget && column_choices <= row_choices) {
    plan = exhaustive_over_columns(a, panel_rows, panel_cols);
  } else if (row_choices <= budget) {
    plan = exhaustive_over_columns(transposed(a), panel_cols, panel_rows);
    plan.counts = transposed_counts(std::move(plan.counts));
  } else {
    plan = alternating(a, rational, panel_rows, panel_cols, options.max_rounds);
  }
  plan.work_per_time = panel_work_per_time(a, plan.counts);
  return plan;
}

}  // namespace hetscal::core

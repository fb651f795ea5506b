#include "core/rebalancing/kept_lines.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::core {

std::vector<std::int64_t> planned_line_counts(std::int64_t lines, const std::vector<double>& weights) {
  const double total = std::accumulate(weights.begin(), weights.end(), 0.0);
  std::vector<std::int64_t> counts(weights.size());
  std::vector<double> remainder(weights.size());
  std::int64_t given = 0;
  for (std::size_t g = 0; g < weights.size(); ++g) {
    const double exact = static_cast<double>(lines) * weights[g] / total;
    counts[g] = static_cast<std::int64_t>(std::floor(exact));
    remainder[g] = exact - static_cast<double>(counts[g]);
    given += counts[g];
  }
  std::vector<std::size_t> order(weights.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
  for (std::size_t i = 0; given < lines; ++i, ++given) ++counts[order[i % order.size()]];
  return counts;
}

namespace {

void check_lines(const std::vector<int>& held, const std::vector<std::int64_t>& planned) {
  const std::int64_t total = std::accumulate(planned.begin(), planned.end(), std::int64_t{0});
  if (total != static_cast<std::int64_t>(held.size()))
    throw InvalidArgument("keep_most_lines: the planned counts sum to " + std::to_string(total) + ", not the " +
                          std::to_string(held.size()) + " lines");
  for (const int g : held)
    if (g < 0 || g >= static_cast<int>(planned.size()))
      throw InvalidArgument("keep_most_lines: a line's group is outside the grid");
}

// Leading: each group keeps its first lines up to its count.
void keep_leading(const std::vector<int>& held, const std::vector<std::int64_t>& planned, std::vector<int>& group,
                  std::vector<std::int64_t>& count) {
  for (std::size_t line = 0; line < held.size(); ++line) {
    const std::size_t g = static_cast<std::size_t>(held[line]);
    if (count[g] < planned[g]) {
      group[line] = held[line];
      ++count[g];
    }
  }
}

// Spread: a group holding h lines and keeping p <= h keeps its m-th held line (0-based) when
// floor((m+1)·p/h) > floor(m·p/h): p lines, evenly apart.
void keep_spread(const std::vector<int>& held, const std::vector<std::int64_t>& planned, std::vector<int>& group,
                 std::vector<std::int64_t>& count) {
  std::vector<std::int64_t> holds(planned.size(), 0), seen(planned.size(), 0);
  for (const int g : held) ++holds[static_cast<std::size_t>(g)];
  for (std::size_t line = 0; line < held.size(); ++line) {
    const std::size_t g = static_cast<std::size_t>(held[line]);
    const std::int64_t keeps = std::min(planned[g], holds[g]), m = seen[g]++;
    if ((m + 1) * keeps / holds[g] > m * keeps / holds[g]) {
      group[line] = held[line];
      ++count[g];
    }
  }
}

}  // namespace

std::vector<int> keep_most_lines(const std::vector<int>& held, const std::vector<std::int64_t>& planned,
                                 KeptLines kept) {
  check_lines(held, planned);
  std::vector<std::int64_t> count(planned.size(), 0);
  std::vector<int> group(held.size(), -1);
  if (kept == KeptLines::Leading) {
    keep_leading(held, planned, group, count);
  } else {
    keep_spread(held, planned, group, count);
  }
  // The lines that move. Leading: to the lowest group short of its count. Spread: to the
  // short group whose share of its shortfall is the least served so far, (received + 1/2) /
  // shortfall smallest (ties to the lower group), so that each receives its lines evenly.
  const std::vector<std::int64_t> kept_count = count;
  int short_group = 0;
  for (std::size_t line = 0; line < held.size(); ++line) {
    if (group[line] >= 0) continue;
    if (kept == KeptLines::Leading) {
      while (count[static_cast<std::size_t>(short_group)] >= planned[static_cast<std::size_t>(short_group)])
        ++short_group;
    } else {
      double least = 0.0;
      short_group = -1;
      for (std::size_t g = 0; g < planned.size(); ++g) {
        if (count[g] >= planned[g]) continue;
        const double served = (static_cast<double>(count[g] - kept_count[g]) + 0.5) /
                              static_cast<double>(planned[g] - kept_count[g]);
        if (short_group < 0 || served < least) {
          least = served;
          short_group = static_cast<int>(g);
        }
      }
    }
    group[line] = short_group;
    ++count[static_cast<std::size_t>(short_group)];
  }
  return group;
}

}  // namespace hetscal::core

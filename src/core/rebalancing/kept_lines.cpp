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

std::vector<int> keep_most_lines(const std::vector<int>& held, const std::vector<std::int64_t>& planned) {
  const std::int64_t total = std::accumulate(planned.begin(), planned.end(), std::int64_t{0});
  if (total != static_cast<std::int64_t>(held.size()))
    throw InvalidArgument("keep_most_lines: the planned counts sum to " + std::to_string(total) + ", not the " +
                          std::to_string(held.size()) + " lines");
  const int groups = static_cast<int>(planned.size());
  std::vector<std::int64_t> count(planned.size(), 0);
  std::vector<int> group(held.size(), -1);
  for (std::size_t line = 0; line < held.size(); ++line) {
    const int g = held[line];
    if (g < 0 || g >= groups) throw InvalidArgument("keep_most_lines: a line's group is outside the grid");
    if (count[static_cast<std::size_t>(g)] < planned[static_cast<std::size_t>(g)]) {
      group[line] = g;
      ++count[static_cast<std::size_t>(g)];
    }
  }
  int short_group = 0;
  for (std::size_t line = 0; line < held.size(); ++line) {
    if (group[line] >= 0) continue;
    while (count[static_cast<std::size_t>(short_group)] >= planned[static_cast<std::size_t>(short_group)]) ++short_group;
    group[line] = short_group;
    ++count[static_cast<std::size_t>(short_group)];
  }
  return group;
}

}  // namespace hetscal::core

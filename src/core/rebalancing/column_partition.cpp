#include "core/rebalancing/column_partition.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <string>

#include "core/common/error.hpp"
#include "core/common/speeds.hpp"

namespace hetscal::core {

std::size_t ColumnPartition::processor_count() const {
  std::size_t count = 0;
  for (const auto& column : columns) count += column.cells.size();
  return count;
}

std::vector<double> normalised_areas(const std::vector<double>& areas) {
  require_positive_finite(areas, "areas");
  const double total = std::accumulate(areas.begin(), areas.end(), 0.0);
  std::vector<double> scaled(areas.size());
  std::transform(areas.begin(), areas.end(), scaled.begin(),
                 [total](double a) { return a / total; });
  return scaled;
}

double column_cost(std::size_t count, double width) {
  return static_cast<double>(count) * width + 1.0;
}

namespace {

// Builds the geometry of already-normalised areas; the caller has checked `groups`.
ColumnPartition build_partition(const std::vector<std::vector<std::size_t>>& groups,
                                const std::vector<double>& areas) {
  ColumnPartition partition;
  for (const auto& group : groups) {
    PartitionColumn column;
    for (std::size_t p : group) column.width += areas[p];
    for (std::size_t p : group) column.cells.push_back({p, areas[p] / column.width});
    partition.half_perimeter_sum += column_cost(group.size(), column.width);
    partition.columns.push_back(std::move(column));
  }
  return partition;
}

void require_cover(const std::vector<std::vector<std::size_t>>& groups, std::size_t count) {
  std::vector<bool> seen(count, false);
  std::size_t covered = 0;
  for (std::size_t c = 0; c < groups.size(); ++c) {
    if (groups[c].empty())
      throw InvalidArgument("column " + std::to_string(c + 1) + " holds no processor");
    for (std::size_t p : groups[c]) {
      if (p >= count || seen[p])
        throw InvalidArgument("processor " + std::to_string(p) +
                              (p >= count ? " does not exist" : " appears twice") +
                              " in the column grouping");
      seen[p] = true;
      ++covered;
    }
  }
  if (covered != count)
    throw InvalidArgument("the column grouping covers " + std::to_string(covered) + " of " +
                          std::to_string(count) + " processors");
}

}  // namespace

ColumnPartition col_peri_sum(const std::vector<double>& areas) {
  const std::vector<double> s = normalised_areas(areas);
  const std::size_t p = s.size();
  std::vector<std::size_t> order(p);
  std::iota(order.begin(), order.end(), 0);
  // Ties broken by index so that the result does not depend on the sort's stability.
  std::sort(order.begin(), order.end(),
            [&s](std::size_t a, std::size_t b) { return s[a] < s[b] || (s[a] == s[b] && a < b); });
  std::vector<double> prefix(p + 1, 0.0);
  for (std::size_t k = 0; k < p; ++k) prefix[k + 1] = prefix[k] + s[order[k]];

  // best[j]: cheapest partition of the j smallest areas; first[j]: where its last column starts.
  std::vector<double> best(p + 1, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> first(p + 1, 0);
  best[0] = 0.0;
  for (std::size_t j = 1; j <= p; ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const double cost = best[i] + column_cost(j - i, prefix[j] - prefix[i]);
      if (cost < best[j]) {
        best[j] = cost;
        first[j] = i;
      }
    }
  }
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t j = p; j > 0; j = first[j])
    groups.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(first[j]),
                        order.begin() + static_cast<std::ptrdiff_t>(j));
  std::reverse(groups.begin(), groups.end());
  return build_partition(groups, s);
}

ColumnPartition partition_with_columns(const std::vector<std::vector<std::size_t>>& groups,
                                       const std::vector<double>& areas) {
  const std::vector<double> s = normalised_areas(areas);
  require_cover(groups, s.size());
  return build_partition(groups, s);
}

std::vector<std::vector<std::size_t>> column_groups(const ColumnPartition& partition) {
  std::vector<std::vector<std::size_t>> groups;
  for (const auto& column : partition.columns) {
    groups.emplace_back();
    for (const auto& cell : column.cells) groups.back().push_back(cell.processor);
  }
  return groups;
}

std::vector<Rectangle> rectangles(const ColumnPartition& partition) {
  std::vector<Rectangle> result(partition.processor_count());
  double x = 0.0;
  for (const auto& column : partition.columns) {
    double y = 0.0;
    for (const auto& cell : column.cells) {
      result.at(cell.processor) = {cell.processor, x, y, column.width, cell.height};
      y += cell.height;
    }
    x += column.width;
  }
  return result;
}

}  // namespace hetscal::core

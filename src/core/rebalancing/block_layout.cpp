#include "core/rebalancing/block_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::core {

std::size_t BlockLayout::processor_count() const {
  std::size_t count = 0;
  for (const auto& column : columns) count += column.processors.size();
  return count;
}

namespace {

// Rounds shares (adding up to 1) of `total` to integers >= 1 adding up to `total`: floors
// first, then the largest remainders; entries raised to 1 are paid for by the largest ones.
std::vector<std::size_t> round_shares(const std::vector<double>& shares, std::size_t total) {
  const std::size_t n = shares.size();
  std::vector<std::size_t> counts(n);
  std::vector<double> remainder(n);
  std::size_t assigned = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const double exact = shares[k] * static_cast<double>(total);
    counts[k] = std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(exact)));
    remainder[k] = exact - static_cast<double>(counts[k]);
    assigned += counts[k];
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&remainder](std::size_t a, std::size_t b) {
    return remainder[a] > remainder[b];
  });
  for (std::size_t k = 0; assigned < total; k = (k + 1) % n, ++assigned) ++counts[order[k]];
  while (assigned > total) {  // only after raising tiny shares to 1
    const auto largest = std::max_element(counts.begin(), counts.end());
    --*largest;
    --assigned;
  }
  return counts;
}

std::string text(std::size_t value) { return std::to_string(value); }

}  // namespace

BlockLayout discretise(const ColumnPartition& partition, std::size_t blocks) {
  if (blocks < partition.columns.size())
    throw InvalidArgument("a " + text(blocks) + "x" + text(blocks) + " block matrix cannot hold " +
                          text(partition.columns.size()) + " columns of processors");
  BlockLayout layout;
  layout.blocks = blocks;
  std::vector<double> widths;
  for (const auto& column : partition.columns) {
    if (blocks < column.cells.size())
      throw InvalidArgument("a " + text(blocks) + "x" + text(blocks) +
                            " block matrix cannot stack " + text(column.cells.size()) +
                            " processors in one column");
    widths.push_back(column.width);
  }
  const std::vector<std::size_t> block_widths = round_shares(widths, blocks);
  for (std::size_t c = 0; c < partition.columns.size(); ++c) {
    BlockColumn column;
    column.width = block_widths[c];
    std::vector<double> heights;
    for (const auto& cell : partition.columns[c].cells) {
      column.processors.push_back(cell.processor);
      heights.push_back(cell.height);
    }
    column.heights = round_shares(heights, blocks);
    layout.columns.push_back(std::move(column));
  }
  return layout;
}

BlockLayout relayout(const BlockLayout& layout, const std::vector<double>& areas) {
  std::vector<std::vector<std::size_t>> groups;
  for (const auto& column : layout.columns) groups.push_back(column.processors);
  return discretise(partition_with_columns(groups, areas), layout.blocks);
}

std::vector<BlockRectangle> block_rectangles(const BlockLayout& layout) {
  std::vector<BlockRectangle> result(layout.processor_count());
  std::size_t x = 0;
  for (const auto& column : layout.columns) {
    std::size_t y = 0;
    for (std::size_t j = 0; j < column.processors.size(); ++j) {
      const std::size_t p = column.processors[j];
      result.at(p) = {p, x, y, column.width, column.heights[j]};
      y += column.heights[j];
    }
    x += column.width;
  }
  return result;
}

std::vector<std::size_t> block_loads(const BlockLayout& layout) {
  std::vector<std::size_t> loads;
  for (const auto& r : block_rectangles(layout)) loads.push_back(r.area());
  return loads;
}

std::size_t blocks_changing_owner(const BlockLayout& from, const BlockLayout& to) {
  if (from.blocks != to.blocks || from.processor_count() != to.processor_count())
    throw InvalidArgument("layouts of " + text(from.blocks) + " and " + text(to.blocks) +
                          " blocks per side, " + text(from.processor_count()) + " and " +
                          text(to.processor_count()) + " processors cannot be compared");
  const auto a = block_rectangles(from);
  const auto b = block_rectangles(to);
  auto overlap = [](std::size_t lo1, std::size_t len1, std::size_t lo2, std::size_t len2) {
    const std::size_t lo = std::max(lo1, lo2);
    const std::size_t hi = std::min(lo1 + len1, lo2 + len2);
    return hi > lo ? hi - lo : std::size_t{0};
  };
  std::size_t kept = 0;
  for (std::size_t p = 0; p < a.size(); ++p)
    kept += overlap(a[p].x, a[p].width, b[p].x, b[p].width) *
            overlap(a[p].y, a[p].height, b[p].y, b[p].height);
  return from.blocks * from.blocks - kept;
}

void require_valid(const BlockLayout& layout) {
  std::size_t total_width = 0;
  std::vector<bool> seen(layout.processor_count(), false);
  for (std::size_t c = 0; c < layout.columns.size(); ++c) {
    const auto& column = layout.columns[c];
    const std::string where = "block layout column " + text(c + 1);
    if (column.width == 0) throw InvalidArgument(where + " has width 0");
    if (column.processors.empty() || column.processors.size() != column.heights.size())
      throw InvalidArgument(where + " needs one height per processor, and a processor");
    std::size_t total_height = 0;
    for (std::size_t j = 0; j < column.processors.size(); ++j) {
      const std::size_t p = column.processors[j];
      if (p >= seen.size() || seen[p])
        throw InvalidArgument(where + ": processor " + text(p) + " is out of range or repeated");
      seen[p] = true;
      if (column.heights[j] == 0) throw InvalidArgument(where + ": a height is 0");
      total_height += column.heights[j];
    }
    if (total_height != layout.blocks)
      throw InvalidArgument(where + ": heights add up to " + text(total_height) + ", not " +
                            text(layout.blocks));
    total_width += column.width;
  }
  if (layout.columns.empty() || total_width != layout.blocks)
    throw InvalidArgument("block layout widths add up to " + text(total_width) + ", not " +
                          text(layout.blocks));
}

}  // namespace hetscal::core

#include "core/patterns/pattern.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

std::vector<int> sorted_unique(std::vector<int> nodes) {
  nodes.erase(std::remove(nodes.begin(), nodes.end(), Pattern::kUnassigned), nodes.end());
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  return nodes;
}

}  // namespace

Pattern::Pattern(int rows, int cols, int num_nodes, std::vector<int> owners)
    : rows_(rows), cols_(cols), num_nodes_(num_nodes), owners_(std::move(owners)) {
  if (rows < 1 || cols < 1) {
    throw InvalidArgument("Pattern: size " + std::to_string(rows) + "x" + std::to_string(cols) +
                          " must be at least 1x1");
  }
  if (num_nodes < 1) {
    throw InvalidArgument("Pattern: num_nodes " + std::to_string(num_nodes) + " must be >= 1");
  }
  if (owners_.size() != static_cast<std::size_t>(rows) * cols) {
    throw InvalidArgument("Pattern: " + std::to_string(owners_.size()) + " owners for a " +
                          std::to_string(rows) + "x" + std::to_string(cols) + " pattern");
  }
  for (int i = 0; i < rows; ++i) {
    for (int j = 0; j < cols; ++j) {
      const int owner = at(i, j);
      if (owner == kUnassigned) {
        if (rows != cols || i != j) {
          throw InvalidArgument("Pattern: cell (" + std::to_string(i) + "," + std::to_string(j) +
                                ") is unassigned; only diagonal cells of a square pattern may be");
        }
      } else if (owner < 0 || owner >= num_nodes) {
        throw InvalidArgument("Pattern: cell (" + std::to_string(i) + "," + std::to_string(j) +
                              ") has owner " + std::to_string(owner) + ", outside [0, " +
                              std::to_string(num_nodes) + ")");
      }
    }
  }
  // An unassigned diagonal cell is resolved to a node of its colrow, so that colrow needs one.
  for (int i = 0; i < rows && rows == cols; ++i) {
    if (at(i, i) == kUnassigned && colrow_nodes(i).empty()) {
      throw InvalidArgument("Pattern: diagonal cell " + std::to_string(i) +
                            " is unassigned and its colrow has no node to take it");
    }
  }
}

bool Pattern::has_unassigned() const {
  return std::find(owners_.begin(), owners_.end(), kUnassigned) != owners_.end();
}

std::vector<int> Pattern::row_nodes(int i) const {
  const auto begin = owners_.begin() + static_cast<std::ptrdiff_t>(i) * cols_;
  return sorted_unique(std::vector<int>(begin, begin + cols_));
}

std::vector<int> Pattern::col_nodes(int j) const {
  std::vector<int> nodes;
  nodes.reserve(rows_);
  for (int i = 0; i < rows_; ++i) nodes.push_back(at(i, j));
  return sorted_unique(std::move(nodes));
}

std::vector<int> Pattern::colrow_nodes(int i) const {
  if (!is_square()) {
    throw InvalidArgument("Pattern::colrow_nodes: the pattern is " + std::to_string(rows_) + "x" +
                          std::to_string(cols_) + ", colrows need a square pattern");
  }
  std::vector<int> nodes;
  nodes.reserve(2 * static_cast<std::size_t>(rows_));
  for (int k = 0; k < rows_; ++k) {
    nodes.push_back(at(i, k));
    nodes.push_back(at(k, i));
  }
  return sorted_unique(std::move(nodes));
}

std::vector<std::int64_t> Pattern::cells_per_node() const {
  std::vector<std::int64_t> count(num_nodes_, 0);
  for (int owner : owners_) {
    if (owner != kUnassigned) ++count[owner];
  }
  return count;
}

}  // namespace hetscal::core

#pragma once
/// @file pattern.hpp
/// Distribution patterns (Beaumont, Collin, Eyraud-Dubois & Vérité 2023, §III): an R×C table
/// of owners laid over the tile matrix cyclically, tile (I,J) -> cell (I mod R, J mod C).
/// A node may appear in several cells. A diagonal cell of a square pattern may be left
/// unassigned: it belongs to exactly one colrow, so each of its replicas can go to any node
/// of that colrow without changing the communication cost (GCR&M, §V); pattern_resolve.hpp
/// picks that node per replica.
#include <cstdint>
#include <vector>

namespace hetscal::core {

/// The factorisation a pattern is judged for: LU uses rows and columns, Cholesky colrows.
enum class Factorization { LU, Cholesky };

/// An R×C owner table over nodes 0..P-1.
class Pattern {
 public:
  /// Marks a diagonal cell whose replicas are assigned when the pattern is laid over a matrix.
  static constexpr int kUnassigned = -1;

  /// @param rows, cols pattern size R×C (>= 1 each).
  /// @param num_nodes P (>= 1).
  /// @param owners R·C entries, row-major: a node in [0, P) or kUnassigned.
  /// @throws InvalidArgument on bad sizes, an owner out of range, or an unassigned cell that
  ///   is not on the diagonal of a square pattern or whose colrow has no assigned cell.
  Pattern(int rows, int cols, int num_nodes, std::vector<int> owners);

  int rows() const { return rows_; }
  int cols() const { return cols_; }
  int num_nodes() const { return num_nodes_; }
  bool is_square() const { return rows_ == cols_; }

  /// Owner of cell (i, j), or kUnassigned. @pre 0 <= i < rows(), 0 <= j < cols().
  int at(int i, int j) const { return owners_[static_cast<std::size_t>(i) * cols_ + j]; }
  const std::vector<int>& owners() const { return owners_; }
  bool has_unassigned() const;

  /// Distinct nodes of pattern row i (assigned cells only), sorted.
  std::vector<int> row_nodes(int i) const;
  /// Distinct nodes of pattern column j (assigned cells only), sorted.
  std::vector<int> col_nodes(int j) const;
  /// Distinct nodes of colrow i = row i ∪ column i (assigned cells only), sorted.
  /// @throws InvalidArgument unless the pattern is square.
  std::vector<int> colrow_nodes(int i) const;

  /// Number of assigned cells owned by each node (size P).
  std::vector<std::int64_t> cells_per_node() const;

  friend bool operator==(const Pattern& a, const Pattern& b) {
    return a.rows_ == b.rows_ && a.cols_ == b.cols_ && a.num_nodes_ == b.num_nodes_ &&
           a.owners_ == b.owners_;
  }
  friend bool operator!=(const Pattern& a, const Pattern& b) { return !(a == b); }

 private:
  int rows_, cols_, num_nodes_;
  std::vector<int> owners_;
};

}  // namespace hetscal::core

#pragma once
/// @file tile_ownership.hpp
/// One description that a Cartesian heterogeneous grid, a pattern and the caller's 2D block-
/// cyclic layout all fit, so that the time model prices them with the same code.
///
/// The N×N matrix is cut into nb×nb tiles (the last tile row/column may be partial). Tile row
/// t falls in row class row_class[t], tile column t in column class col_class[t], and the
/// class table (rows × cols) names the platform processor owning each (row class, column
/// class) pair:
/// - a p×q Cartesian grid: classes are grid rows/columns, tile rows spread over grid rows in
///   proportion to the shares r_i (Boudet et al. 1999 §3.1.2; uniform shares give block-cyclic);
/// - a pattern (Beaumont et al. 2023): classes are pattern rows/columns, t mod R and t mod C.
#include <cstddef>
#include <vector>

namespace hetscal::core {

struct TileOwnership {
  std::size_t n = 0;     ///< matrix order
  std::size_t tile = 0;  ///< nb
  std::size_t rows = 0;  ///< row classes
  std::size_t cols = 0;  ///< column classes
  std::vector<std::size_t> owner;      ///< rows·cols platform processors, row-major
  std::vector<std::size_t> row_class;  ///< one per tile row
  std::vector<std::size_t> col_class;  ///< one per tile column

  std::size_t tiles() const { return row_class.size(); }
  std::size_t at(std::size_t a, std::size_t b) const { return owner[a * cols + b]; }
};

/// `count` items dealt to classes in proportion to `shares`: item t goes to the class a that
/// minimises (items_a + 1)/share_a (lowest a on ties), the incremental rule of Boudet et al.
/// §2.3.1. Equal shares give 0, 1, …, k−1, 0, 1, … (cyclic).
/// @throws InvalidArgument if shares is empty or a share is not finite and > 0.
std::vector<std::size_t> proportional_sequence(std::size_t count, const std::vector<double>& shares);

/// The caller's layout: ScaLAPACK's block-cyclic distribution with square blocks of `tile`
/// on a grid_rows × grid_cols grid; processor_at (row-major, empty = 0, 1, 2, … row-major)
/// names the platform processor of each grid position.
/// @throws InvalidArgument on a zero size or a processor_at of the wrong length.
TileOwnership block_cyclic_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                     std::size_t grid_cols, std::vector<std::size_t> processor_at);

/// A heterogeneous Cartesian grid: tile rows dealt to grid rows by proportional_sequence over
/// row_share, tile columns over col_share.
/// @throws InvalidArgument on size mismatches or bad shares.
TileOwnership cartesian_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                  std::size_t grid_cols, std::vector<std::size_t> processor_at,
                                  const std::vector<double>& row_share,
                                  const std::vector<double>& col_share);

/// A pattern laid over the matrix cyclically: tile (I, J) -> cell (I mod rows, J mod cols).
/// `owner` holds platform processors (every cell assigned).
/// @throws InvalidArgument on size mismatches.
TileOwnership pattern_ownership(std::size_t n, std::size_t tile, std::size_t rows, std::size_t cols,
                                std::vector<std::size_t> owner);

/// Matrix elements each of `processors` platform processors holds (edge tiles counted
/// exactly).
std::vector<double> elements_held(const TileOwnership& layout, std::size_t processors);

/// Elements that processor x holds in both `from` and `to` (same n): what stays in place
/// when data moves from one layout to the other.
/// @throws InvalidArgument if the matrix orders differ.
std::vector<double> elements_kept(const TileOwnership& from, const TileOwnership& to,
                                  std::size_t processors);

/// Tiles of row/column class per suffix: count[s][a] = #{t >= s : class[t] == a}, s in
/// [0, tiles]. Used to count a trailing matrix's tiles per class in O(classes).
std::vector<std::vector<std::size_t>> suffix_class_counts(const std::vector<std::size_t>& classes,
                                                          std::size_t num_classes);

}  // namespace hetscal::core
